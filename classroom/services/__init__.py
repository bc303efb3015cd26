"""Every write to classroom models goes through a function here: keyword-only arguments,
validated with full_clean(), inside one transaction. `from classroom import services` and
`services.<name>(...)` is the way to call them; the modules below are an implementation
detail."""

from classroom.services.accounts import (
    InvitationSent,
    invitation_accept,
    invitation_create,
    invitation_link,
    password_reset_mail_send,
    password_reset_request,
    school_retention_set,
    teacher_set_active,
    teacher_signup,
    user_language_set,
)
from classroom.services.classes import (
    class_archive,
    class_create,
    class_delete,
    class_unarchive,
    class_update,
    roster_add,
    student_delete,
    student_update,
)
from classroom.services.devices import device_join, device_leave, device_seen, device_unbind
from classroom.services.errors import ServiceError
from classroom.services.sessions import (
    session_close,
    session_create,
    session_mark_playing,
    session_open,
    session_set_present,
    session_set_projector_language,
    session_update,
)
from classroom.services.teams import (
    tables_autosplit,
    team_add_robot,
    team_autopair,
    team_move_student,
    team_remove_robot,
    team_set_table,
)

__all__ = [
    "ServiceError",
    "class_archive",
    "class_create",
    "class_delete",
    "class_unarchive",
    "class_update",
    "device_join",
    "device_leave",
    "device_seen",
    "device_unbind",
    "invitation_accept",
    "InvitationSent",
    "invitation_create",
    "invitation_link",
    "password_reset_mail_send",
    "password_reset_request",
    "school_retention_set",
    "roster_add",
    "session_close",
    "session_create",
    "session_mark_playing",
    "session_open",
    "session_set_present",
    "session_set_projector_language",
    "session_update",
    "student_delete",
    "student_update",
    "tables_autosplit",
    "team_add_robot",
    "team_autopair",
    "team_move_student",
    "team_remove_robot",
    "team_set_table",
    "teacher_set_active",
    "teacher_signup",
    "user_language_set",
]
