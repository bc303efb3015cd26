"""A table ended with "End round now" before any move was not played: the report pages, the
CSV and the PDF say so instead of ranking every team 1st with 0 points; real ties say "Tied"."""

import pytest
from django.urls import reverse
from pypdf import PdfReader

from games import services as game_services
from games.models import TableGame
from reports import services
from reports.models import ExportStatus
from reports.selectors.progress import class_report
from reports.selectors.session import session_report
from tests.games.conftest import seat_teams


@pytest.fixture
def ended_before_any_move(open_session, teacher, students):
    """Table 1 played one move then ended; table 2 ended before any move; both over."""
    seat_teams(open_session, students[:3], teams=3, number=1)
    seat_teams(open_session, students[3:6], teams=3, number=2, first_team_number=4)
    games = game_services.session_start_tables(session=open_session, by=teacher)
    played, unplayed = sorted(games, key=lambda g: g.table.number)
    played.refresh_from_db()
    game_services.game_robot_turn(game_id=played.pk, by=teacher, expected_version=played.version)
    for game in (played, unplayed):
        game.refresh_from_db()
        game_services.game_end_now(game_id=game.pk, by=teacher, expected_version=game.version)
    return open_session, played, unplayed


def test_engine_standings_of_an_unplayed_table_are_all_tied_first(ended_before_any_move):
    _, _, unplayed = ended_before_any_move
    unplayed = TableGame.objects.get(pk=unplayed.pk)
    assert [row["place"] for row in unplayed.results] == [1, 1, 1]
    assert all(row["score"] == 0 for row in unplayed.results)


def test_the_report_marks_the_unplayed_table_and_gives_it_no_places(ended_before_any_move):
    session, _, _ = ended_before_any_move
    report = session_report(session)
    first, second = report.tables
    assert first.played and first.ranked
    assert not second.played and not second.ranked and second.winners == []


def test_report_page_says_not_played_and_ties_share_a_place(teacher_client, ended_before_any_move):
    session, _, _ = ended_before_any_move
    page = teacher_client.get(reverse("reports:session", args=[session.pk])).content.decode()
    table_2 = page[page.index('id="table-2-heading"') :]
    assert "Not played" in table_2
    assert "ended before anyone moved" in table_2
    assert "1st" not in table_2
    table_1 = page[page.index('id="table-1-heading"') : page.index('id="table-2-heading"')]
    # One robot move at table 1 installs nothing or one part: the others tie, and say so.
    assert "Tied" in table_1 or "2nd" in table_1


def test_student_page_and_csv_say_not_played(teacher_client, ended_before_any_move, students):
    session, _, _ = ended_before_any_move
    student = students[4]  # on a team at table 2
    page = teacher_client.get(
        reverse("reports:student_progress", args=[student.pk])
    ).content.decode()
    assert "Not played" in page and "1st" not in page
    csv = teacher_client.get(reverse("reports:session_csv", args=[session.pk, "results"]))
    rows = [line.split(",") for line in csv.content.decode("utf-8-sig").splitlines()[1:]]
    assert [row[4] for row in rows if row[0] == "2"] == ["", "", ""]


def test_class_progress_leaves_an_unplayed_table_out_of_the_results(
    ended_before_any_move, classroom
):
    session, _, _ = ended_before_any_move
    point = next(p for p in class_report(classroom).points if p.session == session)
    assert point.tables == 2 and point.finished_tables == 1
    assert len(point.scores) == 3


@pytest.mark.django_db(transaction=True)
def test_pdf_says_not_played(ended_before_any_move, teacher):
    session, _, _ = ended_before_any_move
    export, _ = services.export_request(target=session, by=teacher)
    export = services.export_render(export_id=export.pk)
    assert export.status == ExportStatus.READY, export.error
    text = " ".join(
        " ".join(page.extract_text() for page in PdfReader(export.file.path).pages).split()
    )
    after = text[text.index("Table 2") :]
    assert "Not played" in after and "ended before anyone moved" in after
