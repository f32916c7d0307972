"""Desk forms: tournament settings (with each rule set's table options),
registrations, organisers, table results and imports.

The rule sets, their labels and what they allow come from the engine's registry
(``games.engine.rules.RULES``): a new rule set needs no edit here."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.names import clean_public_name
from games.engine.rules import RULES
from games.forms import VariantOptionsMixin, _encode, default_variant, field_name
from games.models import CPU_LEVELS, variant_choices

from .models import Tournament

ARRIVAL_CHOICES = [
    (0, _("at once")),
    (30, _("30 seconds")),
    (60, _("1 minute")),
    (120, _("2 minutes")),
    (300, _("5 minutes")),
    (600, _("10 minutes")),
]


class RuleSetSelect(forms.Select):
    """The rule-set menu; each option says whether the rule set is also played by three
    (``data-three-players="1"`` when 3 is in its rules object's ``players``), so the
    settings script offers three-player tables only where they exist."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        rules = RULES.get(str(value))
        if rules is not None and 3 in rules.players:
            option["attrs"]["data-three-players"] = "1"
        return option


class TournamentForm(VariantOptionsMixin, forms.Form):
    skip_options = frozenset({"players"})  # the seating decides a table's size

    name = forms.CharField(label=_("Name"), max_length=120)
    # A date input shows and sends only ISO dates (YYYY-MM-DD), whatever the page's
    # language; a localised value (01.12.2026) would leave it empty. Django accepts ISO
    # input in every language besides the language's own formats.
    date = forms.DateField(
        label=_("Date"),
        initial=dt.date.today,
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
    )
    variant = forms.ChoiceField(
        label=_("Rule set"), choices=variant_choices, initial=default_variant, widget=RuleSetSelect
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30, initial=3)
    mode = forms.ChoiceField(
        label=_("Where it is played"), choices=Tournament.Mode.choices, initial="online"
    )
    scoring = forms.ChoiceField(
        label=_("Scoring"), choices=Tournament.Scoring.choices, initial="placing"
    )
    format = forms.ChoiceField(
        label=_("Format"),
        choices=Tournament.Format.choices,
        initial="standard",
        required=False,  # a form without it (an older page) keeps the standard format
        help_text=_(
            "Duplicate: every table of a round plays the same deals, and each seat is "
            "compared with the same seat at the other tables."
        ),
    )
    duplicate_scoring = forms.ChoiceField(
        label=_("Duplicate scoring"),
        choices=Tournament.DuplicateScoring.choices,
        initial="matchpoints",
        required=False,
    )
    deals_per_round = forms.IntegerField(
        label=_("Deals per round"),
        min_value=1,
        max_value=16,
        required=False,
        help_text=_("Empty: one deal per seat, so every player starts once."),
    )
    placing_points = forms.CharField(
        label=_("Placing points (1st 2nd 3rd 4th)"), initial="4 2 1 0", max_length=40
    )
    seating = forms.ChoiceField(
        label=_("Seating from round 2"), choices=Tournament.Seating.choices, initial="avoid_repeats"
    )
    # Offered only for a rule set played by three (``RuleSetSelect``; ``actions`` refuses
    # it for the others).
    three_player_tables = forms.BooleanField(
        label=_("Three-player tables instead of CPU seats"), required=False
    )
    arrival_s = forms.TypedChoiceField(
        label=_("Online: a player's CPU plays for them if they have not arrived after"),
        choices=ARRIVAL_CHOICES,
        coerce=int,
        initial=120,
    )
    cpu_level = forms.ChoiceField(
        label=_("CPU level of the fill seats"),
        choices=CPU_LEVELS,
        initial="medium",
        required=False,  # a form without it (an older page) keeps medium CPUs
    )
    seed = forms.CharField(
        label=_("Published seed (seating and draw)"),
        max_length=64,
        required=False,
        help_text=_("Leave empty for a random one. Fixed once round 1 is seated."),
    )
    published = forms.BooleanField(label=_("Public page"), required=False)
    late_entry_until = forms.IntegerField(
        label=_("Late entry until round"),
        min_value=1,
        max_value=30,
        required=False,
        help_text=_(
            "Players can still be registered for the next round up to this round; then "
            "registration closes. Empty: until the last round."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_option_fields()

    @classmethod
    def initial_for(cls, t: Tournament) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "name": t.name,
            "date": t.date,
            "variant": t.variant,
            "rounds": t.rounds,
            "mode": t.mode,
            "scoring": t.scoring,
            "placing_points": " ".join(str(p) for p in t.placing_points),
            "seating": t.seating,
            "three_player_tables": t.three_player_tables,
            "arrival_s": t.arrival_s,
            "cpu_level": t.cpu_level,
            "seed": t.seed,
            "published": t.published,
            "late_entry_until": t.late_entry_until,
            "format": t.format,
            "duplicate_scoring": t.duplicate_scoring,
            "deals_per_round": t.deals_per_round,
        }
        for key, value in t.options.items():
            initial[field_name(t.variant, key)] = _encode(value)
        return initial

    def clean_cpu_level(self) -> str:
        return self.cleaned_data.get("cpu_level") or "medium"

    def clean_format(self) -> str:
        return self.cleaned_data.get("format") or "standard"

    def clean_duplicate_scoring(self) -> str:
        return self.cleaned_data.get("duplicate_scoring") or "matchpoints"

    def clean_placing_points(self) -> list[int]:
        raw = self.cleaned_data["placing_points"].replace(",", " ").replace("/", " ").split()
        try:
            points = [int(p) for p in raw]
        except ValueError:
            points = []
        if len(points) != 4:
            raise forms.ValidationError(_("Placing points are four whole numbers, e.g. 4 2 1 0."))
        return points

    def values(self) -> dict[str, Any]:
        d = self.cleaned_data
        values = {
            key: d[key]
            for key in (
                "name",
                "date",
                "variant",
                "rounds",
                "mode",
                "scoring",
                "placing_points",
                "seating",
                "three_player_tables",
                "arrival_s",
                "cpu_level",
                "published",
                "late_entry_until",
                "format",
                "duplicate_scoring",
                "deals_per_round",
            )
        }
        values["options"] = self.options()
        if d.get("seed"):
            values["seed"] = d["seed"].strip()
        return values


class EntryForm(forms.Form):
    username = forms.CharField(label=_("Username (account)"), max_length=150, required=False)
    name = forms.CharField(label=_("Name"), max_length=60, required=False)
    joins_round = forms.IntegerField(label=_("From round"), min_value=1, required=False)

    def clean_name(self) -> str:
        # Shown to everyone in seatings and standings: the rules of accounts/names.py.
        return clean_public_name(
            self.cleaned_data.get("name") or "", self.fields["name"].max_length
        )


class KeepApartForm(forms.Form):
    """Two of the tournament's players who must never sit at the same table."""

    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("must never sit with"), coerce=int)

    def __init__(self, *args: Any, entries: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("Choose a player"))] + [(e.pk, e.name) for e in entries]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def clean(self) -> dict[str, Any]:
        d = super().clean()
        if d.get("first") is not None and d.get("first") == d.get("second"):
            raise forms.ValidationError(_("Choose two different players."))
        return d


class OrganiserForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)


class RoundForm(forms.Form):
    round = forms.IntegerField(min_value=1, required=False)


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Tournament file (JSON, okey-tournament/1)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
