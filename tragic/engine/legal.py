"""Who may act and what they may do: ``current_players`` and ``legal_actions``, built on the checks they
share with ``apply`` (``checks.Checks``: a card's play, reaction, equipment and target problems) and on the main
phase's choices (``legal_main.MainChoices``).

Every action is a plain JSON dict with a ``kind`` and the acting ``player`` (docs/tragic.md lists them).
"""

from __future__ import annotations

import itertools
from typing import Any

from .checks import NO_TARGET, Action
from .legal_main import Entry, MainChoices

__all__ = ["NO_TARGET", "Action", "Choices", "Entry"]

# The pool memo's entry for can_respond: the ids of the reactions and of the capacities usable at any time.
RESPONSE_IDS = "response ids"


class Choices(MainChoices):
    # -- who acts ------------------------------------------------------------------------------------

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

    # -- legal actions ---------------------------------------------------------------------------------

    def legal_actions(self, player: int) -> list[Action]:
        entries = self.legal_entries(player)
        if self.phase in ("choose_traits", "choose_skills", "mulligan") or self.pending is not None or self.priority:
            return entries  # type: ignore[return-value]  # dicts only: entries are the main phase's
        return self.actions_of(player, entries)

    def legal_entries(self, player: int) -> list[Entry]:
        """:meth:`legal_actions` before the main phase's action dicts are built (``legal_main.Entry``)."""
        phase = self.phase
        if self.over:
            return []
        if phase in ("choose_traits", "choose_skills", "mulligan"):
            if player not in self.current_players():
                return []
            if phase == "choose_traits":
                return self.trait_choices(player)  # type: ignore[return-value]  # list[Action] is a list[Entry]: lists are invariant
            if phase == "choose_skills":
                return self.skill_choices(player)  # type: ignore[return-value]  # as above
            return self.mulligan_choices(player)  # type: ignore[return-value]  # as above
        # current_players() without its list: the one player holding the decision.
        pending = self.pending
        if pending is not None:
            if player != pending["player"]:
                return []
            return self.pending_choices(player) + [{"kind": "concede", "player": player}]  # type: ignore[return-value]  # as above
        if self.priority:
            if player != self.priority[0]:
                return []
            return self.priority_choices(player) + [{"kind": "concede", "player": player}]  # type: ignore[return-value]  # as above
        if player != self.active:
            return []
        # special_placeable's condition (player is the active player here), the cards themselves checked once:
        # by main_entries in its pass over the hand, else by special_entries.
        placing = self.window == "open"
        entries: list[Entry]
        if self.ending:
            entries = self.special_entries(player) if placing else []
            entries.append({"kind": "end_turn", "player": player})
            return entries
        if phase == "upkeep":
            entries = self.special_entries(player) if placing else []
            entries.extend(self.upkeep_choices(player))
        elif self.players[player].sheltered is None:
            entries = self.main_entries(player, placing)  # a new list, the SPECIAL placements first
        else:
            entries = self.special_entries(player) if placing else []
            entries.append({"kind": "end_turn", "player": player})
        entries.append({"kind": "concede", "player": player})
        return entries

    def pending_choices(self, player: int) -> list[Action]:
        pending = self.pending
        assert pending is not None
        kind = pending["kind"]
        if kind in ("block", "protect"):
            actions: list[Action] = [{"kind": "block", "player": player, "blockers": [], "split": []}]
            total = self.incoming_power(pending)
            for uid in pending["options"]:
                actions.append({"kind": "block", "player": player, "blockers": [uid], "split": [total]})
            if kind == "block":
                # « plusieurs cartes peuvent défendre, tout comme dans MTG »: any group of two or more, the
                # blow split evenly (the board lets the defender change the split). Past six possible
                # blockers only groups of up to four are listed, to keep the list readable.
                options = pending["options"]
                largest = len(options) if len(options) <= 6 else 4
                for size in range(2, largest + 1):
                    for group in itertools.combinations(options, size):
                        share = [total // size] * size
                        share[0] += total - sum(share)
                        actions.append({"kind": "block", "player": player, "blockers": list(group), "split": share})
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

    def stops_for(self, player: int) -> bool:
        """Automatic passing, as MTG clients (XMage, Forge, Arena) do: a player whose only answer would be to
        pass is not asked; one who turned off « stop me when I can respond » (``set_stop``) is asked only
        about an act aimed at them or at one of their cards."""
        if not self.can_respond(player):
            return False
        if self.players[player].stop:
            return True
        return bool(self.stack) and self.aimed_at(self.stack[-1], player)

    def can_respond(self, player: int) -> bool:
        """Whether :meth:`priority_choices` offers more than passing, without building the actions (asked for
        every other player after every act)."""
        cards, table = self.cards, self._card_table
        # the ids of the pool's reactions and of its cards with a capacity usable « à tout moment »
        reactions, anytime = self.pool.memo.get(RESPONSE_IDS) or self._response_ids()
        top = self.stack[-1] if self.stack else None
        if top is not None:
            trigger = None
            for uid in self.players[player].zones["hand"]:
                cid = cards[uid].cid
                if cid in reactions:
                    # reaction_problem's test of what it answers, first and without building the refusal
                    if trigger is None:
                        trigger = self.stack_trigger(top)
                    if trigger in table[cid].reacts_to and self.reaction_problem(player, uid, top) is None:
                        return True
        for uid in self._sources.get(player) or self.ability_sources(player):
            # ability_usable refuses any other timing for an interruption: asked first, it spares the rest.
            if (
                cards[uid].cid in anytime
                and self.ability_usable(player, uid, "interrupt")
                and self.activation_actions(player, uid)
            ):
                return True
        return False

    def _response_ids(self) -> tuple[frozenset[str], frozenset[str]]:
        """The ids of the pool's reactions and of its cards whose capacity's timing is « any », in its memo."""
        table = self._card_table
        ids = (
            frozenset(cid for cid, card in table.items() if card.type == "reaction"),
            frozenset(cid for cid, card in table.items() if card.ability is not None and card.ability.timing == "any"),
        )
        self.pool.memo[RESPONSE_IDS] = ids
        return ids

    def priority_choices(self, player: int) -> list[Action]:
        """Pass, react to the top of the stack, or interrupt with a capacity usable « à tout moment »; with
        nothing on the stack (an interruption after an act that used none), no reaction has anything to
        answer."""
        actions: list[Action] = [{"kind": "pass", "player": player}]
        seen: set[str] = set()
        for uid in self.zone(player, "hand") if self.stack else ():
            top = self.stack[-1]
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
