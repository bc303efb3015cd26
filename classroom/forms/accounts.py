from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm

from classroom import services
from classroom.models import User


class EmailLoginForm(AuthenticationForm):
    username = forms.EmailField(
        label="E-mail", widget=forms.EmailInput(attrs={"autofocus": True, "autocomplete": "email"})
    )


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
    display_name = forms.CharField(label="Your name", max_length=120)
    email = forms.EmailField(
        label="E-mail", widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    school_name = forms.CharField(label="School", max_length=200)
    password = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                "An account with this e-mail already exists. Log in instead."
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
        label="Teacher's e-mail", widget=forms.EmailInput(attrs={"autocomplete": "off"})
    )


class InvitationAcceptForm(forms.Form):
    display_name = forms.CharField(label="Your name", max_length=120)
    password = forms.CharField(
        label="Password",
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
