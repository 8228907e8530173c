"""The player's Sequence page shows, on its draw panels, what the state cards forbid, as the phone panel does:
Secoué « ne peut faire que des actions gratuites » (every card in defence). The page rendered its panels without
the participant's ``shaken``/``blocked`` facts, so a Shaken player only learnt it when the draw was refused."""

from __future__ import annotations

import pytest
from django.test import Client

from campaigns.models import Campaign
from states.services.shaken import savage_shaken_set
from tests.conflicts.factories import fight

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, warning", [("fr", "Secoué"), ("en", "Shaken: only free actions")])
def test_a_shaken_players_sequence_page_says_so_on_its_draw_panel(language: str, warning: str) -> None:
    f = fight(npcs=1)
    Campaign.objects.filter(pk=f.campaign.pk).update(savage_states=True)
    client = Client()
    client.force_login(f.player)
    client.cookies["django_language"] = language
    before = client.get(f.sequence.get_absolute_url()).content.decode()
    assert "states-shaken" not in before
    savage_shaken_set(character=f.hero, actor=f.narrator, shaken=True, expected_version=None)
    page = client.get(f.sequence.get_absolute_url()).content.decode()
    assert f'<p class="refusal states-shaken" role="status">{warning}' in page
