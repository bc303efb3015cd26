"""The LTI models' database rules: one course per class, a person is a teacher or a student."""

import pytest
from django.db import IntegrityError

from classroom.models import LtiCourse, LtiDeployment, LtiPerson, LtiPlatform


@pytest.fixture
def platform(school):
    return LtiPlatform.objects.create(
        school=school,
        name="Canvas",
        issuer="https://lms.example",
        client_id="botbench",
        auth_url="https://lms.example/auth",
        token_url="https://lms.example/token",
        keyset_url="https://lms.example/jwks",
    )


def test_person_must_be_teacher_or_student(platform, classroom, teacher):
    deployment = LtiDeployment.objects.create(platform=platform, deployment_id="1")
    course = LtiCourse.objects.create(
        platform=platform, deployment=deployment, context_id="c1", classroom=classroom
    )
    with pytest.raises(IntegrityError):
        LtiPerson.objects.create(platform=platform, course=course, sub_hash="x")


def test_issuer_and_client_id_register_once(platform, school):
    with pytest.raises(IntegrityError):
        LtiPlatform.objects.create(
            school=school,
            name="Again",
            issuer=platform.issuer,
            client_id=platform.client_id,
            auth_url="https://lms.example/auth",
            token_url="https://lms.example/token",
            keyset_url="https://lms.example/jwks",
        )
