"""The server's interpreter switch interval (games/management/commands/serve.py): short by
default so a heavy page rendered in its own thread holds the tables' frames back in slices
of 0.5 ms, not Python's 5 ms; an operator may set it, and a bad value falls back."""

from __future__ import annotations

import sys

import pytest

from games.management.commands import serve


def test_the_default_is_shorter_than_pythons(monkeypatch):
    monkeypatch.delenv("OKEY_SWITCH_INTERVAL_S", raising=False)
    assert serve.switch_interval() == serve.SWITCH_INTERVAL_S == 0.0005
    assert serve.switch_interval() < sys.getswitchinterval()  # the interpreter's own 5 ms


@pytest.mark.parametrize(
    ("value", "expected"), [("0.002", 0.002), ("0", 0.0005), ("-1", 0.0005), ("soon", 0.0005)]
)
def test_an_operator_may_set_it_and_bad_values_fall_back(monkeypatch, value, expected):
    monkeypatch.setenv("OKEY_SWITCH_INTERVAL_S", value)
    assert serve.switch_interval() == expected
