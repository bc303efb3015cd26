"""Reading pasted and CSV rosters: pure functions, no database."""

import pytest

from classroom.roster import (
    MAX_CSV_BYTES,
    RosterEntry,
    RosterError,
    duplicate_problems,
    parse_csv,
    parse_pasted,
)


def test_pasted_names_one_a_line_with_optional_birth_month():
    entries = parse_pasted("Ava\n\n  Ben  \nChloe, 2016-04\r\n")
    assert [(e.name, e.birth_month, e.line) for e in entries] == [
        ("Ava", "", 1),
        ("Ben", "", 3),
        ("Chloe", "2016-04", 4),
    ]


def test_pasted_nothing_is_refused():
    with pytest.raises(RosterError, match="at least one name"):
        parse_pasted(" \n\n")


def test_pasted_empty_name_and_bad_month_are_reported_by_line():
    with pytest.raises(RosterError) as caught:
        parse_pasted("Ava\n, 2016-04\nBen, April 2016")
    assert caught.value.problems == [
        "Line 2: the name is empty.",
        "Line 3: birth month “April 2016” is not YYYY-MM (for example 2015-04).",
    ]


def test_pasted_name_too_long_is_refused():
    with pytest.raises(RosterError, match="longer than 60"):
        parse_pasted("A" * 61)


def test_csv_with_header_in_any_column_order():
    data = b"birth_month,name\n2016-01,Ava\n,Ben\n"
    assert parse_csv(data) == [
        RosterEntry(line=2, name="Ava", birth_month="2016-01"),
        RosterEntry(line=3, name="Ben", birth_month=""),
    ]


def test_csv_without_header_and_with_excel_bom():
    data = "\ufeffAva,2016-01\nBen\n\n".encode()
    assert [(e.name, e.birth_month) for e in parse_csv(data)] == [("Ava", "2016-01"), ("Ben", "")]


def test_csv_non_utf8_is_refused():
    with pytest.raises(RosterError, match="not UTF-8"):
        parse_csv("Zoë\n".encode("latin-1"))


def test_csv_too_large_is_refused():
    with pytest.raises(RosterError, match="at most 200 KB"):
        parse_csv(b"a" * (MAX_CSV_BYTES + 1))


def test_csv_over_200_rows_is_refused():
    data = "\n".join(f"Student {i}" for i in range(201)).encode()
    with pytest.raises(RosterError, match="more than 200"):
        parse_csv(data)


def test_csv_unknown_column_is_refused_to_collect_the_least():
    with pytest.raises(RosterError, match="unknown column “surname”"):
        parse_csv(b"name,surname\nAva,Smith\n")


def test_csv_bad_rows_are_reported_by_line():
    with pytest.raises(RosterError) as caught:
        parse_csv(b"name,birth_month\nAva,2016-13\n,2016-01\nBen,2016-02\n")
    assert caught.value.problems == [
        "Line 2: birth month “2016-13” is not YYYY-MM (for example 2015-04).",
        "Line 3: the name is empty.",
    ]


def test_csv_with_too_many_columns_without_header_is_refused():
    with pytest.raises(RosterError, match="Line 1: 3 columns"):
        parse_csv(b"Ava,2016-01,extra\n")


def test_duplicates_within_input_and_against_roster_are_case_insensitive():
    entries = [RosterEntry(1, "Ava"), RosterEntry(2, "ben"), RosterEntry(3, "AVA")]
    assert duplicate_problems(entries, ["Ben"]) == [
        "Line 2: ben is already in this class.",
        "Line 3: AVA is also on line 1. Add an initial or a nickname to tell them apart.",
    ]


def test_csv_header_without_a_name_column_is_refused():
    with pytest.raises(RosterError, match="no name column"):
        parse_csv(b"birth_month\n2016-01\n")


@pytest.mark.parametrize(
    "header",
    [
        "nombre,mes_de_nacimiento",
        "Nombre,Mes de nacimiento",
        "apodo,mes_de_nacimiento",
        "name,birth_month",
        "First_Name,Birth Month",
    ],
)
def test_the_header_row_may_be_english_or_spanish(header):
    entries = parse_csv(f"{header}\nAna,2015-04\nLuis,\n".encode())
    assert [(e.name, e.birth_month) for e in entries] == [("Ana", "2015-04"), ("Luis", "")]


def test_a_spanish_header_in_another_order_is_read_by_its_names():
    entries = parse_csv(b"mes_de_nacimiento,nombre\n2015-04,Ana\n")
    assert [(e.name, e.birth_month) for e in entries] == [("Ana", "2015-04")]


def test_an_unknown_column_is_named_as_written():
    with pytest.raises(RosterError, match="unknown column “Apellido”"):
        parse_csv(b"nombre,Apellido\nAna,Ruiz\n")
