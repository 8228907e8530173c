"""The engine API (design.md, rule 7): ``new_game``, ``current_players``, ``legal_actions``, ``apply``,
``observation``, ``is_over``, ``winner``, ``to_json`` / ``from_json``.

Actions are plain JSON dicts with a ``kind`` and the acting ``player`` (docs/tragic.md lists them).
``apply`` checks an action completely before changing anything, so a refused action leaves the state
exactly as it was.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from .cards import AIM_PARTS, ALLY_TYPES, ATTRIBUTES, PERMANENT_TYPES, Card
from .decks import validate_library
from .effects import TARGETED_OPS
from .errors import IllegalAction, Problem
from .observation import observe
from .profiles import COPY_LIMITS, PROFILES
from .state import Player, pool_for
from .turns import Turns

Action = dict[str, Any]


def _refuse(code: str, template: str, **params: object) -> IllegalAction:
    """A refusal: an English template with its ``{named}`` blanks, or a :class:`Problem` of a check."""
    if isinstance(template, Problem):
        return IllegalAction(code, template.template, **template.params)
    return IllegalAction(code, template, **params)


class State(Turns):
    # -- API -----------------------------------------------------------------------------------------------

    def current_players(self) -> list[int]:
        """Who may act now: everyone still choosing at setup, else the one player holding the decision."""
        if self.over:
            return []
        if self.phase in ("choose_traits", "choose_skills"):
            return [p.index for p in self.players if p.hidden_choice is None]
        if self.phase == "mulligan":
            player = self.mulligan_player()
            return [] if player is None else [player]
        if self.pending is not None:
            return [self.pending["player"]]
        if self.priority:
            return [self.priority[0]]
        return [self.active]

    def is_over(self) -> bool:
        return self.over

    def winner(self) -> int | None:
        """The winner's seat, or None while playing or after a draw."""
        return self.winner_index

    def observation(self, player: int | None) -> dict[str, Any]:
        return observe(self, player)

    def clone(self) -> State:
        """The slow path (a full JSON round trip); bots only use it when they must."""
        return State.from_json(self.to_json())

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        state = cls.__new__(cls)
        state._load_json(data)
        state.events = []
        return state

    # -- legal actions ---------------------------------------------------------------------------------

    def legal_actions(self, player: int) -> list[Action]:
        if player not in self.current_players():
            return []
        if self.phase == "choose_traits":
            return self.trait_choices(player)
        if self.phase == "choose_skills":
            return self.skill_choices(player)
        if self.phase == "mulligan":
            return self.mulligan_choices(player)
        if self.pending is not None:
            return self.pending_choices(player) + [{"kind": "concede", "player": player}]
        if self.priority:
            return self.priority_choices(player) + [{"kind": "concede", "player": player}]
        actions: list[Action] = []
        if self.special_placeable(player):
            actions.extend(self.special_choices(player))
        if self.ending:
            return actions + [{"kind": "end_turn", "player": player}]
        if self.phase == "upkeep":
            actions.extend(self.upkeep_choices(player))
        elif self.players[player].sheltered is None:
            actions.extend(self.main_choices(player))
        else:
            actions.append({"kind": "end_turn", "player": player})
        actions.append({"kind": "concede", "player": player})
        return actions

    def trait_choices(self, player: int) -> list[Action]:
        pool = sorted(set(self.players[player].trait_pool))
        choices = [[]] + [[t] for t in pool] + [list(c) for c in itertools.combinations(pool, 2)]
        return [{"kind": "choose_traits", "player": player, "traits": c} for c in choices]

    def skill_choices(self, player: int) -> list[Action]:
        pool = sorted(set(self.players[player].skill_pool))
        actions = []
        for size in range(3, self.skill_slots(player) + 1):
            actions.extend(
                {"kind": "choose_skills", "player": player, "skills": list(c)}
                for c in itertools.combinations(pool, size)
            )
        return actions

    def mulligan_choices(self, player: int) -> list[Action]:
        p = self.players[player]
        hand = p.zones["hand"]
        actions: list[Action] = [
            {"kind": "keep", "player": player, "bottom": hand[len(hand) - p.mulligans :] if p.mulligans else []}
        ]
        if p.mulligans < self.initial_hand_size(player):
            actions.append({"kind": "mulligan", "player": player})
        return actions

    def pending_choices(self, player: int) -> list[Action]:
        pending = self.pending
        assert pending is not None
        kind = pending["kind"]
        if kind in ("block", "protect"):
            actions: list[Action] = [{"kind": "block", "player": player, "blockers": [], "split": []}]
            total = self.incoming_power(pending)
            for uid in pending["options"]:
                actions.append({"kind": "block", "player": player, "blockers": [uid], "split": [total]})
            if kind == "block" and len(pending["options"]) > 1:
                options = pending["options"]
                share = [total // len(options)] * len(options)
                share[0] += total - sum(share)
                actions.append({"kind": "block", "player": player, "blockers": list(options), "split": share})
            return actions
        if kind == "search":
            options = self.search_matches(player, pending["card_type"], pending["attribute"])
            return [{"kind": "search", "player": player, "card": c} for c in options] + [
                {"kind": "search", "player": player, "card": None}
            ]
        if kind == "discover":
            cards = pending["cards"]
            return [
                {
                    "kind": "discover",
                    "player": player,
                    "placements": [[u, d] for u, d in zip(cards, dests, strict=True)],
                }
                for dests in itertools.product(("top", "bottom", "discard"), repeat=len(cards))
            ]
        return []

    def timeout_actions(self, *, own_turn: bool = False) -> list[Action]:
        """What the players being waited for are taken to do when their time runs out (the shell keeps the
        clock and records these actions, each marked ``timed_out``). [] when the wait does not time out.

        - a priority window: they pass (« Libre à lui d'utiliser une carte de Réaction »);
        - allies attacking them: no block (« Libre à lui … d'utiliser l'un de ses propres Alliés pour se
          défendre »), the same for CHARGE DE PROTECTION;
        - « Cherchez »: they take nothing; DÉCOUVERTE: every card goes back on top in its order, so the
          library is as it was;
        - Traits: none (« jusqu'à deux »); a London mulligan: they keep the hand, the cards the engine
          proposes going under (« Lorsqu'un joueur choisit de ne pas prendre de mulligan, les cartes
          restantes deviennent la main de départ »). Compétences never time out: « les joueurs doivent
          choisir obligatoirement 3 Compétences » and no text says which;
        - the active player's own turn only with ``own_turn`` (the shell passes it once the game's timer
          has run out, « le jeu s'arrête lorsque les 2 joueurs ont joué très exactement le même nombre de
          tour »): each ENTRETIEN effect is left unpaid (ACCRO: neither pay nor discard), then the upkeep
          and the turn end.
        """
        if self.over:
            return []
        actions: list[Action] = []
        for player in self.current_players():
            if self.phase == "choose_traits":
                actions.append({"kind": "choose_traits", "player": player, "traits": []})
            elif self.phase == "choose_skills":
                return []
            elif self.phase == "mulligan":
                actions.append(self.mulligan_choices(player)[0])
            elif self.pending is not None:
                kind = self.pending["kind"]
                if kind in ("block", "protect"):
                    actions.append({"kind": "block", "player": player, "blockers": [], "split": []})
                elif kind == "search":
                    actions.append({"kind": "search", "player": player, "card": None})
                elif kind == "discover":
                    placements = [[uid, "top"] for uid in self.pending["cards"]]
                    actions.append({"kind": "discover", "player": player, "placements": placements})
            elif self.priority:
                actions.append({"kind": "pass", "player": player})
            elif own_turn:
                upkeep = self.phase == "upkeep" and not self.ending
                mandatory = [e for e in self.upkeep_todo if not e.get("optional")] if upkeep else []
                if mandatory:
                    actions.append({"kind": "upkeep", "player": player, "entry": mandatory[0]["id"]})
                elif upkeep:
                    actions.append({"kind": "end_upkeep", "player": player})
                else:
                    actions.append({"kind": "end_turn", "player": player})
        return [{**action, "timed_out": True} for action in actions]

    def incoming_power(self, pending: dict[str, Any]) -> int:
        item = pending["item"]
        if item["kind"] == "ally_attack":
            return sum(self.ally_power(u) for u in item["allies"] if self.cards[u].zone == "combat")
        return 0

    def priority_choices(self, player: int) -> list[Action]:
        actions: list[Action] = [{"kind": "pass", "player": player}]
        top = self.stack[-1]
        seen: set[str] = set()
        for uid in self.zone(player, "hand"):
            card = self.card(uid)
            if card.type != "reaction" or card.id in seen:
                continue
            seen.add(card.id)
            if self.reaction_problem(player, uid, top) is None:
                actions.append(
                    {"kind": "react", "player": player, "card": uid, "pay": self.suggest_payment(player, card.cost)}
                )
        for uid in self.ability_sources(player):
            if self.ability_usable(player, uid, "interrupt"):
                actions.extend(self.activation_actions(player, uid))
        return actions

    def special_choices(self, player: int) -> list[Action]:
        seen: set[str] = set()
        actions = []
        for uid in self.zone(player, "hand"):
            card = self.card(uid)
            if card.type == "special" and card.id not in seen and self.points(player, card.attribute or "S") < 10:
                seen.add(card.id)
                actions.append({"kind": "place_special", "player": player, "card": uid})
        return actions

    def upkeep_choices(self, player: int) -> list[Action]:
        actions: list[Action] = []
        for entry in self.upkeep_todo:
            base = {"kind": "upkeep", "player": player, "entry": entry["id"]}
            if entry["kind"] == "accro":
                cost = {"any": entry["n"]}
                if self.can_pay(player, cost):
                    actions.append({**base, "pay": self.suggest_payment(player, cost)})
                hand = self.zone(player, "hand")
                if hand:
                    actions.append({**base, "discard": hand[0]})
                actions.append(base)
            elif entry["kind"] == "shelter_exit":
                ability = self.card(entry["card"]).ability
                cost = dict(ability.cost) if ability else {}
                if self.can_pay(player, cost):
                    actions.append({**base, "pay": self.suggest_payment(player, cost)})
            elif entry["kind"] == "engage_cost":
                cost = dict(self.card(entry["card"]).cost)
                if self.can_pay(player, cost):
                    actions.append({**base, "pay": self.suggest_payment(player, cost)})
                actions.append(base)
            else:
                actions.append(base)
        for uid in self.zone(player, "skill"):
            if self.ability_usable(player, uid, "upkeep"):
                actions.extend(self.activation_actions(player, uid))
        if not any(not e.get("optional") for e in self.upkeep_todo):
            actions.append({"kind": "end_upkeep", "player": player})
        return actions

    def main_choices(self, player: int) -> list[Action]:
        actions: list[Action] = []
        seen: set[str] = set()
        available = self.available_points(player)
        spare = sum(available.values())
        attack_targets: dict[tuple[Any, ...], list[dict[str, Any] | None]] = {}
        for uid in self.zone(player, "hand"):
            card = self.card(uid)
            if card.id in seen:
                continue
            seen.add(card.id)
            # Cheap refusals first: most cards in hand are SPECIAL cards, reactions or too dear.
            if card.type in ("special", "reaction") or sum(card.cost.values()) > spare:
                continue
            if any(a != "any" and available[a] < n for a, n in card.cost.items()):
                continue
            if self.play_problem(player, uid, check_targets=False) is not None:
                continue
            if card.type == "attack" and card.attack is not None:
                # Attacks with the same reach share their targets.
                key = (card.attack.targets, card.kw("INCAPACITE"), card.kw("EXPLOSION_DE_ZONE"))
                if key not in attack_targets:
                    attack_targets[key] = self.play_targets(player, card)
                targets = attack_targets[key]
            else:
                targets = self.play_targets(player, card)
            if not targets:
                continue
            pay = self.suggest_payment(player, card.cost)
            for target in targets:
                action: Action = {"kind": "play", "player": player, "card": uid, "pay": pay}
                if target is not None:
                    action["target"] = target
                actions.append(action)
                if card.kw("CIBLAGE") and target and "player" in target:
                    actions.append({**action, "aim": "hand"})
        for uid in self.ability_sources(player):
            if self.ability_usable(player, uid, "main"):
                actions.extend(self.activation_actions(player, uid))
        for uid in self.zone(player, "equipment"):
            card = self.card(uid)
            if self.equip_problem(player, uid, equip=self.cards[uid].engaged) is None:
                kind = "equip" if self.cards[uid].engaged else "unequip"
                actions.append(
                    {"kind": kind, "player": player, "card": uid, "pay": self.suggest_payment(player, card.cost)}
                )
        actions.extend(self.ally_attack_choices(player))
        actions.append({"kind": "end_turn", "player": player})
        return actions

    def ally_attack_choices(self, player: int) -> list[Action]:
        actions: list[Action] = []
        horde_done = False
        for uid in self.zone(player, "play"):
            if not self.can_ally_attack(uid):
                continue
            group = [uid]
            if self.keyword(uid, "HORDE"):
                # HORDE « force les Alliés la possédant à attaquer tous en même temps la même cible »
                if horde_done:
                    continue
                horde_done = True
                group = [u for u in self.zone(player, "play") if self.keyword(u, "HORDE") and self.can_ally_attack(u)]
            for target in self.ally_targets(player, group):
                actions.append({"kind": "ally_attack", "player": player, "allies": group, "target": target})
        return actions

    def can_ally_attack(self, uid: int) -> bool:
        inst = self.cards[uid]
        return (
            inst.zone == "play" and self.card(uid).is_ally and not inst.engaged and not self.keyword(uid, "EN_DEFENSE")
        )

    def ally_targets(self, player: int, group: list[int]) -> list[dict[str, Any]]:
        targets: list[dict[str, Any]] = []
        for victim in self.opponents(player):
            if self.player_targetable(player, victim):
                targets.append({"player": victim})
            for uid in self.allies(victim):
                if all(self.ally_targetable(player, uid, by_ally=a) for a in group):
                    targets.append({"card": uid})
        return targets

    def ability_sources(self, player: int) -> list[int]:
        p = self.players[player]
        return [
            u
            for zone in ("skill", "play", "equipment", "special", "trait")
            for u in p.zones[zone]
            if self.card(u).ability
        ]

    def activation_actions(self, player: int, uid: int) -> list[Action]:
        card = self.card(uid)
        ability = card.ability
        assert ability is not None
        if ability.life_for_missing:
            affordable = self.affordable_part(player, ability.cost)
            generic = (
                self.suggest_payment(player, {"any": ability.cost.get("any", 0)}) if ability.cost.get("any") else {}
            )
            pay = {a: affordable.get(a, 0) + generic.get(a, 0) for a in {*affordable, *generic}}
        else:
            pay = self.suggest_payment(player, ability.cost)
        base: Action = {"kind": "activate", "player": player, "card": uid, "pay": pay}
        if ability.attack:
            targets = self.attack_targets(player, card)
            actions = [{**base, "target": t} for t in targets]
            if card.kw("CIBLAGE"):
                actions += [{**base, "target": t, "aim": "hand"} for t in targets if "player" in t]
            return actions
        if any(e.op == "recycle" for e in ability.effects):
            # The card to recycle is chosen among the others: paying may not use it.
            seen: set[str] = set()
            actions = []
            for h in self.zone(player, "hand"):
                if self.cards[h].cid not in seen:
                    seen.add(self.cards[h].cid)
                    actions.append({**base, "choice": h})
            return actions
        targets = self.effect_targets(player, ability.effects)
        return [{**base, "target": t} if t is not None else base for t in targets]

    # -- checks shared by legal_actions and apply --------------------------------------------------------

    def play_problem(self, player: int, uid: int, *, check_targets: bool = True) -> Problem | None:
        card = self.card(uid)
        if self.cards[uid].zone != "hand" or self.cards[uid].owner != player:
            return Problem("that card is not in your hand")
        if card.type == "special":
            return Problem("a SPECIAL card is placed after paying a cost")
        if card.type == "reaction":
            return Problem("a reaction answers something on the stack")
        if self.phase != "main":
            return Problem("cards are played in the main phase")
        if card.faction == "confrerie" and "no_brotherhood" in self.mods(player).flags:
            return Problem("your Traits are incompatible with the Confrérie de l'Acier")
        if card.type == "companion" and any(
            self.card(u).type == "companion" and self.card(u).name == card.name
            for p in self.players
            for u in p.zones["play"] + p.zones["combat"]
        ):
            # « un joueur ne peut poser un Compagnons avec le même nom s'il y a déjà un Compagnons similaire »
            return Problem("that companion is already on the battlefield")
        if not self.can_pay(player, card.cost):
            return Problem("you cannot pay its cost")
        if check_targets and not self.play_targets(player, card):
            return Problem("it has no legal target")
        return None

    def play_targets(self, player: int, card: Card) -> list[dict[str, Any] | None]:
        if card.type == "attack":
            return list(self.attack_targets(player, card))
        if card.type in PERMANENT_TYPES:
            return [None]
        return self.effect_targets(player, card.effects_at("play"))

    def effect_targets(self, player: int, effects: tuple[Any, ...]) -> list[dict[str, Any] | None]:
        for effect in effects:
            need = TARGETED_OPS.get(effect.op)
            if need == "opponent_card":
                wanted = effect.get("card_type")
                found = []
                for victim in self.opponents(player):
                    zones = ["play", "equipment"]
                    for zone in zones:
                        for uid in self.zone(victim, zone):
                            card = self.card(uid)
                            kind = "ally" if card.is_ally else card.type
                            if (
                                wanted in (kind, "any") or wanted == "item" and kind == "building"
                            ) and not self.keyword(uid, "INCIBLABLE"):
                                found.append({"card": uid})
                return found
            if need == "own_ally":
                return [{"card": u} for u in self.allies(player) if not self.keyword(u, "INCIBLABLE")]
            if need == "opponent_hand":
                # « Vous ciblez un adversaire »: any opponent with a card in hand and not in the Abri.
                return [
                    {"player": o} for o in self.opponents(player) if self.zone(o, "hand") and not self.harmful_immune(o)
                ]
            if effect.op in ("damage", "radiation") and effect.get("target", "opponent") == "opponent":
                opponents = self.opponents(player)
                if len(opponents) > 1:
                    return [{"player": o} for o in opponents]
        return [None]

    def reaction_problem(self, player: int, uid: int, top: dict[str, Any]) -> Problem | None:
        card = self.card(uid)
        if self.cards[uid].zone != "hand" or self.cards[uid].owner != player:
            return Problem("that card is not in your hand")
        if card.type != "reaction":
            return Problem("only reactions answer the stack")
        if top["player"] == player:
            return Problem("a reaction answers an opponent's act")
        if self.stack_trigger(top) not in card.reacts_to:
            return Problem("this reaction does not answer that")
        if card.attack is not None and (self.players[top["player"]].stealth or self.harmful_immune(top["player"])):
            return Problem("the attacker cannot be struck")
        if not self.can_pay(player, card.cost):
            return Problem("you cannot pay its cost")
        return None

    def stack_trigger(self, item: dict[str, Any]) -> str:
        if item["kind"] in ("ally_attack", "ability"):
            return item["kind"]
        kind = self.card(item["card"]).type
        return kind if kind in ("action", "attack", "reaction", "quest") else "action"

    def equip_problem(self, player: int, uid: int, *, equip: bool) -> Problem | None:
        """« elles peuvent l'être [déséquipées] en payant leurs couts, comme n'importe quelle autre objet
        équipable » (000, IV.3); two pieces never share a slot (FAQ 15)."""
        inst = self.cards[uid]
        card = self.card(uid)
        if inst.zone != "equipment" or inst.owner != player:
            return Problem("that card is not in your equipment zone")
        if self.phase != "main":
            return Problem("equipment changes in the main phase")
        if equip != inst.engaged:
            return Problem("it is already equipped" if equip else "it is already unequipped")
        if equip and any(
            self.card(u).slot == card.slot and not self.cards[u].engaged
            for u in self.zone(player, "equipment")
            if u != uid
        ):
            return Problem("something is already equipped on the {slot}", slot=card.slot)
        if not self.can_pay(player, card.cost):
            return Problem("you cannot pay its cost")
        return None

    # -- apply ---------------------------------------------------------------------------------------------

    def apply(self, action: Action) -> list[dict[str, Any]]:
        """Apply one action in place and return the events it produced."""
        if not isinstance(action, dict) or "kind" not in action:
            raise _refuse("bad_action", "an action is a dict with a kind")
        kind = action["kind"]
        handler = self.HANDLERS.get(kind)
        if handler is None:
            raise _refuse("bad_action", "unknown action {kind!r}", kind=kind)
        if self.over:
            raise _refuse("game_over", "the game is over")
        player = action.get("player")
        if kind != "time_up":
            if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(self.players):
                raise _refuse("bad_action", "the action names no seat at this table")
            if kind == "concede":
                if self.players[player].eliminated:
                    raise _refuse("not_your_turn", "you are out of the game")
            elif player not in self.current_players():
                raise _refuse("not_your_turn", "it is not your turn to act")
        check, run = getattr(self, handler[0]), getattr(self, handler[1])
        plan = check(action)
        self.events = []
        if action.get("timed_out"):
            self.emit("timed_out", player=player, action=kind)
        run(action, plan)
        if any(p.eliminated for p in self.players) and not self.over:
            self.settle_eliminations()
        self.steps += 1
        return self.events

    # each handler: (check(action) -> plan, raising IllegalAction; run(action, plan) mutating)

    def check_time_up(self, action: Action) -> None:
        return None

    def run_time_up(self, action: Action, plan: Any) -> None:
        """The shell's clock ran out: « le jeu s'arrête lorsque les 2 joueurs ont joué très exactement le
        même nombre de tour » — checked at the end of every turn from now on (Turns.timer_due)."""
        self.timer = True
        self.emit("timer_started")

    def _check_choose_traits(self, action: Action) -> list[str]:
        traits = action.get("traits")
        p = self.players[action["player"]]
        if self.phase != "choose_traits":
            raise _refuse("wrong_phase", "Traits are chosen at setup")
        if not isinstance(traits, list) or len(traits) > 2 or len(set(traits)) != len(traits):
            raise _refuse("bad_choice", "choose up to two different Traits")
        for cid in traits:
            if cid not in p.trait_pool or self.pool[cid].type != "trait":
                raise _refuse("bad_choice", "{card} is not one of your Traits", card=cid)
        return list(traits)

    def _run_choose_traits(self, action: Action, traits: list[str]) -> None:
        self.players[action["player"]].hidden_choice = traits
        self.emit("chose_traits", player=action["player"])
        if all(p.hidden_choice is not None for p in self.players):
            self.reveal_traits()

    def _check_choose_skills(self, action: Action) -> list[str]:
        skills = action.get("skills")
        player = action["player"]
        p = self.players[player]
        if self.phase != "choose_skills":
            raise _refuse("wrong_phase", "Compétences are chosen at setup")
        slots = self.skill_slots(player)
        if not isinstance(skills, list) or not 3 <= len(skills) <= slots or len(set(skills)) != len(skills):
            if slots == 3:
                raise _refuse("bad_choice", "choose 3 different Compétences")
            raise _refuse("bad_choice", "choose 3 to {slots} different Compétences", slots=slots)
        for cid in skills:
            if cid not in p.skill_pool or self.pool[cid].type != "skill":
                raise _refuse("bad_choice", "{card} is not one of your Compétences", card=cid)
        return list(skills)

    def _run_choose_skills(self, action: Action, skills: list[str]) -> None:
        self.players[action["player"]].hidden_choice = skills
        self.emit("chose_skills", player=action["player"])
        if all(p.hidden_choice is not None for p in self.players):
            self.reveal_skills()

    def _check_mulligan(self, action: Action) -> None:
        player = action["player"]
        if self.phase != "mulligan":
            raise _refuse("wrong_phase", "mulligans happen before the first turn")
        if self.players[player].mulligans >= self.initial_hand_size(player):
            raise _refuse("bad_choice", "your starting hand is already empty")

    def _run_mulligan(self, action: Action, plan: None) -> None:
        self.take_mulligan(action["player"])

    def _check_keep(self, action: Action) -> list[int]:
        player = action["player"]
        if self.phase != "mulligan":
            raise _refuse("wrong_phase", "mulligans happen before the first turn")
        bottom = action.get("bottom", [])
        hand = self.zone(player, "hand")
        if (
            not isinstance(bottom, list)
            or len(bottom) != self.players[player].mulligans
            or len(set(bottom)) != len(bottom)
        ):
            raise _refuse("bad_choice", "put exactly {n} card(s) under your library", n=self.players[player].mulligans)
        if any(u not in hand for u in bottom):
            raise _refuse("bad_choice", "those cards are not in your hand")
        return list(bottom)

    def _run_keep(self, action: Action, bottom: list[int]) -> None:
        self.keep_hand(action["player"], bottom)

    def _check_upkeep(self, action: Action) -> dict[str, Any]:
        player = action["player"]
        if self.phase != "upkeep" or self.stack or self.pending:
            raise _refuse("wrong_phase", "upkeep effects are resolved in the upkeep phase")
        entry = next((e for e in self.upkeep_todo if e["id"] == action.get("entry")), None)
        if entry is None:
            raise _refuse("bad_choice", "no such upkeep effect is waiting")
        if entry["kind"] == "accro":
            if "discard" in action:
                if action["discard"] not in self.zone(player, "hand"):
                    raise _refuse("bad_choice", "discard a card from your hand")
            elif "pay" in action:
                problem = self.payment_problem(player, {"any": entry["n"]}, action["pay"])
                if problem:
                    raise _refuse("unpaid_cost", problem)
        elif entry["kind"] == "shelter_exit":
            ability = self.card(entry["card"]).ability
            problem = self.payment_problem(player, dict(ability.cost) if ability else {}, action.get("pay", {}))
            if problem:
                raise _refuse("unpaid_cost", problem)
        elif entry["kind"] == "engage_cost" and "pay" in action:
            problem = self.payment_problem(player, dict(self.card(entry["card"]).cost), action["pay"])
            if problem:
                raise _refuse("unpaid_cost", problem)
        return entry

    def _run_upkeep(self, action: Action, entry: dict[str, Any]) -> None:
        self.close_window()
        self.resolve_upkeep(action["player"], entry, action)
        self.check_end()
        self.after_stack()

    def _check_end_upkeep(self, action: Action) -> None:
        if self.phase != "upkeep" or self.stack or self.pending:
            raise _refuse("wrong_phase", "you are not in your upkeep")
        if any(not e.get("optional") for e in self.upkeep_todo):
            raise _refuse("upkeep_pending", "resolve every ENTRETIEN effect first")

    def _run_end_upkeep(self, action: Action, plan: None) -> None:
        self.close_window()
        self.enter_main()

    def close_window(self) -> None:
        """« Vous ne pouvez pas garder en mémoire une action » (FAQ 8): any other act closes the window."""
        self.window = ""

    def _check_play(self, action: Action) -> tuple[Card, dict[str, Any] | None]:
        player = action["player"]
        uid = action.get("card")
        if self.stack or self.pending or self.phase != "main" or self.ending:
            raise _refuse("wrong_phase", "cards are played in your main phase, with nothing on the stack")
        if self.players[player].sheltered is not None:
            raise _refuse("sheltered", "you are inside the shelter")
        if not isinstance(uid, int) or not 0 <= uid < len(self.cards):
            raise _refuse("unknown_card", "no such card")
        card = self.card(uid)
        problem = self.play_problem(player, uid)
        if problem:
            raise _refuse("unpaid_cost" if "cost" in problem else "not_allowed", problem)
        problem = self.payment_problem(player, card.cost, action.get("pay", {}))
        if problem:
            raise _refuse("unpaid_cost", problem)
        target = action.get("target")
        if target not in self.play_targets(player, card):
            raise _refuse("bad_target", "that is not a legal target")
        aim = action.get("aim")
        if aim is not None and (not card.kw("CIBLAGE") or aim not in AIM_PARTS or not target or "player" not in target):
            raise _refuse("bad_target", "only CIBLAGE aims at a body part of a player")
        return card, target

    def _run_play(self, action: Action, plan: tuple[Card, dict[str, Any] | None]) -> None:
        card, target = plan
        player = action["player"]
        uid = action["card"]
        self.close_window()
        self.pay(player, action.get("pay", {}))
        self.emit("played", player=player, card=card.id, target=self.describe_target(target))
        self.cast_triggers(player)
        if card.type in ALLY_TYPES:
            self.summon(player, uid)
        elif card.type in ("item", "building"):
            self.move(uid, "equipment" if card.slot else "play")
            if card.slot or card.effects_at("disengage"):
                # « en général, ils y arrivent engagés (déséquipés) »; a RadAway waits to be disengaged.
                self.cards[uid].engaged = True
            self.unique_check(uid)
            self.run_effects(card.effects_at("play"), player, uid, {"target": target})
        else:
            zone = "combat" if card.type == "attack" else "stack"
            self.move(uid, zone)
            item = {"kind": "card", "player": player, "card": uid, "target": target, "aim": action.get("aim")}
            self.push(item, unanswerable=card.type == "attack" and self.players[player].stealth)
        self.check_end()
        self.after_stack()

    def describe_target(self, target: dict[str, Any] | None) -> Any:
        if not target:
            return None
        if "card" in target:
            return {"card": self.cards[target["card"]].cid, "owner": self.cards[target["card"]].owner}
        return target

    def summon(self, player: int, uid: int) -> None:
        """« ils se rendent directement dans la ZONE DE JEU, et peuvent attaquer dès leurs arrivés »."""
        card = self.card(uid)
        self.move(uid, "play")
        self.unique_check(uid)
        if card.faction == "confrerie" or card.is_brotherhood_enemy:
            # « Appeler un Allié ou ennemi de la Confrérie de l'Acier défausse immédiatement toutes les cartes
            # Confrérie de l'Acier » — read as: the two never serve the same player.
            for other in list(self.allies(player)):
                other_card = self.card(other)
                clash = (card.faction == "confrerie" and other_card.is_brotherhood_enemy) or (
                    card.is_brotherhood_enemy and other_card.faction == "confrerie"
                )
                if other != uid and clash:
                    self.remove_ally(other, defeated_by=player)
        self.run_effects(card.effects_at("play"), player, uid)

    def unique_check(self, uid: int) -> None:
        """UNIQUE: « Une nouvelle carte identique en nom et en niveau défausserait immédiatement son homonyme »."""
        card = self.card(uid)
        if not card.kw("UNIQUE"):
            return
        owner = self.cards[uid].owner
        for zone in ("play", "equipment", "combat"):
            for other in list(self.zone(owner, zone)):
                if other != uid and self.card(other).copy_key == card.copy_key:
                    if self.card(other).is_ally:
                        self.remove_ally(other, defeated_by=owner)
                    else:
                        self.move(other, "discard")

    def cast_triggers(self, player: int) -> None:
        """« Lorsque vous lancez une carte depuis votre main » skills (FAQ 17), SPECIAL placement included."""
        for uid in self.zone(player, "skill"):
            for effect in self.card(uid).effects_at("cast"):
                if effect.op == "gain_life_on_cast":
                    healed = self.heal_player(player, int(effect.get("n", 1)))
                    if healed:
                        self.emit("healed", player=player, amount=healed, card=self.cards[uid].cid)

    def _check_react(self, action: Action) -> Card:
        player = action["player"]
        uid = action.get("card")
        if not self.stack or self.pending:
            raise _refuse("wrong_phase", "there is nothing to react to")
        if not isinstance(uid, int) or not 0 <= uid < len(self.cards):
            raise _refuse("unknown_card", "no such card")
        problem = self.reaction_problem(player, uid, self.stack[-1])
        if problem:
            raise _refuse("unpaid_cost" if "cost" in problem else "not_allowed", problem)
        card = self.card(uid)
        problem = self.payment_problem(player, card.cost, action.get("pay", {}))
        if problem:
            raise _refuse("unpaid_cost", problem)
        return card

    def _run_react(self, action: Action, card: Card) -> None:
        player = action["player"]
        uid = action["card"]
        top = self.stack[-1]
        self.pay(player, action.get("pay", {}))
        self.emit(
            "reacted", player=player, card=card.id, to=self.cards[top["card"]].cid if "card" in top else "ally_attack"
        )
        self.move(uid, "stack")
        self.push(
            {"kind": "card", "player": player, "card": uid, "responds_to": top["id"], "reacted_player": top["player"]}
        )
        self.check_end()
        self.resume()

    def _check_pass(self, action: Action) -> None:
        if not self.priority or self.pending:
            raise _refuse("wrong_phase", "there is nothing to pass on")

    def _run_pass(self, action: Action, plan: None) -> None:
        self.pass_priority(action["player"])
        self.check_end()
        self.resume()

    def _check_place_special(self, action: Action) -> str:
        player = action["player"]
        uid = action.get("card")
        if self.window != "open" or player != self.active or self.stack or self.pending:
            raise _refuse("no_window", "a SPECIAL card is placed right after paying a cost")
        if not isinstance(uid, int) or uid not in self.zone(player, "hand") or self.card(uid).type != "special":
            raise _refuse("not_allowed", "place a SPECIAL card from your hand")
        attribute = self.card(uid).attribute or "S"
        if self.points(player, attribute) >= 10:
            # « Le nombre maximum de Point d'Attribut SPECIAL est de 10 par catégorie »
            raise _refuse(
                "not_allowed", "{attribute} already has 10 points, the most an Attribute holds", attribute=attribute
            )
        return attribute

    def _run_place_special(self, action: Action, attribute: str) -> None:
        player = action["player"]
        self.window = ""
        self.move(action["card"], "special", attribute=attribute)
        self.emit("special_placed", player=player, card=self.cards[action["card"]].cid, attribute=attribute)
        self.cast_triggers(player)
        if self.ending:
            self.end_turn()

    def _check_activate(self, action: Action) -> Card:
        player = action["player"]
        uid = action.get("card")
        if not isinstance(uid, int) or uid not in self.ability_sources(player):
            raise _refuse("not_allowed", "that card has no ability you can use")
        if self.pending or self.ending:
            raise _refuse("wrong_phase", "not now")
        if self.stack or self.priority:
            moment = "interrupt"
        elif self.phase == "upkeep":
            moment = "upkeep"
        else:
            moment = "main"
        if moment == "main" and self.players[player].sheltered is not None:
            raise _refuse("sheltered", "you are inside the shelter")
        if not self.ability_usable(player, uid, moment):
            raise _refuse("not_allowed", "that ability cannot be used now")
        card = self.card(uid)
        ability = card.ability
        assert ability is not None
        if ability.life_for_missing:
            problem = self.life_payment_problem(player, ability.cost, action.get("pay", {}))
        else:
            problem = self.payment_problem(player, ability.cost, action.get("pay", {}))
        if problem:
            raise _refuse("unpaid_cost", problem)
        legal = self.activation_actions(player, uid)
        wanted = {k: action.get(k) for k in ("target", "aim", "choice")}
        if not any({k: a.get(k) for k in ("target", "aim", "choice")} == wanted for a in legal):
            if not (ability.attack and action.get("aim") in AIM_PARTS and card.kw("CIBLAGE")):
                raise _refuse("bad_target", "that is not a legal target")
            if {"target": action.get("target")} not in [{"target": a.get("target")} for a in legal]:
                raise _refuse("bad_target", "that is not a legal target")
        return card

    def _run_activate(self, action: Action, card: Card) -> None:
        player = action["player"]
        uid = action["card"]
        ability = card.ability
        assert ability is not None
        self.close_window()
        if ability.engage:
            self.cards[uid].engaged = True
            self.invalidate()
        if ability.attack:
            self.cards[uid].used_turn = self.turn
        self.pay(player, action.get("pay", {}))
        self.emit("activated", player=player, card=card.id)
        if ability.life_for_missing:
            missing = self.missing_points(ability.cost, action.get("pay", {}))
            if missing:
                self.emit("affliction", player=player, card=card.id, amount=missing)
                self.lose_life(player, missing)
        item = {
            "kind": "ability",
            "player": player,
            "card": uid,
            "target": action.get("target"),
            "aim": action.get("aim"),
            "choice": action.get("choice"),
        }
        self.push(item, unanswerable=ability.attack and self.players[player].stealth)
        self.check_end()
        self.resume()

    def _check_equip(self, action: Action) -> Card:
        return self._check_equipment(action, equip=True)

    def _check_unequip(self, action: Action) -> Card:
        return self._check_equipment(action, equip=False)

    def _check_equipment(self, action: Action, *, equip: bool) -> Card:
        player = action["player"]
        uid = action.get("card")
        if self.stack or self.pending or self.ending:
            raise _refuse("wrong_phase", "not with something on the stack")
        if not isinstance(uid, int) or not 0 <= uid < len(self.cards):
            raise _refuse("unknown_card", "no such card")
        problem = self.equip_problem(player, uid, equip=equip)
        if problem:
            raise _refuse("unpaid_cost" if "cost" in problem else "not_allowed", problem)
        card = self.card(uid)
        problem = self.payment_problem(player, card.cost, action.get("pay", {}))
        if problem:
            raise _refuse("unpaid_cost", problem)
        return card

    def _run_equip(self, action: Action, card: Card) -> None:
        self.close_window()
        self.pay(action["player"], action.get("pay", {}))
        self.cards[action["card"]].engaged = False
        self.invalidate()
        self.emit("equipped", player=action["player"], card=card.id)
        self.after_stack()

    def _run_unequip(self, action: Action, card: Card) -> None:
        self.close_window()
        self.pay(action["player"], action.get("pay", {}))
        self.cards[action["card"]].engaged = True
        self.invalidate()
        self.emit("unequipped", player=action["player"], card=card.id)
        self.after_stack()

    def _check_ally_attack(self, action: Action) -> list[int]:
        player = action["player"]
        allies = action.get("allies")
        if self.stack or self.pending or self.phase != "main" or self.ending:
            raise _refuse("wrong_phase", "allies attack in your main phase")
        if self.players[player].sheltered is not None:
            raise _refuse("sheltered", "you are inside the shelter")
        if not isinstance(allies, list) or not allies or len(set(allies)) != len(allies):
            raise _refuse("bad_choice", "name the attacking allies")
        for uid in allies:
            if not isinstance(uid, int) or uid not in self.zone(player, "play") or not self.can_ally_attack(uid):
                raise _refuse("not_allowed", "that ally cannot attack")
        horde = [u for u in self.zone(player, "play") if self.keyword(u, "HORDE") and self.can_ally_attack(u)]
        if any(self.keyword(u, "HORDE") for u in allies) and not set(horde) <= set(allies):
            raise _refuse("not_allowed", "HORDE allies attack all together")
        if action.get("target") not in self.ally_targets(player, allies):
            raise _refuse("bad_target", "that is not a legal target")
        return list(allies)

    def _run_ally_attack(self, action: Action, allies: list[int]) -> None:
        """« Lorsqu'une telle carte Attaque, elle s'engage, puis s'avance légèrement vers l'adversaire »."""
        player = action["player"]
        self.close_window()
        for uid in allies:
            self.cards[uid].engaged = True
            self.move(uid, "combat")
        self.emit(
            "ally_attack",
            player=player,
            allies=[self.cards[u].cid for u in allies],
            target=self.describe_target(action["target"]),
        )
        # « Poser ce type de carte, ou attaquer avec sont des actions donnant l'autorisation de poser une Aptitude »
        self.cost_paid(player)
        self.push({"kind": "ally_attack", "player": player, "allies": allies, "target": action["target"]})
        self.check_end()
        self.after_stack()

    def _check_block(self, action: Action) -> tuple[list[int], list[int]]:
        pending = self.pending
        if pending is None or pending["kind"] not in ("block", "protect"):
            raise _refuse("wrong_phase", "nobody is attacking you")
        blockers = action.get("blockers", [])
        split = action.get("split", [])
        if not isinstance(blockers, list) or not isinstance(split, list) or len(set(blockers)) != len(blockers):
            raise _refuse("bad_choice", "name your defenders")
        if any(u not in pending["options"] for u in blockers):
            raise _refuse("bad_choice", "that ally cannot defend")
        if pending["kind"] == "protect":
            if len(blockers) > 1:
                raise _refuse("bad_choice", "one CHARGE DE PROTECTION ally takes the blow")
            return list(blockers), []
        total = self.incoming_power(pending)
        if blockers and (
            len(split) != len(blockers) or any(not isinstance(s, int) or s < 0 for s in split) or sum(split) != total
        ):
            raise _refuse("bad_choice", "split the {total} damage among your defenders", total=total)
        return list(blockers), list(split) if blockers else []

    def _run_block(self, action: Action, plan: tuple[list[int], list[int]]) -> None:
        blockers, split = plan
        self.defend(action["player"], blockers, split)

    def _check_search(self, action: Action) -> str | None:
        pending = self.pending
        if pending is None or pending["kind"] != "search":
            raise _refuse("wrong_phase", "you are not searching")
        cid = action.get("card")
        if cid is not None and cid not in self.search_matches(
            action["player"], pending["card_type"], pending["attribute"]
        ):
            raise _refuse("bad_choice", "no such card can be found")
        return cid

    def _run_search(self, action: Action, cid: str | None) -> None:
        self.finish_search(action["player"], cid)
        self.resume()

    def _check_discover(self, action: Action) -> list[list[Any]]:
        pending = self.pending
        if pending is None or pending["kind"] != "discover":
            raise _refuse("wrong_phase", "you are not discovering")
        placements = action.get("placements")
        if not isinstance(placements, list) or sorted(p[0] for p in placements if isinstance(p, list) and p) != sorted(
            pending["cards"]
        ):
            raise _refuse("bad_choice", "place every discovered card once")
        if any(len(p) != 2 or p[1] not in ("top", "bottom", "discard") for p in placements):
            raise _refuse("bad_choice", "each card goes on top, under the library or to the discard")
        return [list(p) for p in placements]

    def _run_discover(self, action: Action, placements: list[list[Any]]) -> None:
        self.finish_discover(action["player"], placements)
        self.resume()

    def _check_end_turn(self, action: Action) -> None:
        if self.stack or self.pending or self.phase != "main" and not self.ending:
            raise _refuse(
                "wrong_phase",
                "finish what is on the stack first" if self.stack else "end your turn from the main phase",
            )
        if action["player"] != self.active:
            raise _refuse("not_your_turn", "it is not your turn")

    def _run_end_turn(self, action: Action, plan: None) -> None:
        self.end_turn()

    def _check_concede(self, action: Action) -> None:
        return None

    def _run_concede(self, action: Action, plan: None) -> None:
        """« Un joueur peut décider d'abandonner la partie … Ces derniers peuvent continuer à jouer sans lui »."""
        player = action["player"]
        p = self.players[player]
        p.eliminated = True
        p.lost_reason = "conceded"
        self.emit("conceded", player=player)
        self.check_end()
        if self.over:
            return
        if self.phase in ("choose_traits", "choose_skills"):
            # The others' hidden choices are revealed without theirs.
            p.hidden_choice = p.hidden_choice if p.hidden_choice is not None else []
            if all(q.hidden_choice is not None for q in self.players):
                (self.reveal_traits if self.phase == "choose_traits" else self.reveal_skills)()
        elif self.phase == "mulligan":
            p.mulligan_done = True
            if self.mulligan_player() is None:
                self.start_turn(self.first_player, first=True)
        # Turn, stack and pending decisions move on in settle_eliminations (called by apply).

    HANDLERS: dict[str, tuple[str, str]] = {
        name: (f"_check_{name}", f"_run_{name}")
        for name in (
            "choose_traits",
            "choose_skills",
            "mulligan",
            "keep",
            "upkeep",
            "end_upkeep",
            "play",
            "react",
            "pass",
            "place_special",
            "activate",
            "equip",
            "unequip",
            "ally_attack",
            "block",
            "search",
            "discover",
            "end_turn",
            "concede",
        )
    } | {"time_up": ("check_time_up", "run_time_up")}


def new_game(config: dict[str, Any], seed: int) -> State:
    """« Phase 0 : Mise en Place »: libraries shuffled, Traits and Compétences still to be chosen.

    ``config``: ``profile`` (wiki|booklet), ``copy_mode`` (singleton|duo|triplette|quad), ``players``
    (each ``{"name", "deck": [60 card ids], "traits"?: [...], "skills"?: [...]}``), optional
    ``max_turns`` (a turn limit settled like the timer), ``mulligan_agreed`` (booklet) and
    ``extra_cards`` (card tables in the TOML schema).
    """
    config = dict(config)
    config.setdefault("profile", "wiki")
    config.setdefault("copy_mode", "quad")
    profile = PROFILES.get(config["profile"])
    if profile is None:
        raise IllegalAction("bad_config", "unknown rule profile {profile!r}", profile=config["profile"])
    if config["copy_mode"] not in COPY_LIMITS:
        raise IllegalAction("bad_config", "unknown copy mode {mode!r}", mode=config["copy_mode"])
    seats = config.get("players") or []
    if not 2 <= len(seats) <= profile.max_players:
        raise IllegalAction(
            "bad_config", "the {profile} rules seat 2 to {n} players", profile=profile.name, n=profile.max_players
        )
    pool = pool_for(config)
    state = State.__new__(State)
    state._init_fields(config, pool)
    state.events = []
    state.rng = random.Random(seed)
    traits = sorted(c.id for c in pool.of_type("trait"))
    skills = sorted(c.id for c in pool.of_type("skill"))
    for index, seat in enumerate(seats):
        report = validate_library(seat["deck"], pool, copy_mode=config["copy_mode"], profile=profile.name)
        if not report.ok:
            raise IllegalAction("bad_deck", "player {seat}: {errors}", seat=index + 1, errors="; ".join(report.errors))
        player = Player(
            index=index,
            name=str(seat.get("name", f"Player {index + 1}")),
            deck=list(seat["deck"]),
            trait_pool=list(seat.get("traits") or traits),
            skill_pool=list(seat.get("skills") or skills),
        )
        state.players.append(player)
        for cid in seat["deck"]:
            state.new_instance(cid, index, "library")
        state.shuffle_library(index)
    for p in state.players:
        p.max_life = p.life = profile.base_life
    return state


__all__ = ["ATTRIBUTES", "Action", "State", "new_game"]
