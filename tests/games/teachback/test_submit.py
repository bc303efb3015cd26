"""A team sends its sentence from its device: prefill, revisions, the lock, refusals."""

import pytest
from django.utils import timezone

from classroom.models import Session
from classroom.services import ServiceError
from games.models import TeachBack
from games.teachback import services
from games.teachback.selectors import final_bench_for
from tests.games.conftest import (
    GOOD_SENTENCE,
    SAMPLE_BENCH,
    make_table,
    set_bench,
)


@pytest.fixture
def finished(open_session, students):
    return make_table(open_session, students, teams=2, seed=7)


@pytest.fixture
def team(finished):
    return finished.teams[0]


@pytest.fixture
def binding(finished, device_client, open_session):
    return device_client(open_session, finished.members[0]).binding


def test_final_bench_is_the_engine_bench_of_the_team(finished, team):
    bench = final_bench_for(team)
    assert bench == finished.game.state["benches"][team.seat]
    assert set(bench) == {"sense", "think", "act", "power", "mission"}


def test_prefill_names_the_installed_parts_and_leaves_empty_slots_and_because_blank(finished, team):
    set_bench(
        finished,
        team,
        SAMPLE_BENCH,
    )
    assert services.teachback_initial(team) == {
        "senses_with": "Camera",
        "thinks_with": "",
        "acts_with": "Drive wheels",
        "powered_by": "Solar panel",
        "because": "",
    }


def test_submit_stores_five_fields_and_the_bench_snapshot(finished, team, binding):
    set_bench(
        finished,
        team,
        {
            "sense": "camera",
            "think": "loop_chip",
            "act": "speaker",
            "power": None,
            "mission": "night_guard",
        },
    )
    services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding)
    saved = TeachBack.objects.get(team=team)
    assert saved.because == GOOD_SENTENCE["because"]
    assert saved.senses_with == GOOD_SENTENCE["senses_with"]
    assert saved.bench_snapshot == {
        "sense": "camera",
        "think": "loop_chip",
        "act": "speaker",
        "power": None,
        "mission": "night_guard",
    }
    assert saved.mission == "night_guard"
    assert saved.game_id == finished.game.pk
    assert saved.revision == 1


def test_prefill_shows_the_sent_sentence_once_sent(team, binding):
    services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding)
    assert services.teachback_initial(team) == GOOD_SENTENCE


def test_resubmitting_changed_words_revises_the_same_row(team, binding):
    services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding)
    services.teachback_submit(
        team=team, fields={**GOOD_SENTENCE, "because": "so it can rescue people"}, by_device=binding
    )
    saved = TeachBack.objects.get(team=team)
    assert TeachBack.objects.filter(team=team).count() == 1
    assert saved.revision == 2
    assert saved.because == "so it can rescue people"


def test_resubmitting_the_same_words_is_a_no_op(team, binding):
    first = services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding)
    services.teachback_submit(team=team, fields=dict(GOOD_SENTENCE), by_device=binding)
    saved = TeachBack.objects.get(team=team)
    assert saved.revision == 1
    assert saved.updated_at == first.updated_at


def test_whitespace_is_trimmed_and_collapsed(team, binding):
    services.teachback_submit(
        team=team, fields={**GOOD_SENTENCE, "acts_with": "  drive \n wheels "}, by_device=binding
    )
    assert TeachBack.objects.get(team=team).acts_with == "drive wheels"


def test_a_locked_session_refuses_a_revision_with_a_message_and_keeps_the_old_one(
    open_session, team, binding, teacher
):
    services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding)
    services.session_lock_teachbacks(session=open_session, by=teacher)
    with pytest.raises(ServiceError, match="locked"):
        services.teachback_submit(
            team=team, fields={**GOOD_SENTENCE, "because": "changed"}, by_device=binding
        )
    saved = TeachBack.objects.get(team=team)
    assert saved.because == GOOD_SENTENCE["because"]
    assert saved.revision == 1


def test_a_locked_session_refuses_a_first_sentence(open_session, team, binding, teacher):
    services.session_lock_teachbacks(session=open_session, by=teacher)
    with pytest.raises(ServiceError, match="locked"):
        services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding)
    assert not TeachBack.objects.filter(team=team).exists()


def test_unlocking_allows_revisions_again(open_session, team, binding, teacher):
    services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding)
    services.session_lock_teachbacks(session=open_session, by=teacher)
    services.session_unlock_teachbacks(session=open_session, by=teacher)
    services.teachback_submit(
        team=team, fields={**GOOD_SENTENCE, "because": "so it helps"}, by_device=binding
    )
    assert TeachBack.objects.get(team=team).revision == 2


def test_locking_twice_keeps_the_first_lock_time_and_touches_only_that_field(open_session, teacher):
    title_before = open_session.title
    services.session_lock_teachbacks(session=open_session, by=teacher)
    first = Session.objects.get(pk=open_session.pk).teachbacks_locked_at
    services.session_lock_teachbacks(session=open_session, by=teacher)
    fresh = Session.objects.get(pk=open_session.pk)
    assert fresh.teachbacks_locked_at == first is not None
    assert fresh.title == title_before
    assert fresh.status == "open"


def test_only_the_class_teacher_can_lock(open_session, colleague, school_admin):
    for user in (colleague, school_admin):
        with pytest.raises(ServiceError):
            services.session_lock_teachbacks(session=open_session, by=user)
    assert Session.objects.get(pk=open_session.pk).teachbacks_locked_at is None


@pytest.mark.parametrize(
    "field", ["senses_with", "thinks_with", "acts_with", "powered_by", "because"]
)
def test_an_empty_blank_is_refused_naming_it_and_nothing_changes(team, binding, field):
    services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding)
    label = field.replace("_", " ")
    with pytest.raises(ServiceError, match=f"Fill in the blank after “{label}”"):
        services.teachback_submit(
            team=team, fields={**GOOD_SENTENCE, field: "  "}, by_device=binding
        )
    saved = TeachBack.objects.get(team=team)
    assert getattr(saved, field) == GOOD_SENTENCE[field]
    assert saved.revision == 1


@pytest.mark.parametrize(("field", "limit"), [("senses_with", 120), ("because", 600)])
def test_a_too_long_blank_is_refused_and_nothing_is_stored(team, binding, field, limit):
    with pytest.raises(ServiceError, match=f"at most {limit} characters"):
        services.teachback_submit(
            team=team, fields={**GOOD_SENTENCE, field: "x" * (limit + 1)}, by_device=binding
        )
    assert not TeachBack.objects.filter(team=team).exists()


def test_the_longest_allowed_blank_is_accepted(team, binding):
    services.teachback_submit(
        team=team, fields={**GOOD_SENTENCE, "because": "y" * 600}, by_device=binding
    )
    assert len(TeachBack.objects.get(team=team).because) == 600


def test_a_device_cannot_submit_for_another_team(finished, device_client, open_session):
    other_device = device_client(open_session, finished.members[1]).binding
    with pytest.raises(ServiceError, match="own team"):
        services.teachback_submit(
            team=finished.teams[0], fields=GOOD_SENTENCE, by_device=other_device
        )
    assert not TeachBack.objects.filter(team=finished.teams[0]).exists()


def test_a_sentence_is_refused_before_the_game_is_over(open_session, students, device_client):
    playing = make_table(open_session, students, over=False)
    binding = device_client(open_session, playing.members[0]).binding
    with pytest.raises(ServiceError, match="not over yet"):
        services.teachback_submit(team=playing.teams[0], fields=GOOD_SENTENCE, by_device=binding)
    assert not TeachBack.objects.exists()


def test_a_team_without_a_table_game_is_refused(open_session, students, device_client):
    from classroom.models import Team, TeamMembership

    team = Team.objects.create(session=open_session, number=9, name="Team 9")
    TeamMembership.objects.create(session=open_session, team=team, student=students[7])
    binding = device_client(open_session, students[7]).binding
    with pytest.raises(ServiceError, match="not over yet"):
        services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding)


def test_the_snapshot_follows_the_bench_at_each_revision(finished, team, binding):
    services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding)
    set_bench(finished, team, {"sense": "camera", "mission": "maze_runner"})
    services.teachback_submit(
        team=team, fields={**GOOD_SENTENCE, "because": "so it finds the way"}, by_device=binding
    )
    saved = TeachBack.objects.get(team=team)
    assert saved.bench_snapshot["sense"] == "camera"
    assert saved.mission == "maze_runner"
    assert saved.updated_at <= timezone.now()


def test_a_tabletop_table_uses_the_bench_recorded_by_the_card_picker(
    open_session, students, device_client
):
    from games.models import TableMode

    tabletop = make_table(open_session, students, teams=2)
    team = tabletop.teams[0]
    tabletop.game.mode = TableMode.TABLETOP
    tabletop.game.state = {
        "benches": {
            team.seat: {
                "sense": "thermometer",
                "think": None,
                "act": "water_pump",
                "power": "solar_panel",
                "mission": "garden_helper",
            },
            tabletop.teams[1].seat: dict.fromkeys(("sense", "think", "act", "power", "mission")),
        }
    }
    tabletop.game.save()
    assert services.teachback_initial(team) == {
        "senses_with": "Thermometer",
        "thinks_with": "",
        "acts_with": "Water pump",
        "powered_by": "Solar panel",
        "because": "",
    }
    binding = device_client(open_session, tabletop.members[0]).binding
    saved = services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding)
    saved.refresh_from_db()
    assert saved.mission == "garden_helper"
    assert saved.bench_snapshot["sense"] == "thermometer"
