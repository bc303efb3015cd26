"""The one authentication backend: Django's ModelBackend, reading the signed-in account with one
raw statement instead of a query the ORM builds again for every request.

Every request of a signed-in adult reads their account (AuthenticationMiddleware, through
`classroom.language`), and a class's projector grid and dashboard redraw on every move of the
class. `User.objects.get(pk=...)`, which ModelBackend runs, spent most of its time building the
same query again: 0.63-0.86 ms of CPU a read, against 0.39-0.52 ms through `Manager.raw` (the
same row, the same model instance: raw applies the fields' converters), and a grid redraw
served from the cache went from 2.5-4.3 to 2.2-3.5 ms (benchmarks/README.md, "Serving").

Everything else is ModelBackend's: who may sign in (`authenticate`, `user_can_authenticate`)
and permissions. Django still checks the session's hash against the account's password on every
request (`django.contrib.auth.get_user`).
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


class AccountBackend(ModelBackend):
    def get_user(self, user_id):
        model = get_user_model()
        meta = model._meta
        statement = f"SELECT * FROM {meta.db_table} WHERE {meta.pk.column} = %s"
        user = next(iter(model._default_manager.raw(statement, [user_id])), None)
        return user if user is not None and self.user_can_authenticate(user) else None

    async def aget_user(self, user_id):
        # The same read under ASGI (`request.auser()`; the site's views use `request.user`).
        return await sync_to_async(self.get_user)(user_id)
