from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.mail import EmailMultiAlternatives
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from . import mail, names, throttle
from .models import LANGUAGE_CHOICES, Profile

EMAIL_HELP = _("Optional. Only used to send you a link when you forget your password; never shown.")


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        help_text=_("The name other players see at the table."),
    )

    field_order = ("username", "display_name", "email", "password1", "password2")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "display_name", "email")
        help_texts = {"email": EMAIL_HELP}

    def clean_username(self):
        # Shown to others when a player has no display name: the same rules apply.
        return names.clean_public_name(super().clean_username())

    def clean_display_name(self):
        return names.clean_public_name(
            self.cleaned_data["display_name"], self.fields["display_name"].max_length
        )


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's login form, refusing an IP + username, or an IP, after too many failures."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "too_many_attempts": _("Too many failed attempts. Please try again in a few minutes."),
    }

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        if throttle.is_blocked(self.request, username):
            raise forms.ValidationError(
                self.error_messages["too_many_attempts"], code="too_many_attempts"
            )
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            throttle.record_failure(self.request, username)
            raise
        throttle.reset(self.request, username)
        return cleaned


class ProfileForm(forms.ModelForm):
    """The profile's fields, and the account's email address (kept on the user).

    Changing the email address asks for the current password: the address is where reset
    links go, so whoever holds a signed-in browser for a moment must not be able to point
    it elsewhere and take the account over. Wrong passwords here count as failed log-ins
    (accounts/throttle.py).
    """

    email = forms.EmailField(label=_("Email address"), required=False, help_text=EMAIL_HELP)
    current_password = forms.CharField(
        label=_("Current password"),
        required=False,
        strip=False,
        help_text=_("Needed only to change the email address."),
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    error_messages = {
        "password_needed": _("Enter your current password to change the email address."),
        "password_incorrect": _("Your current password was entered incorrectly."),
        "too_many_attempts": ThrottledAuthenticationForm.error_messages["too_many_attempts"],
    }

    class Meta:
        model = Profile
        fields = (
            "display_name",
            "email",
            "current_password",
            "language",
            "assisted_default",
            "public_records",
            "share_hands",
        )

    def __init__(self, *args, request=None, **kwargs):
        self.request = request
        super().__init__(*args, **kwargs)
        if self.instance.pk and "email" not in self.initial:
            self.initial["email"] = self.instance.user.email

    def clean_display_name(self):
        return names.clean_public_name(
            self.cleaned_data["display_name"], self.fields["display_name"].max_length
        )

    def clean(self):
        cleaned = super().clean()
        user = self.instance.user if self.instance.pk else None
        email = cleaned.get("email")
        if user is None or email is None or email == user.email or not user.has_usable_password():
            return cleaned
        password = cleaned.get("current_password") or ""
        username = user.get_username()
        if throttle.is_blocked(self.request, username):
            code = "too_many_attempts"
        elif not password:
            code = "password_needed"
        elif not user.check_password(password):
            throttle.record_failure(self.request, username)
            code = "password_incorrect"
        else:
            return cleaned
        self.add_error(
            "current_password", forms.ValidationError(self.error_messages[code], code=code)
        )
        return cleaned

    def save(self, commit: bool = True) -> Profile:
        profile = super().save(commit=commit)
        user = profile.user
        email = self.cleaned_data.get("email") or ""
        if user.email != email:
            user.email = email
            if commit:
                user.save(update_fields=["email"])
        return profile


_LANGUAGE_CODES = {code for code, _name in LANGUAGE_CHOICES}


class ResetRequestForm(PasswordResetForm):
    """Django's reset form; each mail is written in its reader's language (the account's
    profile language), and handed to :func:`accounts.mail.deliver`."""

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        profile = Profile.objects.filter(user=context["user"]).first()
        language = profile.language if profile else None
        if language not in _LANGUAGE_CODES:
            language = translation.get_language()
        with translation.override(language):
            subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
            body = loader.render_to_string(email_template_name, context)
            message = EmailMultiAlternatives(subject, body, from_email, [to_email])
            if html_email_template_name is not None:
                html = loader.render_to_string(html_email_template_name, context)
                message.attach_alternative(html, "text/html")
        mail.deliver(message)
