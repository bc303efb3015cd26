"""Projector sizes and the text sizes a page shows there, for the projector browser tests."""

from __future__ import annotations

import statistics

from classroom.models import Student
from games import services
from tests.e2e.conftest import PROJECTOR
from tests.games.conftest import (
    seat_teams,
)

LAYOUT = """() => {
  const live = document.querySelector("#live").getBoundingClientRect();
  const root = document.documentElement;
  const cells = [...document.querySelectorAll(".grid-cell, .public-bench, .tl-seat")];
  const bottom = Math.max(...cells.map((c) => c.getBoundingClientRect().bottom), 0);
  const broken = [...document.querySelectorAll(".bb-card-name, .bb-chip")].filter((el) => {
    // A name broken inside a word shows more lines than its words would need.
    const words = el.textContent.trim().split(/\\s+/);
    const range = document.createRange();
    let lines = new Set();
    for (const node of el.childNodes) {
      if (node.nodeType !== 3) continue;
      for (let i = 0; i < node.length; i++) {
        range.setStart(node, i); range.setEnd(node, i + 1);
        const r = range.getClientRects()[0];
        if (r && node.textContent[i].trim()) lines.add(Math.round(r.top));
      }
    }
    return lines.size > words.length;
  }).map((el) => el.textContent.trim());
  return {scrollW: root.scrollWidth, scrollH: root.scrollHeight, w: innerWidth, h: innerHeight,
          liveBottom: live.bottom, cellsBottom: bottom, broken,
          controls: document.querySelectorAll("button, input, select, textarea, form").length};
}"""


def measure(page) -> dict:
    sizes = page.evaluate(TEXT_SIZES)
    text = [s["size"] for s in sizes if not s["heading"]]
    headings = [s["size"] for s in sizes if s["heading"]]
    return {
        "median": statistics.median(text),
        "smallest": min(sizes, key=lambda s: s["size"]),
        "too_small": [s for s in sizes if s["size"] < MIN_PX - 0.5],
        "heading_min": min(headings) if headings else 0,
        "text_max": max(text),
    }


READING_PX = 14  # the smallest text a phone held at reading distance may show


SIZES = {
    "1080p": PROJECTOR,
    "720p": {"width": 1280, "height": 720},
    "xga": {"width": 1024, "height": 768},
}


MIN_PX = 28


def bot_builders_tables(
    session, teacher, tables: int, teams: int, turns: int, *, first_team_number: int = 1
):
    classroom = session.classroom
    students = [
        Student.objects.create(classroom=classroom, name=f"Kid {i}") for i in range(tables * teams)
    ]
    for number in range(tables):
        seat_teams(
            session,
            students[number * teams :],
            teams=teams,
            number=number + 1,
            first_team_number=first_team_number + number * teams,
        )
    games = services.session_start_tables(session=session, by=teacher)
    for game in games:
        for _ in range(turns):
            game.refresh_from_db()
            services.game_robot_turn(game_id=game.pk, by=teacher, expected_version=game.version)
    return games


# Every visible piece of text in the live region: its element's computed font size in px.
TEXT_SIZES = """() => {
  const sizes = [];
  const walker = document.createTreeWalker(document.querySelector("#live"), NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (rect.width < 3 || rect.height < 3 || style.visibility === "hidden") continue;
    if (!el.getClientRects().length || el.closest("[hidden], .visually-hidden")) continue;
    sizes.push({size: parseFloat(style.fontSize), text: node.textContent.trim().slice(0, 40),
                heading: !!el.closest("h1, h2, h3")});
  }
  return sizes;
}"""
