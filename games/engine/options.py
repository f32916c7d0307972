"""Variant metadata and table options (declared by each rule set's rules object).

``validate_options(variant, options)`` fills defaults and rejects bad values with
``Refusal("bad_option")``. Unknown keys are rejected too, so a typo never
silently plays the default.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .refusals import Refusal
from .rulesets import RULES


class _Variants(Mapping[str, dict[str, Any]]):
    """A read-only view of the registry: each rule set's metadata and options, as its
    rules object declares them (``rulebase.Rules.meta``): name -> {"name", "seed",
    "whole_rack", "players", "direction", "options": {key: (allowed values, default)}}.
    A view rather than a copy, so a rule set registered later (``rulesets.register``)
    is listed too."""

    def __getitem__(self, name: str) -> dict[str, Any]:
        return RULES[name].meta()

    def __iter__(self) -> Iterator[str]:
        return iter(list(RULES))

    def __len__(self) -> int:
        return len(RULES)

    def __contains__(self, name: object) -> bool:
        return name in RULES


VARIANTS: Mapping[str, dict[str, Any]] = _Variants()


def _same(value: Any, allowed: Any) -> bool:
    # bool is an int subclass: never let True stand for 1 or 1 for True
    return type(value) is type(allowed) and value == allowed


def validate_options(variant: str, options: dict | None = None) -> dict:
    """Return a complete, validated copy of ``options`` for ``variant``.

    Raises ``Refusal("bad_variant")`` for an unknown variant and
    ``Refusal("bad_option")`` for an unknown key or a value outside the allowed set.
    """
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise Refusal("bad_variant", f"unknown variant {variant!r}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise Refusal("bad_option", "options must be an object")
    spec = VARIANTS[variant]["options"]
    out: dict[str, Any] = {}
    for key in options:
        if key not in spec:
            raise Refusal("bad_option", f"{variant} has no option {key!r}", option=key)
    for key, (allowed, default) in spec.items():
        if key in options:
            value = options[key]
            if not any(_same(value, a) for a in allowed):
                raise Refusal(
                    "bad_option",
                    f"{key}={value!r} is not allowed (choose from {list(allowed)})",
                    option=key,
                )
            out[key] = value
        else:
            out[key] = default
    return out


__all__ = ["VARIANTS", "validate_options"]
