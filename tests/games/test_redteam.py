"""Hostile input found by probing the running site: each test is a hole that was open."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games import heavy
from games.tournaments.models import Entry, Tournament
from tests.tournaments.conftest import make_user
from tests.tournaments.test_import_limits import big_file

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_pause_between_imports(monkeypatch):
    """games.heavy spaces imports out; these tests import one after another."""
    monkeypatch.setattr(heavy, "SHARE", 1.0)
    monkeypatch.setattr(heavy, "_next_start", 0.0)


@pytest.mark.parametrize("value", ["", "yes", 1, [], {"a": 1}])
def test_a_tournament_file_whose_three_player_switch_is_not_true_or_false_is_refused(client, value):
    organiser = make_user("orga")
    client.force_login(organiser)
    doc = copy.deepcopy(big_file(organiser, 4))
    doc["tournament"]["three_player_tables"] = value
    upload = SimpleUploadedFile("t.json", json.dumps(doc).encode(), "application/json")
    response = client.post(reverse("tournaments:import"), {"file": upload})
    assert response.status_code == 400
    assert "import-error" in response.content.decode()
    assert (Tournament.objects.count(), Entry.objects.count()) == (0, 0)
