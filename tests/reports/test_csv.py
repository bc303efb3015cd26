"""Every report table downloads as CSV: UTF-8 with a BOM, the same rows as the page, and no
cell a spreadsheet would run as a formula."""

import csv
import io

import pytest
from django.urls import reverse

from classroom.models import Student
from games.models import TeachBack
from reports.csv_export import BOM, TABLES, write_csv


def read(response) -> list[list[str]]:
    body = response.content
    assert body.startswith(BOM.encode("utf-8"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment;")
    return list(csv.reader(io.StringIO(body.decode("utf-8")[1:])))


def test_class_sessions_csv_has_one_row_per_session_with_the_page_figures(
    teacher_client, seeded_class
):
    rows = read(
        teacher_client.get(reverse("reports:class_csv", args=[seeded_class.pk, "sessions"]))
    )
    assert rows[0][:3] == ["Date", "Game", "Present"]
    assert len(rows) == 1 + 5
    dates = [r[0] for r in rows[1:]]
    assert dates == sorted(dates)
    assert rows[-1][1] == "3 Laws of Robotics" and rows[-1][10] != ""


def test_participation_csv_keeps_accented_names(teacher_client, seeded_class):
    Student.objects.filter(classroom=seeded_class, name="Ava").update(name="Zoë")
    response = teacher_client.get(
        reverse("reports:class_csv", args=[seeded_class.pk, "participation"])
    )
    names = [r[0] for r in read(response)[1:]]
    assert "Zoë" in names and "Ava" not in names


def test_session_teachbacks_csv_holds_sentences_scores_and_comments(
    teacher_client, bb_report_session
):
    response = teacher_client.get(
        reverse("reports:session_csv", args=[bb_report_session.pk, "teachbacks"])
    )
    rows = read(response)
    assert len(rows) == 1 + TeachBack.objects.filter(team__session=bb_report_session).count()
    row = next(r for r in rows if r[5] == "it rescues kittens from tall trees")
    assert "Complete: 3/3" in row[6] and "Said clearly: skipped/3" in row[6]
    assert row[7] == "Lovely link to the Mission."


def test_a_student_text_starting_like_a_formula_is_defused():
    body = write_csv(["Because"], [['=HYPERLINK("http://x")'], ["@SUM(A1)"], [3]])
    rows = list(csv.reader(io.StringIO(body.decode("utf-8")[1:])))
    assert rows[1] == ['\'=HYPERLINK("http://x")'] and rows[2] == ["'@SUM(A1)"] and rows[3] == ["3"]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t.report}-{t.slug}")
def test_every_table_downloads(table, teacher_client, school_admin_client, seeded_class):
    student = seeded_class.students.order_by("pk").first()
    session = seeded_class.sessions.order_by("date").first()
    if table.report == "school":
        client, url = school_admin_client, reverse("reports:school_csv", args=[table.slug])
    else:
        pk = {"session": session.pk, "class": seeded_class.pk, "student": student.pk}[table.report]
        client, url = teacher_client, reverse(f"reports:{table.report}_csv", args=[pk, table.slug])
    rows = read(client.get(url))
    assert rows[0] == table.header
    assert len(rows) > 1


def test_an_unknown_table_is_404(teacher_client, seeded_class):
    response = teacher_client.get(reverse("reports:class_csv", args=[seeded_class.pk, "nope"]))
    assert response.status_code == 404
