"""The legal-move generator's fast paths against a rebuild from scratch (issue 15, engine speed).

``main_choices`` reads remembered values (each player's Mods, points, disengaged points, suggested payments,
capacity sources, targets shared by similar cards) and inlines the checks that ``apply`` makes through
``play_problem``, ``ability_usable``, ``activation_actions`` and ``equip_problem``. Two rebuilds are compared with
it at every step of a few hundred random games:

- the same state copied without its remembered values (``clone``, and every tenth step ``State.from_json``)
  must offer the same list;
- in the main phase, a list built from the checks themselves, one card at a time, must be the same list in the
  same order (the codes of ``legal_codes`` are positions in it, and the bots choose by position).

A remembered value that a change of the state failed to forget, or an inlined check that drifted from the one
``apply`` makes, fails here at the first step where they differ.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tragic.engine import State, new_game
from tragic.engine.cards import AIM_PARTS
from tragic.simulation import default_config


def rebuilt_main_choices(state: State, player: int) -> list[dict[str, Any]]:
    """``main_choices`` from the checks ``apply`` makes: playable cards (one per card id, in hand order),
    capacities, equipment changes, ally attacks, then ending the turn."""
    actions: list[dict[str, Any]] = []
    zones = state.players[player].zones
    if state.phase == "main":
        seen: set[str] = set()
        for uid in zones["hand"]:
            card = state.card(uid)
            if card.id in seen:
                continue
            seen.add(card.id)
            if state.play_problem(player, uid, check_targets=False) is not None:
                continue
            targets = state.play_targets(player, card)
            if not targets:
                continue
            pay = state.suggest_payment(player, card.cost)
            for target in targets:
                if target is None:
                    actions.append({"kind": "play", "player": player, "card": uid, "pay": pay})
                    continue
                action = {"kind": "play", "player": player, "card": uid, "pay": pay, "target": target}
                actions.append(action)
                if card.kw("CIBLAGE") and "player" in target:
                    actions.extend({**action, "aim": part} for part in AIM_PARTS)
    for uid in state.ability_sources(player):
        if state.ability_usable(player, uid, "main"):
            actions.extend(state.activation_actions(player, uid))
    if state.phase == "main":
        for uid in zones["equipment"]:
            engaged = state.cards[uid].engaged
            if state.equip_problem(player, uid, equip=engaged) is None:
                kind = "equip" if engaged else "unequip"
                pay = state.suggest_payment(player, state.card(uid).cost)
                actions.append({"kind": kind, "player": player, "card": uid, "pay": pay})
    if zones["play"]:
        actions.extend(state.ally_attack_choices(player))
    actions.append({"kind": "end_turn", "player": player})
    return actions


def in_main_choices(state: State, player: int) -> bool:
    """Whether ``legal_actions`` lists ``main_choices`` at this step (its own conditions)."""
    return (
        state.phase == "main"
        and state.pending is None
        and not state.priority
        and not state.ending
        and state.players[player].sheltered is None
    )


# 260 seeded games under `make test-slow`: two players under both rule profiles, then three and four; the fast
# suite plays the first few of each.
WHOLE_GAMES = [
    ("wiki", 2, range(0, 120)),
    ("booklet", 2, range(120, 200)),
    ("wiki", 3, range(200, 240)),
    ("wiki", 4, range(240, 260)),
]
GAMES = [(profile, players, seeds[:6]) for profile, players, seeds in WHOLE_GAMES] + [
    pytest.param(*game, marks=pytest.mark.slow) for game in WHOLE_GAMES
]


@pytest.mark.parametrize(("profile", "players", "seeds"), GAMES)
def test_the_legal_actions_equal_a_rebuild_from_scratch_at_every_step(profile, players, seeds):
    config = default_config(profile=profile, players=players)
    steps = main_steps = 0
    for seed in seeds:
        state, rng = new_game(config, seed), random.Random(seed)
        while not state.is_over():
            player = state.current_players()[0]
            codes = state.legal_codes(player, concede=False) or state.legal_codes(player)
            if state.phase not in ("choose_traits", "choose_skills"):
                offered = state.offer(player)
                # clone() keeps nothing remembered; from_json (slower) rebuilds even the plain data.
                fresh = State.from_json(state.to_json()) if state.steps % 10 == 0 else state.clone()
                assert fresh.legal_actions(player) == offered, (seed, state.steps)
                if in_main_choices(state, player):
                    assert state.main_choices(player) == rebuilt_main_choices(fresh, player), (seed, state.steps)
                    main_steps += 1
                codes = state.legal_codes(player, concede=False) or state.legal_codes(player)
            state.apply_code(rng.choice(codes))
            steps += 1
    assert main_steps > steps // 2  # the main phase is most of a game: the comparison is not vacuous
