"""The insights pages, files and PDFs on a class with planted patterns: the same exact counts
on the page, in the CSV and XLSX (read back with their own libraries) and in the PDF text;
in Spanish too; and no GET writes anything."""

import csv
import io

import pytest
from django.urls import reverse

from tests.reports.insights_world import PLANTED_COUNTS, plant_class


@pytest.fixture
def planted(classroom):
    return plant_class(classroom)


def _page(client, name, pk, **extra):
    response = client.get(reverse(f"reports:{name}", args=[pk]), **extra)
    assert response.status_code == 200
    return response.content.decode()


def test_session_insights_page_shows_the_planted_counts_and_sentences(teacher_client, planted):
    html = _page(teacher_client, "session_insights", planted.first.pk)
    of = planted.first_count
    assert f"6 of {of} teams named an Act part where a Sense part belongs" in html
    assert "Drive wheels ×4, Propeller ×2" in html
    assert f"2 of {of} teams wrote a “because” that names neither the Mission nor a purpose" in html
    assert f"2 of {of} teams named a part that is not on their own bench" in html
    # The sentences behind it, as the teams wrote them, and the spotlight button.
    assert "Ruedas motrices" in html and "es muy bonito" in html
    assert reverse("games:spotlight", args=[planted.first.pk]) in html
    assert "Teach next" in html and "Start with:" in html


def test_class_insights_page_counts_over_time_and_shows_both_rubric_versions(
    teacher_client, planted
):
    html = _page(teacher_client, "class_insights", planted.classroom.pk)
    of = planted.first_count + planted.second_count
    assert f"7 of {of} teams named an Act part where a Sense part belongs" in html
    assert "Link to the Mission (max 3, rubric v2)" in html
    assert "Mission link (max 3, rubric v1)" in html
    assert "Complete (max 4, rubric v2)" in html
    assert "Right jobs (max 3, rubric v1, v2)" in html


def test_class_page_links_each_group_to_its_sentences(teacher_client, planted):
    from urllib.parse import urlencode

    html = _page(teacher_client, "class_insights", planted.classroom.pk)
    query = urlencode({"blank": "senses_with", "group": "card:drive_wheels"})
    url = reverse("reports:class_insights_sentences", args=[planted.classroom.pk])
    assert f"{url}?{query.replace('&', '&amp;')}" in html
    page = teacher_client.get(f"{url}?{query}").content.decode()
    assert "The 5 sentences behind it" in page and "Ruedas motrices" in page
    assert page.count('class="teachback-sentence') == 5
    missing = teacher_client.get(f"{url}?blank=senses_with&group=card:nothing")
    assert missing.status_code == 404


def test_administrator_reads_insights_without_the_spotlight_button(school_admin_client, planted):
    html = _page(school_admin_client, "session_insights", planted.first.pk)
    assert "6 of" in html
    assert reverse("games:spotlight", args=[planted.first.pk]) not in html


def test_spotlight_from_the_insights_goes_back_to_the_insights(teacher_client, planted):
    from games.models import TeachBackSpotlight

    insights = reverse("reports:session_insights", args=[planted.first.pk])
    html = _page(teacher_client, "session_insights", planted.first.pk)
    assert f'name="next" value="{insights}"' in html
    sentence = planted.first.teams.order_by("number").first().teachback
    spotlight = reverse("games:spotlight", args=[planted.first.pk])
    response = teacher_client.post(spotlight, {"teachback": sentence.pk, "next": insights})
    assert response.status_code == 302 and response["Location"] == insights
    assert TeachBackSpotlight.objects.get(session=planted.first).teachback_id == sentence.pk


@pytest.mark.parametrize(
    "outside", ["https://evil.example/insights/", "//evil.example/", "javascript:alert(1)"]
)
def test_spotlight_refuses_a_next_that_leaves_the_site(teacher_client, planted, outside):
    sentence = planted.first.teams.order_by("number").first().teachback
    spotlight = reverse("games:spotlight", args=[planted.first.pk])
    response = teacher_client.post(spotlight, {"teachback": sentence.pk, "next": outside})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:assessments", args=[planted.first.pk])


def test_reports_link_to_their_insights(teacher_client, planted):
    session_html = _page(teacher_client, "session", planted.first.pk)
    assert reverse("reports:session_insights", args=[planted.first.pk]) in session_html
    class_html = _page(teacher_client, "class_progress", planted.classroom.pk)
    assert reverse("reports:class_insights", args=[planted.classroom.pk]) in class_html


def test_spanish_page_says_the_counts_in_spanish(teacher_client, planted):
    html = _page(
        teacher_client, "session_insights", planted.first.pk, headers={"accept-language": "es"}
    )
    assert "Ruedas motrices ×4, Hélice ×2" in html
    assert "6 de " in html
    # The heat map holds the same scores in Spanish (its columns are the stored criteria).
    english = _page(teacher_client, "session_insights", planted.first.pk)
    for language_html in (html, english):
        assert language_html.count('heat-1">1/3<') == 6
        assert language_html.count('heat-3">3/3<') == planted.first_count * 2 - 6
    assert "sin puntaje" not in html


def _csv_tables(content: bytes) -> dict[str, list[list[str]]]:
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    tables, current = {}, None
    for row in rows:
        if not row:
            current = None
        elif current is None:
            current = tables.setdefault(row[0], [])
        else:
            current.append(row)
    return tables


def test_session_csv_holds_the_planted_counts(teacher_client, planted):
    response = teacher_client.get(
        reverse("reports:session_insights_export", args=[planted.first.pk, "csv"])
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    tables = _csv_tables(response.content)
    header, *rows = tables["Misconceptions"]
    counts = {row[0]: (int(row[1]), int(row[2])) for row in rows}
    of = planted.first_count
    assert counts[
        f"6 of {of} teams named an Act part where a Sense part belongs (“senses with”)"
    ] == (PLANTED_COUNTS["act_in_sense"], of)
    assert sorted(n for n, _ in counts.values()) == [2, 2, 6]
    assert any("Drive wheels ×4, Propeller ×2" in row for row in rows)
    header, *teams = tables["Rubric by team"]
    assert header == ["Team", "Complete", "Right jobs", "Mission link", "Said clearly"]
    assert len(teams) == of
    assert sorted(row[2] for row in teams) == ["1/3"] * 6 + ["3/3"] * (of - 6)


def test_class_xlsx_holds_the_counts_and_the_calls(teacher_client, planted):
    from openpyxl import load_workbook

    response = teacher_client.get(
        reverse("reports:class_insights_export", args=[planted.classroom.pk, "xlsx"])
    )
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(response.content))
    misconceptions = list(book["Misconceptions"].iter_rows(values_only=True))
    of = planted.first_count + planted.second_count
    assert misconceptions[0][:3] == ("Misconception", "Teams", "Of")
    first = misconceptions[1]
    assert first[1:3] == (7, of) and "Act part" in first[0]
    outcomes = [row[-1] for row in book["3 Laws every call"].iter_rows(values_only=True)][1:]
    assert outcomes.count("stood: right") == 3
    assert outcomes.count("countered: wrong") == 1
    assert outcomes.count("voided by the teacher: wrong") == 2


def test_spanish_xlsx_is_in_spanish(teacher_client, planted):
    from openpyxl import load_workbook

    response = teacher_client.get(
        reverse("reports:session_insights_export", args=[planted.first.pk, "xlsx"]),
        headers={"accept-language": "es"},
    )
    book = load_workbook(io.BytesIO(response.content))
    assert "Misconceptions" not in book.sheetnames
    header, *rows = book["Errores de concepto"].iter_rows(values_only=True)
    assert header[:3] == ("Error de concepto", "Equipos", "De")
    assert sorted(row[1] for row in rows) == [2, 2, PLANTED_COUNTS["act_in_sense"]]
    # The same scores as in English, under the Spanish criterion names.
    header, *teams = book["Rúbrica por equipo"].iter_rows(values_only=True)
    assert header[:3] == ("Equipo", "Completa", "Funciones correctas")
    assert sorted(row[2] for row in teams) == ["1/3"] * 6 + ["3/3"] * (planted.first_count - 6)


def test_unknown_format_is_404(teacher_client, planted):
    url = reverse("reports:session_insights_export", args=[planted.first.pk, "pdf"])
    assert teacher_client.get(url).status_code == 404


def test_insights_pages_write_nothing(teacher_client, planted):
    from django.db import connection

    executed = []

    def record(execute, sql, params, many, context):
        executed.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        _page(teacher_client, "class_insights", planted.classroom.pk)
        _page(teacher_client, "session_insights", planted.first.pk)
        teacher_client.get(
            reverse("reports:class_insights_export", args=[planted.classroom.pk, "xlsx"])
        )
    assert len(executed) > 10
    writes = [
        sql
        for sql in executed
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        and "django_session" not in sql
    ]
    assert writes == []
