"""The lobby says how long the search bot may think, as its cap is: one second of wall time per decision
(frag.engine.search.CAP_SECONDS). It said half a second, the old wall-clock budget, after the budget became a
number of rollouts under a one-second cap."""

from __future__ import annotations

from django.utils import translation

from frag.engine.search import CAP_SECONDS
from frag.models import Seat


def test_the_search_bot_label_names_its_one_second_cap_in_both_languages() -> None:
    assert CAP_SECONDS == 1.0
    label = dict(Seat._meta.get_field("bot").choices)["search"]
    with translation.override("en"):
        assert "up to a second per action" in str(label)
    with translation.override("fr"):
        assert "jusqu'à une seconde par action" in str(label)
