"""Organiser forms of the clubs. They parse; the actions check and refuse (actions.py)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import MAX_WEIGHT, MIN_WEIGHT

DATE_INPUT = forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=120)


class MemberForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    organiser = forms.BooleanField(label=_("Also an organiser"), required=False)


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Season name"), max_length=120)
    # ISO dates: a date input shows and sends only YYYY-MM-DD, whatever the language.
    start = forms.DateField(label=_("First day"), widget=DATE_INPUT)
    end = forms.DateField(label=_("Last day"), widget=DATE_INPUT)


class WeightField(forms.DecimalField):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(
            label=_("Weight"),
            min_value=MIN_WEIGHT,
            max_value=MAX_WEIGHT,
            decimal_places=2,
            max_digits=4,
            initial=1,
            **kwargs,
        )
        self.widget.attrs["step"] = "0.1"


class AttachForm(forms.Form):
    tournament = forms.TypedChoiceField(label=_("Finished tournament"), coerce=int)
    weight = WeightField()

    def __init__(self, *args: object, choices: list[tuple[int, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournament"].choices = choices


class WeightForm(forms.Form):
    weight = WeightField()


class NameLinkForm(forms.Form):
    name = forms.CharField(label=_("Name in the tournaments"), max_length=60)
    member = forms.TypedChoiceField(label=_("Member"), coerce=int)

    def __init__(self, *args: object, choices: list[tuple[int, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["member"].choices = choices
