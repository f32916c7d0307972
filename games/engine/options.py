"""Variant metadata and table options.

``validate_options(variant, options)`` fills defaults and rejects bad values with
``Refusal("bad_option")``. Unknown keys are rejected too, so a typo never
silently plays the default.
"""

from __future__ import annotations

from typing import Any

from .refusals import Refusal

# Each option: (allowed values, default)
_COMMON: dict[str, tuple[tuple[Any, ...], Any]] = {
    "assisted": ((False, True), False),
}

VARIANTS: dict[str, dict[str, Any]] = {
    "classic": {
        "name": "Classic okey",
        "seed": "001",
        "whole_rack": True,
        "players": (4,),
        "direction": "counter-clockwise",
        "options": {
            "players": ((4,), 4),
            "start_points": ((10, 20, 30), 20),
            "clock": ((0, 30, 60), 0),
            **_COMMON,
        },
    },
    "rummy": {
        "name": "Okey rummy",
        "seed": "003",
        "whole_rack": True,
        "players": (2, 3, 4),
        "direction": "clockwise",
        "options": {
            "players": ((2, 3, 4), 4),
            "length": (("short", "standard", "long"), "standard"),
            "clock": ((0, 45), 0),
            **_COMMON,
        },
    },
    "fifty-one": {
        "name": "Fifty-one (lay-down okey)",
        "seed": "000/002",
        "whole_rack": False,
        "players": (4,),
        "direction": "counter-clockwise",
        "options": {
            "players": ((4,), 4),
            "partners": ((False, True), False),
            "doubling": ((True, False), True),
            "hands": ((1, 3), 1),
            "clock": ((0, 15, 30, 60), 30),
            **_COMMON,
        },
    },
    "seventeen": {
        "name": "Seventeen (lay-down okey)",
        "seed": "004",
        "whole_rack": False,
        "players": (4,),
        "direction": "counter-clockwise",
        "options": {
            "players": ((4,), 4),
            "rounds": ((7,), 7),
            "clock": ((0, 30, 60), 0),
            **_COMMON,
        },
    },
}

# rummy targets [D7]: length -> {players: target}
RUMMY_TARGETS: dict[str, dict[int, int]] = {
    "short": {4: 4, 3: 5, 2: 8},
    "standard": {4: 8, 3: 10, 2: 15},
    "long": {4: 16, 3: 20, 2: 30},
}


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


def rummy_target(options: dict) -> int:
    """The rummy game target for these (validated) options [D7]."""
    return RUMMY_TARGETS[options["length"]][options["players"]]
