"""The heavy-pages benchmark's test data (games/tools/site/heavy.py) for every rule set it
offers: a tournament file that the tournament import accepts and a review file that the
review import accepts, as large as the import allows a game of that rule set."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from games.review import records
from games.tools.site.heavy import review_document, tournament_document
from games.tools.site.players import VARIANTS
from games.tournaments import exchange
from games.tournaments.models import TableResult


@pytest.mark.django_db
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.slow
def test_the_test_data_imports_in_every_rule_set(variant):
    owner = get_user_model().objects.create_user("bench-owner", password="pw-Bench-123")
    t = exchange.do_import_tournament(owner, tournament_document(8, 2, variant, seed=1))
    assert t.variant == variant
    # every table of both rounds has its result in
    assert TableResult.objects.filter(table__round__tournament=t).count() == 2 * 8 // 4

    wanted = 60
    loaded = records.load_document(json.dumps(review_document(wanted, 1, variant)))
    assert loaded["variant"] == variant
    most = records.max_hands(variant, loaded["options"])
    assert len(loaded["hands"]) == min(wanted, most) > 0
