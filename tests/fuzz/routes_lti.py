"""The fuzz table of the LTI URLs (classroom/lti; see routes.py). The world gets a registered
LMS, a course linked to its class, a link and a one-time registration link on first use."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from classroom.models import (
    LtiCourse,
    LtiDeployment,
    LtiPlatform,
    LtiRegistrationLink,
    LtiResourceLink,
)
from tests.fuzz.routes import TEACHER_AND_ADMIN, FuzzRoute


def lti(w):
    """The world's LTI objects, made once a world."""
    if not hasattr(w, "_lti"):
        platform = LtiPlatform.objects.create(
            school=w.teacher.school,
            name="Fuzz LMS",
            issuer="https://lms.fuzz.test",
            client_id="fuzz",
            auth_url="https://lms.fuzz.test/auth",
            token_url="https://lms.fuzz.test/token",
            keyset_url="http://127.0.0.1:9/jwks",
        )
        deployment = LtiDeployment.objects.create(platform=platform, deployment_id="1")
        course = LtiCourse.objects.create(
            platform=platform, deployment=deployment, context_id="c", classroom=w.classroom
        )
        link = LtiResourceLink.objects.create(
            course=course, resource_link_id="l", game="three_laws"
        )
        registration = LtiRegistrationLink.objects.create(
            school=w.teacher.school, expires_at=timezone.now() + timedelta(days=1)
        )
        spare = LtiDeployment.objects.create(platform=platform, deployment_id="spare")
        w._lti = {
            "platform": platform,
            "link": link,
            "registration": registration,
            "spare": spare,
        }
    return w._lti


def _login(w) -> dict:
    lti(w)
    return {
        "iss": "https://lms.fuzz.test",
        "login_hint": "hint",
        "target_link_uri": "http://testserver/lti/launch/",
        "client_id": "fuzz",
        "lti_deployment_id": "1",
        "lti_message_hint": "m",
        "cookies_checked": "1",
    }


def _platform_form(w) -> dict:
    return {
        "name": "LMS",
        "issuer": "https://moodle.fuzz.test",
        "client_id": "abc",
        "auth_url": "https://moodle.fuzz.test/a",
        "token_url": "https://moodle.fuzz.test/t",
        "keyset_url": "https://moodle.fuzz.test/k",
        "audience": "",
        "deployment_ids": "1",
    }


def _register(w) -> dict:
    return {
        "link": lti(w)["registration"].token,
        # Nothing listens on port 9: the fetch fails at once.
        "openid_configuration": "http://127.0.0.1:9/.well-known/openid-configuration",
        "registration_token": "t",
    }


ANYONE = ("anonymous",)
ADMIN = ("admin",)

ROUTES: list[FuzzRoute] = [
    FuzzRoute("lti:login", "get", roles=ANYONE, params=_login),
    FuzzRoute("lti:login", roles=ANYONE, params=_login),
    FuzzRoute(
        "lti:launch",
        roles=ANYONE,
        params=lambda w: {"id_token": "a.b.c", "state": "state-x", "lti_storage_target": "x"},
    ),
    FuzzRoute("lti:jwks", "get", roles=ANYONE),
    FuzzRoute("lti:dynamic-register", "get", roles=ANYONE, params=_register),
    FuzzRoute("lti:dynamic-register", roles=ANYONE, params=_register),
    FuzzRoute(
        "lti:deep-link",
        roles=("teacher",),
        params=lambda w: {"choice": "three_laws", "title": "Lesson"},
    ),
    FuzzRoute("lti:activity", "get", args=lambda w: [lti(w)["link"].pk]),
    FuzzRoute("lti:activity-start", args=lambda w: [lti(w)["link"].pk]),
    FuzzRoute("lti:learner", "get", roles=ANYONE),
    FuzzRoute("lti:platforms", "get", roles=ADMIN),
    FuzzRoute(
        "lti:platforms",
        roles=ADMIN,
        params=_platform_form,
        stores=("name", "issuer", "client_id", "audience", "deployment_ids"),
    ),
    FuzzRoute("lti:registration-link", roles=ADMIN),
    FuzzRoute("lti:platform", "get", roles=ADMIN, args=lambda w: [lti(w)["platform"].pk]),
    FuzzRoute(
        "lti:platform",
        roles=ADMIN,
        args=lambda w: [lti(w)["platform"].pk],
        params=lambda w: {k: v for k, v in _platform_form(w).items() if k != "deployment_ids"},
        stores=("name", "issuer", "client_id", "audience"),
    ),
    FuzzRoute(
        "lti:platform-active",
        roles=ADMIN,
        args=lambda w: [lti(w)["platform"].pk],
        params=lambda w: {"active": "1"},
    ),
    FuzzRoute(
        "lti:deployment-add",
        roles=ADMIN,
        args=lambda w: [lti(w)["platform"].pk],
        params=lambda w: {"deployment_id": "2"},
        stores=("deployment_id",),
    ),
    FuzzRoute(
        "lti:deployment-remove",
        roles=ADMIN,
        args=lambda w: [lti(w)["platform"].pk, lti(w)["spare"].pk],
    ),
    # The roster sync and the gradebook status (lti-services). The world's course has no NRPS
    # endpoint, so the sync answers with its message and never reaches out.
    FuzzRoute("lti:roster", "get", args=lambda w: [lti(w) and w.classroom.pk]),
    FuzzRoute(
        "lti:roster",
        args=lambda w: [lti(w) and w.classroom.pk],
        params=lambda w: {"fingerprint": "0" * 32},
    ),
    FuzzRoute("lti:grades", "get", roles=TEACHER_AND_ADMIN, args=lambda w: [w.setup.pk]),
    FuzzRoute("lti:grades_send_again", args=lambda w: [w.setup.pk]),
]
