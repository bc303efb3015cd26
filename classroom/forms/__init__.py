from classroom.forms.accounts import (
    DeferredPasswordResetForm,
    EmailLoginForm,
    InvitationAcceptForm,
    InviteForm,
    TeacherSignupForm,
    ThrottledAdminLoginForm,
)
from classroom.forms.classes import ClassForm, CsvRosterForm, PasteRosterForm, StudentForm
from classroom.forms.sessions import SessionForm

__all__ = [
    "ClassForm",
    "CsvRosterForm",
    "DeferredPasswordResetForm",
    "EmailLoginForm",
    "InvitationAcceptForm",
    "InviteForm",
    "PasteRosterForm",
    "SessionForm",
    "StudentForm",
    "TeacherSignupForm",
    "ThrottledAdminLoginForm",
]
