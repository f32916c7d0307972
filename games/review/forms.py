from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import variant_choices


def filter_variant_choices() -> list[tuple[str, str]]:
    """ "All variants", then every registered rule set (``games.models.variant_choices``)."""
    return [("", _("All variants")), *variant_choices()]


class FilterForm(forms.Form):
    variant = forms.ChoiceField(label=_("Variant"), required=False, choices=filter_variant_choices)
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
