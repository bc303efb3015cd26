from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext_lazy as _

from classroom import services, throttle
from classroom.models import User


class ThrottledLoginMixin:
    """Refuses a login whose account or address has spent its budget of wrong passwords before
    the password is hashed (the hash is the expensive part), and counts each wrong one."""

    THROTTLED = "throttled"

    def clean(self):
        email = self.cleaned_data.get("username")
        refusal = throttle.login_refusal(self.request, email)
        if refusal is not None:
            self.wait_seconds = refusal.wait_seconds
            raise forms.ValidationError(refusal.message, code=self.THROTTLED)
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            # A right password for an account that may not log in here is not a guess.
            if self.user_cache is None and self.cleaned_data.get("password"):
                throttle.login_miss(self.request, email)
            raise
        if self.user_cache is not None:
            throttle.login_unlock(email=email)  # the address keeps its count
        return cleaned

    def is_throttled(self) -> bool:
        return self.has_error(NON_FIELD_ERRORS, code=self.THROTTLED)


class EmailLoginForm(ThrottledLoginMixin, AuthenticationForm):
    username = forms.EmailField(
        label=_("E-mail"),
        widget=forms.EmailInput(attrs={"autofocus": True, "autocomplete": "email"}),
    )


class ThrottledAdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass


class DeferredPasswordResetForm(PasswordResetForm):
    """Django's reset form, but the e-mail goes out from the worker after the response
    (`password_reset_request`), so the page answers alike for any address."""

    def save(self, *, domain_override=None, use_https=False, request=None, **kwargs) -> None:
        services.password_reset_request(
            email=self.cleaned_data["email"],
            domain=domain_override or request.get_host(),
            use_https=use_https,
        )


class TeacherSignupForm(forms.Form):
    display_name = forms.CharField(label=_("Your name"), max_length=120)
    email = forms.EmailField(
        label=_("E-mail"), widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    school_name = forms.CharField(label=_("School"), max_length=200)
    password = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account with this e-mail already exists. Log in instead.")
            )
        return email

    def clean(self):
        cleaned = super().clean()
        password = cleaned.get("password")
        if password:
            candidate = User(
                email=cleaned.get("email", ""), display_name=cleaned.get("display_name", "")
            )
            try:
                password_validation.validate_password(password, candidate)
            except forms.ValidationError as exc:
                self.add_error("password", exc)
        return cleaned


class InviteForm(forms.Form):
    email = forms.EmailField(
        label=_("Teacher's e-mail"), widget=forms.EmailInput(attrs={"autocomplete": "off"})
    )


class InvitationAcceptForm(forms.Form):
    display_name = forms.CharField(label=_("Your name"), max_length=120)
    password = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )

    def __init__(self, *args, email: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.email = email

    def clean(self):
        cleaned = super().clean()
        password = cleaned.get("password")
        if password:
            candidate = User(email=self.email, display_name=cleaned.get("display_name", ""))
            try:
                password_validation.validate_password(password, candidate)
            except forms.ValidationError as exc:
                self.add_error("password", exc)
        return cleaned


class LanguageSelect(forms.Select):
    """Each language named in its own language and marked with its `lang`, so a screen reader
    says "Español" in Spanish."""

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        if value:
            option["attrs"]["lang"] = value
        return option


class AccountLanguageForm(forms.Form):
    language = forms.ChoiceField(
        label=_("Language"),
        choices=[("", _("Browser's language")), *settings.LANGUAGES],
        required=False,
        widget=LanguageSelect,
        help_text=_(
            "BotBench speaks it to you on every computer you log in on. Students choose their "
            "own language on their devices; the projector's is chosen on each session's lobby."
        ),
    )
