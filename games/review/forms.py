from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import VARIANT_CHOICES


class FilterForm(forms.Form):
    variant = forms.ChoiceField(
        label=_("Variant"), required=False, choices=[("", _("All variants")), *VARIANT_CHOICES]
    )
    # Date inputs show and send ISO dates only (YYYY-MM-DD) in every language: see
    # games/tournaments/forms.py (TournamentForm.date).
    date_from = forms.DateField(
        label=_("From"),
        required=False,
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
    )
    date_to = forms.DateField(
        label=_("To"),
        required=False,
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
    )
    result = forms.ChoiceField(
        label=_("Result"),
        required=False,
        choices=[("", _("Any result")), ("won", _("Won")), ("lost", _("Lost"))],
    )


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Review file (JSON, okey-review/1)"))
