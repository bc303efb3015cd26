"""Registering an LMS: a school's administrator by hand (and nobody else), or LTI Dynamic
Registration through a one-time link, against a platform served over real HTTP."""

import json

import pytest

from classroom.models import LtiDeployment, LtiPlatform, LtiRegistrationLink
from tests.lti.signer import JsonServer

FORM = {
    "name": "Moodle",
    "issuer": "https://moodle.example",
    "client_id": "abc123",
    "auth_url": "https://moodle.example/mod/lti/auth.php",
    "token_url": "https://moodle.example/mod/lti/token.php",
    "keyset_url": "https://moodle.example/mod/lti/certs.php",
    "audience": "",
    "deployment_ids": "1\n2\n",
}


def test_admin_registers_a_platform_and_sees_botbench_urls(school_admin_client, school):
    page = school_admin_client.get("/lti/platforms/")
    body = page.content.decode()
    for url in ("/lti/jwks.json", "/lti/login/", "/lti/launch/"):
        assert f"http://testserver{url}" in body
    response = school_admin_client.post("/lti/platforms/", FORM)
    platform = LtiPlatform.objects.get()
    assert response["Location"] == f"/lti/platforms/{platform.pk}/"
    assert platform.school == school
    assert sorted(platform.deployments.values_list("deployment_id", flat=True)) == ["1", "2"]


def test_same_platform_twice_is_a_clear_error(school_admin_client):
    school_admin_client.post("/lti/platforms/", FORM)
    again = school_admin_client.post("/lti/platforms/", FORM)
    assert again.status_code == 400
    assert "already registered" in again.content.decode()
    assert LtiPlatform.objects.count() == 1


def test_bad_url_changes_nothing(school_admin_client):
    response = school_admin_client.post("/lti/platforms/", {**FORM, "keyset_url": "not a url"})
    assert response.status_code == 400
    assert not LtiPlatform.objects.exists()


@pytest.mark.parametrize("who", ["teacher_client", "other_teacher_client", "outsider"])
def test_only_administrators_register(db, request, who):
    client = request.getfixturevalue(who)
    assert client.get("/lti/platforms/").status_code in (403, 404)
    assert client.post("/lti/platforms/", FORM).status_code in (403, 404)
    assert not LtiPlatform.objects.exists()


def test_another_schools_admin_cannot_see_the_platform(school_admin_client, other_school):
    from classroom.models import Role
    from tests.conftest import PASSWORD, make_user

    school_admin_client.post("/lti/platforms/", FORM)
    platform = LtiPlatform.objects.get()
    other = make_user("dana@other.example", other_school, Role.ADMINISTRATOR)
    from django.test import Client

    client = Client()
    assert client.login(email=other.email, password=PASSWORD)
    assert client.get(f"/lti/platforms/{platform.pk}/").status_code == 404
    assert (
        client.post(
            f"/lti/platforms/{platform.pk}/deployments/", {"deployment_id": "x"}
        ).status_code
        == 404
    )
    assert platform.deployments.count() == 2


def test_deployment_added_and_removed(school_admin_client):
    school_admin_client.post("/lti/platforms/", FORM)
    platform = LtiPlatform.objects.get()
    school_admin_client.post(f"/lti/platforms/{platform.pk}/deployments/", {"deployment_id": "3"})
    deployment = LtiDeployment.objects.get(deployment_id="3")
    school_admin_client.post(f"/lti/platforms/{platform.pk}/deployments/{deployment.pk}/remove/")
    assert sorted(platform.deployments.values_list("deployment_id", flat=True)) == ["1", "2"]


@pytest.fixture
def moodle():
    """A platform's OpenID configuration and registration endpoint, over real HTTP."""
    server = JsonServer()
    issuer = server.origin
    server.route(
        "GET",
        "/.well-known/openid-configuration",
        {
            "issuer": issuer,
            "authorization_endpoint": issuer + "/auth",
            "token_endpoint": issuer + "/token",
            "jwks_uri": issuer + "/jwks",
            "registration_endpoint": issuer + "/register",
            "scopes_supported": ["openid"],
            "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                "product_family_code": "moodle",
                "messages_supported": [{"type": "LtiResourceLinkRequest"}],
            },
        },
    )
    server.route(
        "POST",
        "/register",
        {
            "client_id": "dyn-client",
            "https://purl.imsglobal.org/spec/lti-tool-configuration": {"deployment_id": "7"},
        },
    )
    yield server
    server.close()


def test_dynamic_registration_through_a_one_time_link(school_admin_client, school, moodle):
    school_admin_client.post("/lti/platforms/registration-link/")
    link = LtiRegistrationLink.objects.get()
    params = {
        "link": link.token,
        "openid_configuration": moodle.origin + "/.well-known/openid-configuration",
        "registration_token": "reg-token",
    }
    from django.test import Client

    lms_frame = Client()  # the LMS's window: nobody signed in
    confirm = lms_frame.get("/lti/register/", params)
    assert confirm.status_code == 200 and school.name in confirm.content.decode()
    done = lms_frame.post("/lti/register/", params)
    assert done.status_code == 200
    assert "lti-registered" in done.content.decode()
    platform = LtiPlatform.objects.get()
    assert (platform.issuer, platform.client_id, platform.school) == (
        moodle.origin,
        "dyn-client",
        school,
    )
    assert list(platform.deployments.values_list("deployment_id", flat=True)) == ["7"]
    path, headers, body = moodle.posted[-1]
    sent = json.loads(body)
    assert headers["Authorization"] == "Bearer reg-token"
    assert sent["jwks_uri"] == "http://testserver/lti/jwks.json"
    tool = sent["https://purl.imsglobal.org/spec/lti-tool-configuration"]
    assert "email" not in tool["claims"] and "name" not in tool["claims"]
    # The link works once.
    assert lms_frame.post("/lti/register/", params).status_code == 400
    assert LtiPlatform.objects.count() == 1


def test_dynamic_registration_refuses_an_issuer_on_another_site(school_admin_client, moodle):
    school_admin_client.post("/lti/platforms/registration-link/")
    link = LtiRegistrationLink.objects.get()
    moodle.route(
        "GET",
        "/evil-config",
        {
            "issuer": "https://canvas.instructure.com",
            "authorization_endpoint": "https://x/a",
            "token_endpoint": "https://x/t",
            "jwks_uri": "https://x/j",
            "registration_endpoint": moodle.origin + "/register",
        },
    )
    from django.test import Client

    response = Client().post(
        "/lti/register/",
        {"link": link.token, "openid_configuration": moodle.origin + "/evil-config"},
    )
    assert response.status_code == 400
    assert not LtiPlatform.objects.exists()
    assert LtiRegistrationLink.objects.get().used_at is None


def test_unknown_registration_link_is_refused(db, moodle):
    from django.test import Client

    response = Client().get(
        "/lti/register/",
        {
            "link": "nope",
            "openid_configuration": moodle.origin + "/.well-known/openid-configuration",
        },
    )
    assert response.status_code == 400
    assert not moodle.posted


def test_dynamic_registration_over_plain_http_is_refused_in_production(
    school_admin_client, moodle, settings
):
    settings.LTI_ALLOW_LOOPBACK_HTTP = False
    school_admin_client.post("/lti/platforms/registration-link/")
    link = LtiRegistrationLink.objects.get()
    from django.test import Client

    response = Client().post(
        "/lti/register/",
        {
            "link": link.token,
            "openid_configuration": moodle.origin + "/.well-known/openid-configuration",
        },
    )
    assert response.status_code == 400
    assert not moodle.posted and not LtiPlatform.objects.exists()
