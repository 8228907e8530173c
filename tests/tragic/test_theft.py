"""FAQ 13 (000): « la Compétence « Voleur – Appropriation » se découpe en 2 temps : dans un premier temps,
elle permet de voler une seule et unique carte, et ne profite donc pas du bonus ; dans un second temps, elle
permet piocher une carte, et donc profite du bonus de pioche »."""

from __future__ import annotations

import json

import pytest

from tests.tragic.helpers import events_of, give, pass_all, set_points, started, turn_of
from tests.tragic.test_invariants import library_cards_everywhere
from tragic.engine import IllegalAction, State
from tragic.engine.observation import redact_event

THIEF = "voleur-appropriation-1"
SKILLS = [THIEF, "medecine-1", "troc-1"]


def steal(state: State, *, victim: int = 1) -> list[dict]:
    skill = next(u for u in state.zone(0, "skill") if state.cards[u].cid == THIEF)
    events = state.apply(
        {"kind": "activate", "player": 0, "card": skill, "pay": {"A": 2}, "target": {"player": victim}}
    )
    while state.stack:
        events += pass_all(state)
    return events


@pytest.mark.parametrize(("traits", "drawn"), [([], 1), (["bon-vivant-bon-fond-1"], 2)])
def test_the_theft_takes_one_card_and_only_the_draw_gets_the_bon_vivant_bonus(traits, drawn):
    state = turn_of(started(traits=[traits, []], skills=[SKILLS, SKILLS]), 0)
    set_points(state, 0, "A", 3)
    mine, theirs = list(state.zone(0, "hand")), list(state.zone(1, "hand"))
    events = steal(state)
    [stole] = events_of(events, "stole")
    assert stole["count"] == 1  # « une seule et unique carte », Bon Vivant or not
    [taken] = [u for u in theirs if u not in state.zone(1, "hand")]
    assert len(state.zone(1, "hand")) == len(theirs) - 1
    assert len(state.zone(0, "hand")) == len(mine) + 1 + drawn  # the draw « profite du bonus de pioche »
    assert taken in state.zone(0, "hand")
    assert state.cards[taken].owner == 0 and state.cards[taken].origin == 1 and state.cards[taken].born_to == 1
    library_cards_everywhere(state)


def test_the_stolen_card_is_the_thiefs_to_play_and_to_discard():
    state = turn_of(started(skills=[SKILLS, SKILLS]), 0)
    set_points(state, 0, "A", 3)
    set_points(state, 0, "E", 3)
    for uid in list(state.zone(1, "hand")):
        state.move(uid, "library")
    stimpak = give(state, 1, "stimpak-1")
    state.players[0].life = 30
    steal(state)
    assert state.cards[stimpak].owner == 0
    state.apply({"kind": "play", "player": 0, "card": stimpak, "pay": {"E": 1}})
    pass_all(state)
    assert state.players[0].life > 30
    assert stimpak in state.zone(0, "discard") and stimpak not in state.zone(1, "discard")
    library_cards_everywhere(state)
    saved = State.from_json(json.loads(json.dumps(state.to_json())))
    assert saved.to_json() == state.to_json() and saved.cards[stimpak].origin == 1


def test_only_the_thief_and_the_victim_see_which_card_was_stolen():
    state = turn_of(started(skills=[SKILLS] * 3, players=3), 0)
    set_points(state, 0, "A", 3)
    [stole] = events_of(steal(state, victim=2), "stole")
    assert redact_event(stole, 0)["cards"] == redact_event(stole, 2)["cards"] != []
    assert "cards" not in redact_event(stole, 1) and redact_event(stole, 1)["count"] == 1
    for viewer in range(3):
        shown = json.dumps(state.observation(viewer))
        for other in range(3):
            if other != viewer:
                assert "hand" not in state.observation(viewer)["players"][other]
        assert shown


def test_an_opponent_with_an_empty_hand_cannot_be_robbed():
    state = turn_of(started(skills=[SKILLS, SKILLS]), 0)
    set_points(state, 0, "A", 3)
    for uid in list(state.zone(1, "hand")):
        state.move(uid, "library")
    skill = next(u for u in state.zone(0, "skill") if state.cards[u].cid == THIEF)
    assert not [a for a in state.legal_actions(0) if a.get("card") == skill]
    before = state.to_json()
    with pytest.raises(IllegalAction) as refusal:
        state.apply({"kind": "activate", "player": 0, "card": skill, "pay": {"A": 2}, "target": {"player": 1}})
    assert refusal.value.code == "bad_target" and state.to_json() == before
