"""The create-table form, built from the engine's registry of rule sets.

Every rule set's options, their labels (``Rules.option_label``) and the labels of their
values (``Rules.value_labels``) come from its rules object (games/engine/rulebase.py), in
the registry's order: a new rule set needs no edit here. The labels are the engine's
``gettext_noop`` msgids, translated at render time.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.engine.rules import RULES, Rules, rules_for
from games.live.rated import rated_refusal
from games.models import variant_choices

# On/off options (booleans) and a turn clock of 0 seconds, whatever the rule set.
ON, OFF = _("on"), _("off")


def value_label(value: Any, rules: Rules | None = None) -> Any:
    """An option value as the forms show it: the rule set's label for a string value
    (``Rules.value_labels``, translated), "on"/"off" for a boolean, "off" for 0 (a turn
    clock of 0 seconds). A number is never looked up by value: ``1 == True``, so one
    hand would read "on"."""
    if isinstance(value, bool):
        return ON if value else OFF
    if isinstance(value, str):
        label = rules.value_labels.get(value) if rules is not None else None
        return gettext(label) if label else value
    if value == 0:
        return OFF
    return str(value)


def option_label(rules: Rules, key: str) -> str:
    """An option's label in the reader's language (``Rules.option_label``)."""
    return gettext(rules.option_label(key))


lazy_option_label = lazy(option_label, str)
lazy_value_label = lazy(value_label, str)


def default_variant() -> str:
    """The rule set a form offers first: the registry's first (lowest ``order``)."""
    return next(iter(RULES))


SEAT_CHOICES = [
    ("cpu:easy", _("CPU · easy")),
    ("cpu:medium", _("CPU · medium")),
    ("cpu:hard", _("CPU · hard")),
    ("cpu:expert", _("CPU · expert")),
    ("human", _("A friend (invite link)")),
]


def field_name(variant: str, key: str) -> str:
    return f"{variant}__{key}"


def _encode(v: Any) -> str:
    return "1" if v is True else "0" if v is False else str(v)


class VariantOptionsMixin:
    """The table options of every rule set as form fields (``<variant>__<option>``,
    the options with a choice), grouped per rule set; ``options()`` reads back those
    of the chosen one. Used by the new-table and the tournament forms."""

    skip_options: frozenset[str] = frozenset()
    # What the forms offer first where the rule set's own default differs: a turn clock of
    # 30 s (docs/clock-and-presence.md; "off" stays a choice where the table allows it)
    form_defaults: dict[str, Any] = {"clock": 30}
    fields: dict[str, Any]
    cleaned_data: dict[str, Any]

    def add_option_fields(self, defaults: dict[str, Any] | None = None) -> None:
        self.variant_fields: dict[str, list[str]] = {}
        for variant, rules in RULES.items():
            names = []
            for key, (allowed, default) in rules.options.items():
                if len(allowed) < 2 or key in self.skip_options:
                    continue
                name = field_name(variant, key)
                offered = self.form_defaults.get(key, default)
                if any(_encode(offered) == _encode(v) for v in allowed):
                    default = offered
                default = (defaults or {}).get(key, default)
                self.fields[name] = forms.TypedChoiceField(
                    label=lazy_option_label(rules, key),
                    choices=[(_encode(v), lazy_value_label(v, rules)) for v in allowed],
                    initial=_encode(default),
                    required=False,
                )
                names.append(name)
            self.variant_fields[variant] = names

    def fieldsets(self) -> list[dict[str, Any]]:
        return [
            {
                "variant": v,
                "label": gettext(rules_for(v).label),
                "rules_page": rules_for(v).rules_page,
                "fields": [self[n] for n in names],  # type: ignore[index]
            }
            for v, names in self.variant_fields.items()
        ]

    def options(self) -> dict[str, Any]:
        variant = self.cleaned_data["variant"]
        out: dict[str, Any] = {}
        for key, (allowed, _default) in rules_for(variant).options.items():
            raw = self.cleaned_data.get(field_name(variant, key))
            if raw in (None, "") or key in self.skip_options:
                continue
            for v in allowed:
                if _encode(v) == raw:
                    out[key] = v
        return out


# The folded new-table form's summary line names the CPUs' level this way.
CPU_LEVEL_NAMES = {
    "easy": _("easy CPUs"),
    "medium": _("medium CPUs"),
    "hard": _("hard CPUs"),
    "expert": _("expert CPUs"),
}


def defaults_summary(assisted: bool = False) -> str:
    """What the new-table form opens with, in one line (the home page's "More options"
    summary): e.g. "Classic · 4 seats · medium CPUs · 30 s clock", read off the same
    defaults the form's fields start at (the registry's first rule set, its number of
    players, the seats' initial CPU level, the form's clock) without building the form."""
    variant = default_variant()
    rules = rules_for(variant)
    players = rules.options.get("players", ((), rules.players[0]))[1]
    level = str(CreateTableForm.base_fields["seat_1"].initial).partition(":")[2]
    parts = [
        gettext(rules.label),
        ngettext("%(n)d seat", "%(n)d seats", players) % {"n": players},
        str(CPU_LEVEL_NAMES.get(level, level)),
    ]
    if "clock" in rules.options:
        allowed, clock = rules.options["clock"]
        offered = VariantOptionsMixin.form_defaults.get("clock", clock)
        clock = offered if offered in allowed else clock
        parts.append(gettext("%(s)d s clock") % {"s": clock} if clock else gettext("no clock"))
    if assisted:
        parts.append(gettext("assisted"))
    return " · ".join(parts)


class CreateTableForm(VariantOptionsMixin, forms.Form):
    variant = forms.ChoiceField(
        label=_("Rule set"), choices=variant_choices, initial=default_variant
    )
    seat_1 = forms.ChoiceField(label=_("Seat 2"), choices=SEAT_CHOICES, initial="cpu:medium")
    seat_2 = forms.ChoiceField(label=_("Seat 3"), choices=SEAT_CHOICES, initial="cpu:medium")
    seat_3 = forms.ChoiceField(label=_("Seat 4"), choices=SEAT_CHOICES, initial="cpu:medium")
    # games/live/rated.py: accounts only, no CPU seat
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        help_text=_("The game changes the players' ratings (people with accounts only)."),
    )
    # games/watch/lobby.py: a public table is listed in Live tables while it is played
    public = forms.BooleanField(
        label=_("Public"),
        required=False,
        help_text=_("Listed in Live tables while it is played: anyone may watch."),
    )

    def __init__(self, *args: Any, assisted_default: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_option_fields({"assisted": assisted_default})

    def options(self) -> dict[str, Any]:
        """The chosen rule set's options. A table of one person and CPUs waits for that
        person: the form's default clock is not set there (the services then set none,
        docs/clock-and-presence.md), but a clock the player chose other than the default
        is kept (a player who wants to practise against 15 s gets it)."""
        out = super().options()
        rules = rules_for(self.cleaned_data["variant"])
        n = out.get("players") or rules.options.get("players", ((), rules.players[0]))[1]
        friends = sum(1 for i in range(1, n) if self.cleaned_data.get(f"seat_{i}") == "human")
        if not friends and out.get("clock") == self.form_defaults.get("clock"):
            out.pop("clock", None)
        return out

    def seat_specs(self) -> list[tuple[str, str]]:
        rules = rules_for(self.cleaned_data["variant"])
        n = self.options().get("players") or rules.options.get("players", ((), rules.players[0]))[1]
        specs = [("me", "")]
        for i in range(1, n):
            kind, _, level = self.cleaned_data[f"seat_{i}"].partition(":")
            specs.append((kind, level or "medium"))
        return specs

    def rated_choice(self, user: Any) -> tuple[bool, Any]:
        """(rated, why not): whether the table is opened rated, and when "Rated" was
        ticked for a table that cannot be (a guest, a CPU seat), the message saying why
        it is opened casual instead."""
        if not self.cleaned_data.get("rated"):
            return False, None
        why = rated_refusal(user, [kind for kind, _level in self.seat_specs()])
        return why is None, why
