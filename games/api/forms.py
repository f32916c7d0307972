"""The profile page's "New token" form."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.names import character_problem
from games.api.models import SCOPE_CHOICES, SCOPE_READ


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"),
        max_length=60,
        help_text=_("What it is for, e.g. “my bot” or “results script”."),
    )
    scopes = forms.MultipleChoiceField(
        label=_("What it may do"),
        choices=SCOPE_CHOICES,
        initial=[SCOPE_READ],
        widget=forms.CheckboxSelectMultiple,
    )

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if any(character_problem(ch) for ch in name):
            raise forms.ValidationError(
                _("A token's name cannot contain control or invisible characters.")
            )
        return name
