"""The fuzz tests' world: one of every row a route may name, and the users who may ask."""

from __future__ import annotations

import pytest

from tests.fuzz.world import World


@pytest.fixture
def world(teacher, school_admin, classroom, students, device_client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return World(
        teacher=teacher,
        school_admin=school_admin,
        classroom=classroom,
        students=students,
        device_client=device_client,
    )
