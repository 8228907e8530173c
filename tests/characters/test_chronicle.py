"""Every character event reads as a sentence in the log, in French and in English."""

from __future__ import annotations

import pytest
from django.utils import translation

from campaigns.chronicle import describe, known_kinds
from campaigns.models import Event
from characters import services
from tests.characters.factories import open_session, pc, table

pytestmark = pytest.mark.django_db


def test_each_character_event_has_its_sentence() -> None:
    campaign, narrator, (player, other) = table()
    jim = pc(campaign, player)
    open_session(campaign, narrator)
    services.trait_raise(character=jim, actor=player, trait_code="tir", justification="la chasse", ranks=2)
    entry = services.atout_spend(character=jim, actor=player, use="narrative_control", justification="une corde")
    services.atout_refund(entry=entry, actor=narrator)
    services.atout_gain(character=jim, actor=narrator, amount=2, note="bravoure")
    revers = services.revers_inflict(character=jim, actor=narrator, domain="named", domain_name="Réputation",
                                     severity=3, source="scandale")  # fmt: skip
    services.first_aid(revers=revers, actor=narrator, success=False)
    services.revers_heal(revers=revers, actor=narrator)
    services.trait_set(character=jim, actor=narrator, code="vigueur", rank=5)
    services.equipment_add(character=jim, actor=player, data={"category": "weapon", "name": "Fusil", "bonus": 2})
    jim.refresh_from_db()
    services.character_update(character=jim, actor=player, data={"goal": "Survivre"}, expected_version=jim.version)
    events = Event.objects.filter(kind__startswith="character.")
    kinds = set(events.values_list("kind", flat=True))
    assert kinds <= set(known_kinds())
    for language in ("fr", "en"):
        with translation.override(language):
            for event in events:
                text = describe(event)
                assert "happened" not in text and "a eu lieu" not in text, event.kind
    with translation.override("fr"):
        spent = events.filter(kind="character.atout_spent").order_by("pk").first()
        assert describe(spent) == (  # type: ignore[arg-type]
            "Jim Bones dépense 2 Atouts : Tir passe de Faible à Moyen. « la chasse »"
        )
    with translation.override("en"):
        assert describe(events.get(kind="character.revers_inflicted")) == (
            "Jim Bones suffers a Decisive Revers (Réputation). scandale Out of action!"
        )
