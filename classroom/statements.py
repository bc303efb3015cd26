"""The classroom app's written-out statements: a read so frequent that the ORM's time to build
it mattered beside the database's to answer (the reason beside it). `classroom.sql` runs it.
The permission rules' statements are in `games.statements`, built from the pieces of
`classroom.access` they share with the ORM's form (`VISIBLE_CLASS_WHERE`) and from
`Session.JOINABLE_STATUSES`."""

from classroom.models import DeviceBinding, Student, Team, TeamMembership, User
from classroom.sql import columns

# classroom.authentication.AccountBackend: the signed-in account, which every request of a
# signed-in adult reads, and each of a class's projector grids and dashboards on every move of
# the class. The ORM's `User.objects.get(pk=...)` (and `Manager.raw`) built the same query again
# each time, which cost more than the database took to answer it (measured:
# docs/architecture.md, "What keeps a redraw cheap"). Tested by
# tests/classroom/test_sessions_sign_in.py (the same account as ModelBackend's, field by field).
ACCOUNT = f"""
    SELECT {columns(User, "u")} FROM {User._meta.db_table} u WHERE u.{User._meta.pk.column} = %s
"""

# classroom.selectors.session_devices_by_table: the session's live devices, each with its
# student's name and the table of the student's team (NULL: none), names in order. The teacher's
# dashboard draws them again after every move of the session, and the ORM took longer to build
# the query than the database to answer it. A student has at most one team in a session (a
# database constraint), so the outer joins add no row. Tested by
# tests/classroom/test_replacement_phone.py.
DEVICES_BY_TABLE = f"""
    SELECT b.id, st.name, t.table_id
    FROM {DeviceBinding._meta.db_table} b
    JOIN {Student._meta.db_table} st ON st.id = b.student_id
    LEFT JOIN {TeamMembership._meta.db_table} m
        ON m.session_id = b.session_id AND m.student_id = b.student_id
    LEFT JOIN {Team._meta.db_table} t ON t.id = m.team_id
    WHERE b.session_id = %s AND b.revoked_at IS NULL
    ORDER BY st.name, b.id
"""
