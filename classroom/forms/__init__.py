from classroom.forms.accounts import (
    AccountLanguageForm,
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
    "AccountLanguageForm",
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
