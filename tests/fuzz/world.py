"""One school with something behind every URL: a class and its roster, a session being set up,
a Bot-Builders table in play, a finished table with a teach-back, a tabletop table, a 3 Laws
table at its questions, an export and an invitation. Each part is built the first time a route
asks for it, so a route pays only for what it uses."""

from __future__ import annotations

import datetime
import re
from functools import cached_property

from django.apps import apps
from django.contrib.auth.tokens import default_token_generator
from django.db import models
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from classroom import services as classroom_services
from classroom.models import GameKind, Invitation, Session, Variant
from tests.games.conftest import (
    GOOD_SENTENCE,
    advance,
    make_table,
    seat_teams,
    start_live_table,
    start_table,
    three_laws_session,
)


def _session(classroom, teacher, day: int, **fields) -> Session:
    session = Session.objects.create(
        classroom=classroom,
        date=datetime.date(2026, 12, day),
        game=fields.pop("game", GameKind.BOT_BUILDERS),
        **fields,
    )
    return classroom_services.session_open(session=session, by=teacher)


class World:
    def __init__(self, *, teacher, school_admin, classroom, students, device_client):
        self.teacher = teacher
        self.school_admin = school_admin
        self.classroom = classroom
        self.students = students
        self.student = students[0]
        self._device_client = device_client

    # -- clients ------------------------------------------------------------------------------

    def client(self, role: str) -> Client:
        """A fresh client acting as `role`: teacher, admin, anonymous, or a device of one of
        the world's tables (`device_live`, `device_teachback`, `device_tabletop`,
        `device_laws`, `device_setup`)."""
        if role in ("teacher", "admin"):
            client = Client()
            client.force_login(self.teacher if role == "teacher" else self.school_admin)
            return client
        if role == "anonymous":
            return Client()
        return getattr(self, role)

    # -- a session being set up ---------------------------------------------------------------

    @cached_property
    def setup(self) -> Session:
        session = _session(self.classroom, self.teacher, 1)
        classroom_services.session_set_present(
            session=session, student_ids=[s.pk for s in self.students], by=self.teacher
        )
        classroom_services.team_autopair(session=session, by=self.teacher)
        classroom_services.tables_autosplit(session=session, by=self.teacher)
        return session

    @cached_property
    def robot(self):
        return classroom_services.team_add_robot(session=self.setup, by=self.teacher)

    @cached_property
    def device_setup(self) -> Client:
        return self._device_client(self.setup, self.students[0])

    @cached_property
    def team(self):
        return self.setup.teams.filter(is_robot=False).order_by("number").first()

    @cached_property
    def table(self):
        return self.setup.tables.order_by("number").first()

    # -- a Bot-Builders table in play ---------------------------------------------------------

    @cached_property
    def live(self):
        session = _session(self.classroom, self.teacher, 2)
        return start_live_table(session, self.teacher, self.students, self._device_client)

    @property
    def device_live(self) -> Client:
        return self.live.devices[0]

    def live_poll_token(self) -> str:
        html = self.device_live.get(reverse("games:device")).content.decode()
        return re.search(r"[?&]t=([^&\"]+)", html).group(1)

    # -- a finished table and its teach-back --------------------------------------------------

    @cached_property
    def finished(self):
        session = _session(self.classroom, self.teacher, 3)
        return make_table(session, self.students, teams=2, per_team=2)

    @cached_property
    def device_teachback(self) -> Client:
        return self._device_client(self.finished.table.session, self.finished.members[0])

    @cached_property
    def teachback(self):
        from games.teachback import services as teachback_services

        return teachback_services.teachback_submit(
            team=self.finished.teams[0],
            fields=GOOD_SENTENCE,
            by_device=self.device_teachback.binding,
        )

    # -- a tabletop table ---------------------------------------------------------------------

    @cached_property
    def tabletop(self):
        from games import services as game_services

        session = _session(self.classroom, self.teacher, 4, variant=Variant.TABLETOP)
        seat_teams(session, self.students, teams=3)
        device = self._device_client(session, self.students[0])
        (game,) = game_services.session_start_tables(session=session, by=self.teacher)
        return game, device

    @property
    def device_tabletop(self) -> Client:
        return self.tabletop[1]

    # -- a 3 Laws table at its questions ------------------------------------------------------

    @cached_property
    def laws(self):
        session = three_laws_session(self.classroom, self.teacher)
        table = start_table(session, self.teacher, self.students, self._device_client)
        advance(table.game, self.teacher, 2)
        return table

    @property
    def device_laws(self) -> Client:
        return self.laws.devices[0]

    # -- reports, accounts --------------------------------------------------------------------

    @cached_property
    def export(self):
        from reports import services as report_services

        export, _ = report_services.export_request(target=self.classroom, by=self.teacher)
        return export

    @cached_property
    def invitation(self) -> Invitation:
        return Invitation.objects.create(
            school=self.teacher.school,
            email="newbie@maple.test",
            invited_by=self.school_admin,
            expires_at=timezone.now() + datetime.timedelta(days=3),
        )

    def reset_args(self) -> list[str]:
        uid = urlsafe_base64_encode(force_bytes(self.teacher.pk))
        return [uid, default_token_generator.make_token(self.teacher)]


HTMX = {"HX-Request": "true"}


def fingerprint(skip: tuple = ()) -> list:
    """Every row BotBench keeps (but the models in `skip`), without timestamps (a page view may
    note when a device was last seen)."""
    rows = []
    for label in ("classroom", "games", "reports"):
        for model in apps.get_app_config(label).get_models():
            if model in skip:
                continue
            fields = [
                f.attname
                for f in model._meta.concrete_fields
                if not isinstance(f, models.DateTimeField)
            ]
            rows.append(list(model.objects.order_by("pk").values_list(*fields)))
    return rows
