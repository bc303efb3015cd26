"""The one authentication backend: Django's ModelBackend, reading the signed-in account with one
written-out statement (`classroom.statements.ACCOUNT`) instead of a query the ORM builds again
for every request.

Every request of a signed-in adult reads their account (AuthenticationMiddleware, through
`classroom.language`), and a class's projector grid and dashboard redraw on every move of the
class. `User.objects.get(pk=...)`, which ModelBackend runs, spent most of its time building the
same query again (measured: docs/architecture.md, "What keeps a redraw cheap"). The row becomes
the same model instance the ORM makes: `classroom.sql` applies the fields' converters (aware
datetimes on SQLite too).

Everything else is ModelBackend's: who may sign in (`authenticate`, `user_can_authenticate`)
and permissions. Django still checks the session's hash against the account's password on every
request (`django.contrib.auth.get_user`).
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.contrib.auth.backends import ModelBackend

from classroom import sql, statements
from classroom.models import User


class AccountBackend(ModelBackend):
    def get_user(self, user_id):
        if not sql.storable_pk(User, user_id):
            return None
        user = sql.first(statements.ACCOUNT, [user_id], User, "u")
        return user if user is not None and self.user_can_authenticate(user) else None

    async def aget_user(self, user_id):
        # The same read under ASGI (`request.auser()`; the site's views use `request.user`).
        return await sync_to_async(self.get_user)(user_id)
