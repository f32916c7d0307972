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
    """The profile's fields, and the account's email address (kept on the user)."""

    email = forms.EmailField(label=_("Email address"), required=False, help_text=EMAIL_HELP)

    class Meta:
        model = Profile
        fields = ("display_name", "email", "language", "assisted_default", "public_records")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and "email" not in self.initial:
            self.initial["email"] = self.instance.user.email

    def clean_display_name(self):
        return names.clean_public_name(
            self.cleaned_data["display_name"], self.fields["display_name"].max_length
        )

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
