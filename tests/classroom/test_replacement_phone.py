"""A replacement phone rejoins: the join page lists taken names as taken, with what to do, and
the teacher frees a name from the tables dashboard in one click."""

from django.test import Client
from django.urls import reverse

from classroom import services
from classroom.models import DeviceBinding
from classroom.selectors import JoinedDevice, session_devices_by_table
from tests.games.conftest import seat_teams, start_live_table

JOIN = "/join"


def test_taken_names_are_listed_as_taken_with_what_to_do(open_session, students, device_client):
    device_client(open_session, students[0])
    page = Client().get(JOIN, {"code": open_session.room_code}).content.decode()
    taken = students[0].name
    assert f'<p class="name-button is-taken">{taken} <span class="name-taken">taken</span></p>' in (
        page
    )
    assert f'value="{students[0].pk}"' not in page  # not a button to tap
    assert f'value="{students[1].pk}"' in page
    assert "Ask your teacher to free it" in page


def test_with_no_name_taken_there_is_no_taken_hint(open_session):
    page = Client().get(JOIN, {"code": open_session.room_code}).content.decode()
    assert "is-taken" not in page and "free it" not in page


def test_the_device_holding_a_name_sees_it_as_its_own_not_taken(
    open_session, students, device_client
):
    device = device_client(open_session, students[0])
    page = device.get(JOIN, {"code": open_session.room_code}).content.decode()
    assert "is-taken" not in page and "is-current" in page


def test_tapping_a_taken_name_is_refused_with_what_to_do(open_session, students, device_client):
    device_client(open_session, students[0])
    response = Client().post(JOIN, {"code": open_session.room_code, "student": students[0].pk})
    assert response.status_code == 400
    assert "ask your teacher to free it" in response.content.decode()
    assert DeviceBinding.objects.filter(revoked_at__isnull=True).count() == 1


def test_teacher_frees_a_phone_from_the_tables_dashboard_in_one_click(
    open_session, teacher, teacher_client, students, device_client
):
    table = start_live_table(open_session, teacher, students, device_client)
    dashboard = reverse("games:teacher_tables", args=[open_session.pk])
    page = teacher_client.get(dashboard).content.decode()
    lost = table.devices[1].binding
    unbind = reverse("classroom:device_unbind", args=[open_session.pk, lost.pk])
    assert f'action="{unbind}"' in page
    assert f"Free {students[1].name}'s name" in page

    response = teacher_client.post(unbind, {"next": "tables"}, follow=True)
    assert response.redirect_chain[-1][0] == dashboard
    assert f"{students[1].name}&#x27;s name is free" in response.content.decode()
    lost.refresh_from_db()
    assert lost.revoked_at is not None
    # The replacement phone takes the name and plays on.
    replacement = Client()
    joined = replacement.post(JOIN, {"code": open_session.room_code, "student": students[1].pk})
    assert joined.url == "/me"
    assert replacement.get(reverse("games:device")).status_code == 200


def test_only_the_class_teacher_sees_and_uses_the_free_buttons(
    open_session, teacher, students, device_client, colleague_client, school_admin_client
):
    table = start_live_table(open_session, teacher, students, device_client)
    dashboard = reverse("games:teacher_tables", args=[open_session.pk])
    assert "Free " not in school_admin_client.get(dashboard).content.decode()
    binding = table.devices[0].binding
    unbind = reverse("classroom:device_unbind", args=[open_session.pk, binding.pk])
    assert colleague_client.post(unbind, {"next": "tables"}).status_code in (403, 404)
    binding.refresh_from_db()
    assert binding.revoked_at is None


def test_a_next_other_than_tables_goes_back_to_the_session(
    open_session, teacher_client, students, device_client
):
    binding = device_client(open_session, students[0]).binding
    unbind = reverse("classroom:device_unbind", args=[open_session.pk, binding.pk])
    response = teacher_client.post(unbind, {"next": "https://elsewhere.example/"})
    assert response.url == open_session.get_absolute_url()


def test_the_dashboard_lists_each_joined_device_under_its_team_s_table(
    open_session, teacher, students, device_client
):
    # Students 0-1 at table 1, 2-3 at table 2, 4 on no team; 3's phone was freed.
    first, _ = seat_teams(open_session, students[:2], teams=2, number=1)
    second, _ = seat_teams(open_session, students[2:4], teams=2, number=2, first_team_number=3)
    joined = {student.pk: device_client(open_session, student).binding for student in students[:5]}
    services.device_unbind(binding=joined[students[3].pk], by=teacher)

    def listed(*chosen):
        named = sorted(chosen, key=lambda student: student.name)
        return [JoinedDevice(joined[student.pk].pk, student.name) for student in named]

    assert session_devices_by_table(open_session) == {
        first.pk: listed(students[0], students[1]),
        second.pk: listed(students[2]),
        None: listed(students[4]),
    }
