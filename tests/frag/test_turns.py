"""Turns, respawn and ejection, cards and their limits, markers left by frags, setup and victory."""

from __future__ import annotations

import pytest

from frag.engine import IllegalAction, new_game
from frag.engine.base import DISCARD, MOVEMENT, PLACEMENT
from frag.engine.fighters import check_fighter, tournament_raise
from tests.frag.arena import OPEN, arena, place, snapshot

FOUR = [{"name": f"P{i}", "health": 2, "speed": 3, "accuracy": 2} for i in range(4)]


def test_setup_deals_one_card_of_each_deck_and_fighters_start_on_numbered_squares() -> None:
    """« Donnez à chaque joueur 1 carte de chaque paquet. » ; « n'importe quelle case numérotée »"""
    state = new_game({"map": "entrepot", "players": FOUR}, seed=7)
    for fighter in state.fighters:
        assert sorted(state.card(u).deck for u in fighter.hand) == ["gadget", "special", "weapon"]
    assert state.phase == PLACEMENT
    first = state.current_players()[0]
    assert {a["to"] for a in state.legal_actions(first)} == set(state.board.respawn.values())
    for _ in range(4):
        seat = state.current_players()[0]
        state.apply(state.legal_actions(seat)[0])
    assert state.phase == MOVEMENT and state.current_players() == [first]


@pytest.mark.parametrize(
    ("fighter", "wins", "ok"),
    [
        ({"health": 3, "speed": 2, "accuracy": 2}, 0, True),
        ({"health": 5, "speed": 1, "accuracy": 1}, 0, False),
        ({"health": 0, "speed": 4, "accuracy": 3}, 0, False),
        ({"health": 3, "speed": 3, "accuracy": 2}, 0, False),
        ({"health": 3, "speed": 3, "accuracy": 2}, 1, True),
    ],
)
def test_seven_points_between_one_and_four_each_plus_one_per_tournament_win(fighter: dict, wins: int, ok: bool) -> None:
    if ok:
        check_fighter(fighter, wins)
    else:
        with pytest.raises(IllegalAction):
            check_fighter(fighter, wins)


def test_a_tournament_win_adds_one_point_but_never_above_four() -> None:
    raised = tournament_raise({"health": 3, "speed": 2, "accuracy": 2}, "health")
    assert (raised["health"], raised["wins"]) == (4, 1)
    with pytest.raises(IllegalAction, match="above 4"):
        tournament_raise(raised, "health")
    # « une de ses caractéristiques »: Santé, Vitesse or Précision, and the refusal names what was asked for.
    with pytest.raises(IllegalAction, match="^unknown attribute 'luck'$") as refused:
        tournament_raise(raised, "luck")
    # The web layer translates the template and fills its blanks (frag/refusals.py).
    assert (refused.value.template, refused.value.params) == ("unknown attribute {name}", {"name": "'luck'"})


def test_respawn_ejects_an_occupant_and_the_chain_goes_on() -> None:
    """« Si il y a un joueur dessus, celui-ci est éjecté et ainsi de suite. »"""
    state = arena(
        OPEN,
        fighters=[{"at": (3, 4)}, {"at": None}, {"at": (1, 7)}, {"at": (3, 1)}],
        dice=[2, 3, 4],  # P1 respawns on 2 (P2 there), P2 ejected to 3 (P3 there), P3 ejected to 4
    )
    events = state.apply({"type": "end_turn", "player": 0})
    assert state.fighters[1].place == state.board.respawn[2]
    assert state.fighters[2].place == state.board.respawn[3]
    assert state.fighters[3].place == state.board.respawn[4]
    assert [e["player"] for e in events if e["type"] == "ejected"] == [2, 3]
    assert state.current_players() == [1]


def test_an_ejected_fighter_never_lands_back_where_it_was_thrown_from() -> None:
    state = arena(OPEN, fighters=[{"at": (3, 4)}, {"at": None}, {"at": (1, 7)}], dice=[2, 2, 5])
    state.apply({"type": "end_turn", "player": 0})
    assert state.fighters[2].place == state.board.respawn[5]


def test_a_respawned_fighter_is_whole_again_with_no_weapon_or_armour() -> None:
    """« Votre nouveau combattant n'a pas de blessures [...] mais il n'a pas d'armes ni d'armures »"""
    state = arena(OPEN, fighters=[{"at": (3, 4)}, {"at": None, "health": 3, "hp": 0}], dice=[1])
    state.apply({"type": "end_turn", "player": 0})
    assert state.fighters[1].hp == 3 and state.fighters[1].weapons == []


def test_at_most_five_cards_in_hand_at_the_end_of_the_turn() -> None:
    """« à la fin de son tour, il ne doit pas en avoir plus de 5 (s'il en possède plus de 5, il doit les défausser ou
    les jouer) »"""
    hand = ["clou", "revolver", "bandage", "munitions", "adrenaline", "frenesie", "brouillard"]
    state = arena(OPEN, fighters=[{"at": (2, 2), "hand": hand}, {"at": (4, 4)}])
    state.apply({"type": "end_turn", "player": 0})
    assert state.phase == DISCARD and state.current_players() == [0]
    legal = state.legal_actions(0)
    # « les défausser ou les jouer » : every card may be discarded, and those that can be played now are offered too.
    assert {a["type"] for a in legal} == {"discard", "play"}
    assert {a["card"] for a in legal if a["type"] == "discard"} == set(state.fighters[0].hand)
    with pytest.raises(IllegalAction, match="not allowed now"):
        state.apply({"type": "end_turn", "player": 0})
    state.apply({"type": "discard", "player": 0, "card": state.fighters[0].hand[0]})
    assert state.phase == DISCARD
    state.apply({"type": "discard", "player": 0, "card": state.fighters[0].hand[0]})
    assert len(state.fighters[0].hand) == 5
    assert state.current_players() == [1]


def test_cards_in_play_do_not_count_in_the_hand() -> None:
    hand = ["clou", "revolver", "bandage", "munitions", "adrenaline", "frenesie"]
    state = arena(OPEN, fighters=[{"at": (2, 2), "hand": hand}, {"at": (4, 4)}])
    state.apply({"type": "play", "player": 0, "card": state.fighters[0].hand[0]})
    state.apply({"type": "end_turn", "player": 0})
    assert state.current_players() == [1]


def test_weapons_in_play_are_limited_to_santé_plus_one() -> None:
    """« Les joueurs ne peuvent avoir plus de cartes Armes en jeu que leur niveau de santé + 1 »"""
    state = arena(OPEN, fighters=[{"at": (2, 2), "health": 1, "hand": ["clou", "revolver", "laser"]}, {"at": (4, 4)}])
    uids = list(state.fighters[0].hand)
    state.apply({"type": "play", "player": 0, "card": uids[0]})
    state.apply({"type": "play", "player": 0, "card": uids[1]})
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=r"at most 2 weapons"):
        state.apply({"type": "play", "player": 0, "card": uids[2]})
    assert snapshot(state) == before
    assert not [a for a in state.legal_actions(0) if a["type"] == "attack" and a["weapon"] == uids[2]]


def test_multiply_before_adding_whatever_the_order() -> None:
    """« on multiplie la santé par 2 et on ajoute 2 » — here with Vitesse: 3 × 2 + 1."""
    state = arena(OPEN, fighters=[{"at": (2, 2), "speed": 3, "hand": ["adrenaline", "double_vitesse"]}, {"at": None}])
    add, double = state.fighters[0].hand
    state.apply({"type": "play", "player": 0, "card": add})
    state.apply({"type": "play", "player": 0, "card": double})
    assert state.stat(0, "speed") == 7


def test_of_two_contradicting_cards_the_last_played_wins() -> None:
    """« Si 2 cartes se contredisent, c'est la dernière jouée qui l'emporte. »"""
    state = arena(OPEN, fighters=[{"at": (2, 2), "speed": 3, "hand": ["adrenaline", "ralenti"]}, {"at": (4, 4)}])
    add, slow = state.fighters[0].hand
    state.apply({"type": "play", "player": 0, "card": add})
    state.apply({"type": "play", "player": 0, "card": slow})
    assert state.stat(0, "speed") == 2
    other = arena(OPEN, fighters=[{"at": (2, 2), "speed": 3, "hand": ["ralenti", "adrenaline"]}, {"at": (4, 4)}])
    slow, add = other.fighters[0].hand
    other.apply({"type": "play", "player": 0, "card": slow})
    other.apply({"type": "play", "player": 0, "card": add})
    assert other.stat(0, "speed") == 3


def test_a_card_overrides_a_rule_until_it_expires() -> None:
    """« les cartes peuvent aller à l'encontre des règles, elles ont toujours la priorité sur les règles » : a Special
    raises the hand limit, and is discarded at the start of the owner's next turn."""
    state = arena(
        OPEN,
        fighters=[
            {"at": (2, 2), "hand": ["grandes_poches", *["bandage"] * 3, "clou", "revolver", "laser"]},
            {"at": (4, 4)},
        ],
        dice=[],
    )
    state.apply({"type": "play", "player": 0, "card": state.fighters[0].hand[0]})
    state.apply({"type": "end_turn", "player": 0})
    assert state.current_players() == [1]
    assert state.stat(0, "hand_limit") == 8
    state.phase = "action"
    state.apply({"type": "end_turn", "player": 1})
    assert state.stat(0, "hand_limit") == 5


def test_a_passing_fighter_takes_one_marker_not_both() -> None:
    """« Tout joueur passant sur cette case peut alors prendre un des Marqueur mais pas les 2. »"""
    state = arena(OPEN, fighters=[{"at": (2, 2)}, {"at": None}])
    square = place(state, 2, 2)
    state.blood[square] = 1
    state._new_pile(square, [state.decks["weapon"].pop()], dropped_by=None, events=[])
    state.apply({"type": "take_blood", "player": 0})
    assert state.fighters[0].blood == 1
    with pytest.raises(IllegalAction, match="one marker per square"):
        pile = next(iter(state.piles))
        state.apply({"type": "take_weapon", "player": 0, "pile": pile, "card": state.piles[pile]["cards"][0]})


def test_a_weapon_from_a_marker_comes_back_fully_loaded() -> None:
    """« Quand un joueur récupère une arme de la sorte, elle est entièrement chargée. »"""
    state = arena(OPEN, fighters=[{"at": (2, 2), "weapons": ["harpon"]}, {"at": (4, 4)}])
    uid = state.fighters[0].weapons[0][0]
    state.fighters[0].weapons[0][1] = 0
    state.apply({"type": "drop", "player": 0, "card": uid})
    pile = next(iter(state.piles))
    with pytest.raises(IllegalAction, match="dropped this turn"):
        state.apply({"type": "take_weapon", "player": 0, "pile": pile, "card": uid})
    state.apply({"type": "end_turn", "player": 0})
    # The next fighter walks onto the marker.
    state.fighters[1].place = place(state, 2, 2)
    state.fighters[0].place = place(state, 1, 1)
    state.phase, state.turn.mp = "action", 0
    state.apply({"type": "take_weapon", "player": 1, "pile": pile, "card": uid})
    state.apply({"type": "play", "player": 1, "card": uid})
    assert state.fighters[1].weapons == [[uid, 3]]
    assert state.piles == {}


def test_a_disconnected_fighter_leaves_the_board_keeps_its_cards_and_scores_nobody() -> None:
    """« il conserve toutes les cartes qu'il a pioché » : Déconnexion is not a frag."""
    state = arena(
        OPEN,
        fighters=[{"at": (2, 2), "hand": ["deconnexion"]}, {"at": (4, 4), "hand": ["clou"], "weapons": ["laser"]}],
        dice=[6],
    )
    state.apply({"type": "play", "player": 0, "card": state.fighters[0].hand[0], "target": 1})
    victim = state.fighters[1]
    assert victim.out and len(victim.hand) == 1 and len(victim.weapons) == 1
    assert state.fighters[0].frags == 0 and state.blood == {}
    state.apply({"type": "end_turn", "player": 0})
    assert not victim.out and victim.place == state.board.respawn[6]


def test_the_observation_hides_other_hands_and_deck_order() -> None:
    """« La main de carte de chaque joueur est cachée. »"""
    state = new_game({"map": "entrepot", "players": FOUR}, seed=3)
    seen = state.observation(0)
    assert seen["fighters"][0]["hand"] is not None
    assert all(f["hand"] is None and f["hand_size"] == 3 for f in seen["fighters"][1:])
    assert seen["decks"] == {d: len(state.decks[d]) for d in ("weapon", "gadget", "special")}
    assert "dice" not in seen
    hidden = {state.card_ids[u] for f in state.fighters[1:] for u in f.hand} - {
        state.card_ids[u] for u in state.fighters[0].hand
    }
    text = repr(seen)
    assert not any(f"'{card}'" in text for card in hidden)


def test_a_disconnected_fighter_comes_back_on_its_turn_unhurt_with_its_armour_and_cards() -> None:
    """Déconnexion: « Un autre combattant quitte le plateau jusqu'à son prochain tour. Il garde ses cartes ; ce n'est
    pas un frag »; back in play, « Votre nouveau combattant n'a pas de blessures »: Santé plus its armour's value."""
    state = arena(
        OPEN,
        fighters=[
            {"at": (3, 4), "hand": ["deconnexion"]},
            {"at": (1, 1), "health": 3, "armour": "armure_combat", "weapons": ["harpon"]},
        ],
        dice=[2],
    )
    victim = state.fighters[1]
    armour = victim.armour
    assert armour is not None
    victim.hp -= 2
    state.apply({"type": "play", "player": 0, "card": state.fighters[0].hand[0], "target": 1})
    assert victim.out and victim.frags == 0
    state.apply({"type": "end_turn", "player": 0})
    assert not victim.out and victim.place == state.board.respawn[2]
    assert victim.armour == armour and victim.hp == 3 + armour[1] and len(victim.weapons) == 1


def test_an_empty_deck_is_reshuffled_from_its_discard_and_only_then_runs_dry() -> None:
    """« Il faut bien séparer leur défausse et quand le paquet est terminé, on mélange la défausse »: the Gadget
    deck drawn empty takes its own discard back; with no discard either, the draw gives nothing and says which deck."""
    state = arena(OPEN, fighters=[{"at": (2, 2)}, {"at": (4, 4)}])
    gadgets = state.decks["gadget"]
    state.discards["gadget"].extend(gadgets[1:])
    del gadgets[1:]
    events: list[dict[str, object]] = []
    assert state._draw("gadget", 0, events, reason="test") is not None  # the last card of the deck
    assert state._draw("gadget", 0, events, reason="test") is not None
    assert {"type": "reshuffled", "deck": "gadget"} in events and not state.discards["gadget"]
    state.decks["gadget"].clear()
    assert state._draw("gadget", 0, events, reason="test") is None
    assert events[-1] == {"type": "deck_empty", "deck": "gadget", "player": 0}
