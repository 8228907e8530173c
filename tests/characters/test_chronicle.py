"""Every character event reads as a sentence in the log, in French and in English."""

from __future__ import annotations

import pytest
from django.utils import translation

from campaigns.chronicle import describe, known_kinds
from campaigns.models import Event
from characters.services.atouts import atout_gain, atout_refund, atout_spend, trait_raise
from characters.services.equipment import equipment_add
from characters.services.powers import character_rest, feed_allow, feed_revoke, healing_start, power_use
from characters.services.revers import first_aid, revers_heal, revers_inflict
from characters.services.sheet import character_update, trait_set
from tests.characters.factories import open_session, pc, table

pytestmark = pytest.mark.django_db


def test_each_character_event_has_its_sentence() -> None:
    campaign, narrator, (player, other) = table()
    jim = pc(campaign, player)
    open_session(campaign, narrator)
    trait_raise(character=jim, actor=player, trait_code="tir", justification="la chasse", ranks=2)
    entry = atout_spend(character=jim, actor=player, use="narrative_control", justification="une corde")
    atout_refund(entry=entry, actor=narrator)
    atout_gain(character=jim, actor=narrator, amount=2, note="bravoure")
    revers = revers_inflict(character=jim, actor=narrator, domain="named", domain_name="Réputation",
                                     severity=3, source="scandale")  # fmt: skip
    first_aid(revers=revers, actor=narrator, success=False)
    revers_heal(revers=revers, actor=narrator)
    trait_set(character=jim, actor=narrator, code="vigueur", rank=5)
    equipment_add(character=jim, actor=player, data={"category": "weapon", "name": "Fusil", "bonus": 2})
    jim.refresh_from_db()
    character_update(character=jim, actor=player, data={"goal": "Survivre"}, expected_version=jim.version)
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


def test_feeding_and_regeneration_read_in_both_languages() -> None:
    """Each feed, fed use, rest and regeneration step is one event with its own sentence."""
    import datetime as dt

    from campaigns import services as campaign_services

    campaign, narrator, (player, _other) = table()
    psy = pc(campaign, player, {"telepathie": 2, "conscience": 5, "presence": 4})
    feed = feed_allow(character=psy, actor=narrator, domain="telepathie", trait="presence")
    power_use(character=psy, actor=player, domain="telepathie", power_rank=2, fed_by="presence")
    feed_revoke(feed=feed, actor=narrator)
    revers_inflict(character=psy, actor=narrator, domain="physical", severity=1, source="balle")
    healing_start(character=psy, actor=player, power="regeneration")
    campaign.refresh_from_db()
    campaign_services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(hours=2))
    character_rest(character=psy, actor=player)
    events = Event.objects.filter(kind__startswith="character.")
    kinds = set(events.values_list("kind", flat=True))
    assert {"character.feed_allowed", "character.feed_revoked", "character.healing_started",
            "character.healing_cycle", "character.healing_stopped"} <= kinds <= set(known_kinds())  # fmt: skip
    for language in ("fr", "en"):
        with translation.override(language):
            for event in events:
                text = describe(event)
                assert "happened" not in text and "a eu lieu" not in text, event.kind
    with translation.override("en"):
        assert describe(events.get(kind="character.power_used")).endswith(
            "Presence feeds the power instead of Potential: −1 rank until rest."
        )
        assert describe(events.get(kind="character.healing_cycle")) == (
            "Regeneration: Jim Bones completes 1 cycle, 1 Revers step healed, 0 Potential points spent (4 left)."
        )
        assert describe(events.get(kind="character.healing_stopped")) == (
            "Jim Bones's wounds are healed: Regeneration stops (1 Potential point spent)."
        )
    with translation.override("fr"):
        assert describe(events.get(kind="character.rested")) == (
            "Jim Bones se repose et récupère Potentiel et Vigueur. Retour à leur rang : Présence."
        )


@pytest.mark.parametrize(
    ("kind", "payload", "text"),
    [
        ("character.regeneration_started", {"cycle_hours": 1, "potential_left": 4},
         "Jim starts Regeneration: one Potential point per 1-hour cycle (4 left)."),
        ("character.regeneration_cycle", {"cycles": 1, "points": 1, "healed": [{"from": 2, "to": 1}], "potential_left": 3},
         "Regeneration: Jim completes 1 cycle, 1 Revers step healed, 1 Potential point spent (3 left)."),
        ("character.regeneration_stopped", {"reason": "healed", "points": 2},
         "Jim's wounds are healed: Regeneration stops (2 Potential points spent)."),
    ],
)  # fmt: skip
def test_regeneration_events_from_before_the_healing_path_still_read(kind: str, payload: dict, text: str) -> None:
    with translation.override("en"):
        assert describe(Event(kind=kind, payload={"character": "Jim", **payload})) == text
