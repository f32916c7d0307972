"""The create-table form, built from the engine's variant metadata."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.options import VARIANTS
from games.models import VARIANT_CHOICES

OPTION_LABELS = {
    "players": _("Players"),
    "start_points": _("Starting points"),
    "length": _("Game length"),
    "clock": _("Turn clock (seconds, 0 = off)"),
    "partners": _("Partners (2 against 2)"),
    "doubling": _("Doubling"),
    "hands": _("Hands"),
    "rounds": _("Rounds"),
    "assisted": _("Assisted table"),
}
VALUE_LABELS = {
    "short": _("short"),
    "standard": _("standard"),
    "long": _("long"),
    True: _("on"),
    False: _("off"),
}


def value_label(value: Any) -> Any:
    """An option value as the forms show it. Not ``VALUE_LABELS.get(value)`` for a
    number: ``1 == True`` in a dict, so one hand would read "on"."""
    if isinstance(value, bool | str):
        return VALUE_LABELS.get(value, value)
    if value == 0:
        return VALUE_LABELS[False]  # a turn clock of 0 seconds is "off"
    return str(value)


SEAT_CHOICES = [
    ("cpu:easy", _("CPU · easy")),
    ("cpu:medium", _("CPU · medium")),
    ("cpu:hard", _("CPU · hard")),
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
    fields: dict[str, Any]
    cleaned_data: dict[str, Any]

    def add_option_fields(self, defaults: dict[str, Any] | None = None) -> None:
        self.variant_fields: dict[str, list[str]] = {}
        for variant, meta in VARIANTS.items():
            names = []
            for key, (allowed, default) in meta["options"].items():
                if len(allowed) < 2 or key in self.skip_options:
                    continue
                name = field_name(variant, key)
                default = (defaults or {}).get(key, default)
                self.fields[name] = forms.TypedChoiceField(
                    label=OPTION_LABELS.get(key, key),
                    choices=[(_encode(v), value_label(v)) for v in allowed],
                    initial=_encode(default),
                    required=False,
                )
                names.append(name)
            self.variant_fields[variant] = names

    def fieldsets(self) -> list[dict[str, Any]]:
        labels = dict(VARIANT_CHOICES)
        return [
            {"variant": v, "label": labels[v], "fields": [self[n] for n in names]}  # type: ignore[index]
            for v, names in self.variant_fields.items()
        ]

    def options(self) -> dict[str, Any]:
        variant = self.cleaned_data["variant"]
        out: dict[str, Any] = {}
        for key, (allowed, _default) in VARIANTS[variant]["options"].items():
            raw = self.cleaned_data.get(field_name(variant, key))
            if raw in (None, "") or key in self.skip_options:
                continue
            for v in allowed:
                if _encode(v) == raw:
                    out[key] = v
        return out


class CreateTableForm(VariantOptionsMixin, forms.Form):
    variant = forms.ChoiceField(label=_("Rule set"), choices=VARIANT_CHOICES, initial="classic")
    seat_1 = forms.ChoiceField(label=_("Seat 2"), choices=SEAT_CHOICES, initial="cpu:medium")
    seat_2 = forms.ChoiceField(label=_("Seat 3"), choices=SEAT_CHOICES, initial="cpu:medium")
    seat_3 = forms.ChoiceField(label=_("Seat 4"), choices=SEAT_CHOICES, initial="cpu:medium")

    def __init__(self, *args: Any, assisted_default: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_option_fields({"assisted": assisted_default})

    def seat_specs(self) -> list[tuple[str, str]]:
        n = (
            self.options().get("players")
            or VARIANTS[self.cleaned_data["variant"]]["options"]["players"][1]
        )
        specs = [("me", "")]
        for i in range(1, n):
            kind, _, level = self.cleaned_data[f"seat_{i}"].partition(":")
            specs.append((kind, level or "medium"))
        return specs
