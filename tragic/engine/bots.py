"""Bots that play through the public API only: a random-legal bot and a one-ply heuristic bot.

Both choose among ``state.legal_actions(player)`` and never clone the state; the heuristic one scores
each action from what its own observation could know (it reads no hidden card of the opponent).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from .damage import armour_against
from .game import State
from .legal import Action

PREFERRED_TRAITS = ("peau-dure-1", "unidextre-1", "petite-carrure-1", "bon-vivant-bon-fond-1", "griffemort-2")
PREFERRED_SKILLS = ("recyclage-1", "armes-a-feu-1", "corps-a-corps-1", "medecine-1", "troc-1", "eloquence-1")


class Bot(ABC):
    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: State, player: int) -> Action:
        """The action this bot plays for ``player`` now."""


class RandomBot(Bot):
    """Any legal action but conceding, uniformly."""

    name = "random"

    def choose(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        playable = [a for a in legal if a["kind"] != "concede"] or legal
        return self.rng.choice(playable)


class HeuristicBot(Bot):
    """Greedy: grow SPECIAL, hit hard where the armour is thin, keep allies alive, answer attacks."""

    name = "heuristic"

    def choose(self, state: State, player: int) -> Action:
        actions = state.legal_actions(player)
        return actions[self.pick(state, player, actions)]

    def pick(self, state: State, player: int, actions: list[Action]) -> int:
        """The position in ``actions`` (the legal actions, as offered) of the action :meth:`choose` plays: the
        search bot's rollouts apply it by its code."""
        playable = [i for i, a in enumerate(actions) if a["kind"] != "concede"]
        if not playable:
            return 0
        if actions[playable[0]]["kind"] in ("choose_traits", "choose_skills"):
            chosen = self.setup_choice(state, player, [actions[i] for i in playable])
            return next(i for i in playable if actions[i] is chosen)
        return max(playable, key=lambda i: (self.score(state, player, actions[i]), self.rng.random()))

    def setup_choice(self, state: State, player: int, legal: list[Action]) -> Action:
        if legal[0]["kind"] == "choose_traits":
            wanted = [t for t in PREFERRED_TRAITS if any(t in a["traits"] for a in legal)]
            picks = sorted(self.rng.sample(wanted, min(2, len(wanted)))) if wanted else []
            return next((a for a in legal if sorted(a["traits"]) == picks), legal[0])
        wanted = [s for s in PREFERRED_SKILLS if any(s in a["skills"] for a in legal)][:3]
        return next((a for a in legal if sorted(a["skills"]) == sorted(wanted)), legal[0])

    def score(self, state: State, player: int, action: Action) -> float:
        kind = action["kind"]
        method = getattr(self, f"_{kind}", None)
        return method(state, player, action) if method else 0.0

    def _place_special(self, state: State, player: int, action: Action) -> float:
        attribute = state.card(action["card"]).attribute or "S"
        wanted = sum(state.card(u).cost.get(attribute, 0) for u in state.zone(player, "hand"))
        return 100.0 + wanted

    def _play(self, state: State, player: int, action: Action) -> float:
        card = state.card(action["card"])
        cost = sum(card.cost.values())
        if card.type == "attack":
            damage = self.expected_damage(state, player, card.attack, action.get("target"))
            return 40.0 + damage * 3 + self.victim_bonus(state, action.get("target"), damage)
        if card.is_ally:
            return 30.0 + card.power + card.life
        if card.type in ("item", "building"):
            return 20.0 + cost
        heals = [e for e in card.effects if e.op == "heal"]
        if heals and state.players[player].life > state.players[player].max_life - 5:
            return -5.0
        return 15.0 + cost

    def _activate(self, state: State, player: int, action: Action) -> float:
        card = state.card(action["card"])
        ability = card.ability
        if ability is not None and ability.attack:
            damage = self.expected_damage(state, player, card.attack, action.get("target"))
            return 45.0 + damage * 3 + self.victim_bonus(state, action.get("target"), damage)
        if ability is not None and any(e.op == "heal" for e in ability.effects):
            p = state.players[player]
            return 10.0 if p.life < p.max_life - 4 else -5.0
        if ability is not None and any(e.op in ("end_turn", "shelter") for e in ability.effects):
            return -10.0
        return 5.0

    def _equip(self, state: State, player: int, action: Action) -> float:
        return 25.0

    def _unequip(self, state: State, player: int, action: Action) -> float:
        return -20.0

    def _ally_attack(self, state: State, player: int, action: Action) -> float:
        power = sum(state.ally_power(u) for u in action["allies"])
        target = action["target"]
        if "player" in target:
            blockers = state.blockers(target["player"])
            bonus = self.victim_bonus(state, target, power) if not blockers else 0.0
            return 35.0 + power * 2 - 3 * len(blockers) + bonus
        defender = target["card"]
        kills = state.ally_life(defender) <= power
        survives = state.ally_power(defender) < sum(state.ally_life(u) for u in action["allies"])
        return 20.0 + (15 if kills else 0) + (10 if survives else -10)

    def _react(self, state: State, player: int, action: Action) -> float:
        top = state.stack[-1]
        aimed = state.aimed_at(top, player) or top["kind"] == "ally_attack"
        return 30.0 if aimed else 2.0

    def _pass(self, state: State, player: int, action: Action) -> float:
        return 10.0

    def _block(self, state: State, player: int, action: Action) -> float:
        pending = state.pending or {}
        incoming = state.incoming_power(pending) if pending.get("item", {}).get("kind") == "ally_attack" else 0
        if not action["blockers"]:
            life = state.players[player].life
            return 10.0 if incoming < life else -100.0
        survivors = sum(
            1 for u, s in zip(action["blockers"], action["split"] or [0], strict=False) if state.ally_life(u) > s
        )
        return 5.0 + 10 * survivors

    def _end_turn(self, state: State, player: int, action: Action) -> float:
        return 1.0

    def _end_upkeep(self, state: State, player: int, action: Action) -> float:
        return 1.0

    def _upkeep(self, state: State, player: int, action: Action) -> float:
        return 50.0 if "pay" in action or "discard" not in action else 40.0

    def _discover(self, state: State, player: int, action: Action) -> float:
        return sum(1.0 for _, d in action["placements"] if d == "top")

    def _search(self, state: State, player: int, action: Action) -> float:
        return 0.0 if action["card"] is None else 1.0

    def _keep(self, state: State, player: int, action: Action) -> float:
        return 1.0

    def victim_bonus(self, state: State, target: dict[str, Any] | None, damage: float) -> float:
        """With several opponents, aim at the one closest to falling: a blow that finishes a player is worth
        most, then the more worn-down player (a tie between equal players stays with the random tie-break)."""
        if not target or "player" not in target or len(state.alive()) <= 2:
            return 0.0
        victim = state.players[int(target["player"])]
        if damage >= victim.life:
            return 60.0
        return 10.0 * (1 - victim.life / max(1, victim.max_life))

    def expected_damage(self, state: State, player: int, profile: Any, target: dict[str, Any] | None) -> float:
        if profile is None or not target:
            return 0.0
        raw = state.attack_raw(player, profile)
        if "player" in target:
            return max(0, raw - armour_against(state.armour(target["player"]), profile.damage_type))
        uid = target["card"]
        if state.card(uid).is_ally:
            return min(raw, state.ally_life(uid)) + state.ally_power(uid) - state.ally_power(uid) * 0.5
        return 3.0
