from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from . import throttle
from .models import Profile


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        help_text=_("The name other players see at the table."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "display_name")


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's login form, refusing an IP + username after too many failures."""

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
    class Meta:
        model = Profile
        fields = ("display_name", "language", "assisted_default", "public_records")
