"""WeasyPrint loads nothing but the site's static files and this render's own charts: a
student's text, even pasted as raw HTML, cannot make it read a local file or reach an address."""

import socket
import subprocess
import threading

import pytest

from reports import charts
from reports.pdf import ReportFetcher, html_to_pdf
from tests.reports.conftest import make_session


def pdf_text(pdf: bytes, tmp_path) -> str:
    path = tmp_path / "x.pdf"
    path.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


DATA_IMG = (
    "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg'>"
    "<text y='20'>DATAIMG</text></svg>"
)


@pytest.fixture
def listener():
    """A TCP server on 127.0.0.1 that records every connection made to it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    hits: list[str] = []
    stop = threading.Event()

    def accept():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            hits.append(conn.recv(200).decode(errors="replace"))
            conn.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1], hits
    stop.set()
    thread.join()
    server.close()


def test_raw_html_cannot_read_a_local_file_or_reach_an_address(tmp_path, listener):
    port, hits = listener
    secret_svg = tmp_path / "secret.svg"
    secret_svg.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="40">'
        '<text x="0" y="30">TOPSECRETFILE</text></svg>'
    )
    secret_css = tmp_path / "secret.css"
    secret_css.write_text('body::after { content: "LEAKEDSTYLE"; }')
    html = f"""<html><head>
      <link rel="stylesheet" href="http://127.0.0.1:{port}/x.css">
      <link rel="stylesheet" href="file://{secret_css}">
      <link rel="stylesheet" href="data:text/css,body::before{{content:'DATACSS'}}">
      </head><body><p>Student text:</p>
      <img src="file:///etc/passwd"><img src="file://{secret_svg}">
      <img src="http://127.0.0.1:{port}/pixel.png">
      <img src="https://127.0.0.1:{port}/pixel.png">
      <img src="{DATA_IMG}">
      <object data="file:///etc/passwd"></object>
      </body></html>"""
    fetcher = ReportFetcher()
    text = pdf_text(html_to_pdf(html, fetcher=fetcher), tmp_path)
    assert "Student text" in text
    for marker in ("TOPSECRETFILE", "LEAKEDSTYLE", "DATACSS", "DATAIMG", "root:"):
        assert marker not in text
    assert hits == []
    refused = " ".join(fetcher.refused)
    assert "file:///etc/passwd" in refused and f"127.0.0.1:{port}" in refused
    assert str(secret_svg) in refused and "data:image/svg" in refused


def test_the_charts_of_this_render_and_static_files_still_load(tmp_path):
    chart = charts.bar_chart("Made here", ["A"], [("S", [3])], description="test")
    html = f"""<html><head><link rel="stylesheet" href="css/print/reports.css"></head>
      <body><h1>Title</h1><img src="{chart.uri}"></body></html>"""
    fetcher = ReportFetcher([chart.uri])
    text = pdf_text(html_to_pdf(html, fetcher=fetcher), tmp_path)
    assert fetcher.refused == []
    assert "Made here" in text  # the chart's title, drawn from the SVG


def test_a_chart_not_made_by_this_render_is_refused():
    other = charts.bar_chart("Other", ["A"], [("S", [1])], description="x")
    fetcher = ReportFetcher([])
    with pytest.raises(ValueError):
        fetcher.fetch(other.uri)


@pytest.mark.django_db
def test_a_teachback_holding_html_prints_as_text_and_loads_nothing(classroom, tmp_path, listener):
    from games.models import TeachBack
    from reports import documents
    from reports.models import Export, ExportKind

    port, hits = listener
    session = make_session(classroom, seed=2)
    evil = f'<img src="file:///etc/passwd"><link href="http://127.0.0.1:{port}/x">'
    TeachBack.objects.filter(team__session=session).update(because=evil)
    export = Export(
        kind=ExportKind.SESSION, parameters={"session": session.pk}, school=classroom.school
    )
    text = pdf_text(documents.render_pdf(export), tmp_path)
    assert "file:///etc/passwd" in text  # printed as the words the student typed
    assert hits == []
