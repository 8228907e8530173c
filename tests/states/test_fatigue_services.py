"""Fatigue through the services (states/services/fatigue.py): a level gained, a level removed by the narrator.

« Un troisième niveau de Fatigue provoque alors une perte de conscience (ou pire …) »; Sommeil: « Il s'effondrera
de fatigue, inconscient pour 4d10 heures. » Removing the third level ends the unconsciousness it brought.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from campaigns.models import Event
from core.errors import ServiceError
from states.models import SavageState
from states.services.fatigue import savage_fatigue_action, savage_fatigue_gain, savage_fatigue_lose
from tests.states.dice import ScriptedDice

pytestmark = pytest.mark.django_db


def _events(kind: str) -> list[Event]:
    return list(Event.objects.filter(kind=kind).order_by("pk"))


def _levels(state: SavageState) -> dict[str, int]:
    return dict(state.fatigue_tracks.filter(levels__gt=0).values_list("source", "levels"))


def _gain(table, source: str, *faces: int) -> SavageState:  # type: ignore[no-untyped-def]
    rng = ScriptedDice(*faces) if faces else None
    return savage_fatigue_gain(character=table.pc, actor=table.narrator, source=source, expected_version=None, rng=rng)


def test_an_unknown_source_is_refused_in_the_readers_language_and_changes_nothing(table) -> None:
    _gain(table, "hunger")
    before = SavageState.objects.get(character=table.pc)
    with translation.override("fr"), pytest.raises(ServiceError, match="Source de fatigue inconnue."):
        _gain(table, "boredom")
    after = SavageState.objects.get(character=table.pc)
    assert after.version == before.version and _levels(after) == {"hunger": 1}
    assert len(_events("savage.fatigue_gained")) == 1


def test_a_third_level_of_sleep_knocks_out_for_4d10_hours_on_the_game_clock(table) -> None:
    _gain(table, "sleep")
    _gain(table, "sleep")
    state = _gain(table, "sleep", 1, 2, 3, 4)  # 4d10 = 10 hours
    assert state.unconscious
    assert state.unconscious_until == table.campaign.game_clock + dt.timedelta(hours=10)
    payload = _events("savage.fatigue_gained")[-1].payload
    assert payload["critical_now"] and payload["effect"] == "unconscious_for"
    assert payload["faces"] == [1, 2, 3, 4] and payload["hours"] == 10


def test_a_third_level_without_a_set_duration_knocks_out_with_no_deadline(table) -> None:
    """Thirst's third level is death within 2d6 hours unless watered: unconscious, but no « wakes at » time."""
    _gain(table, "thirst")
    _gain(table, "thirst")
    state = _gain(table, "thirst", 3, 4)
    assert state.unconscious and state.unconscious_until is None


def test_removing_a_level_lowers_the_count_and_logs_one_event(table) -> None:
    _gain(table, "cold")
    state = _gain(table, "hunger")
    version = state.version
    state = savage_fatigue_lose(character=table.pc, actor=table.narrator, source="cold", expected_version=version)
    assert _levels(state) == {"hunger": 1} and state.version == version + 1
    [event] = _events("savage.fatigue_lost")
    assert event.payload["source"] == "cold" and event.payload["character"] == "Jim"


def test_removing_the_third_level_wakes_the_character(table) -> None:
    _gain(table, "sleep")
    _gain(table, "sleep")
    assert _gain(table, "sleep", 1, 1, 1, 1).unconscious
    state = savage_fatigue_lose(character=table.pc, actor=table.narrator, source="sleep", expected_version=None)
    state.refresh_from_db()
    assert _levels(state) == {"sleep": 2} and not state.unconscious and state.unconscious_until is None


def test_removing_a_level_of_a_source_with_none_is_refused_and_changes_nothing(table) -> None:
    before = _gain(table, "hunger")
    with translation.override("fr"), pytest.raises(ServiceError, match="Aucune Fatigue de cette source."):
        savage_fatigue_lose(character=table.pc, actor=table.narrator, source="cold", expected_version=None)
    after = SavageState.objects.get(character=table.pc)
    assert after.version == before.version and _levels(after) == {"hunger": 1}
    assert _events("savage.fatigue_lost") == []


def test_a_recovery_action_starts_the_recovery_and_logs_its_effects(table) -> None:
    """Faim: « 500 g de nourriture décente permet à un personnage de récupérer d'un niveau de fatigue par heure »."""
    before = _gain(table, "hunger")
    state = savage_fatigue_action(character=table.pc, actor=table.alice, action="food", expected_version=before.version)
    assert state.version == before.version + 1
    [event] = _events("savage.recovery_action")
    assert event.payload["action"] == "food"
    assert [(e["source"], e["started"]) for e in event.payload["effects"]] == [("hunger", True)]
    assert state.fatigue_tracks.get(source="hunger").recovering_since == table.campaign.game_clock


def test_an_action_that_heals_nothing_is_refused_and_changes_nothing(table) -> None:
    before = _gain(table, "cold")
    with translation.override("en"), pytest.raises(ServiceError, match="starts no recovery"):
        savage_fatigue_action(character=table.pc, actor=table.alice, action="food", expected_version=None)
    assert SavageState.objects.get(character=table.pc).version == before.version
    assert _events("savage.recovery_action") == []
