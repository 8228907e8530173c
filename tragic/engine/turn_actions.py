"""The actions that move a turn on: upkeep entries, passing priority, placing a SPECIAL card, ending the
turn and conceding (each a ``_check_`` / ``_run_`` pair, see setup_actions).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from .errors import refuse
from .legal import Action
from .setup_actions import SetupActions


class TurnActions(SetupActions):
    # Casting a card's triggers belongs to card_actions.CardActions, built on this class. Declared here as an
    # abstract method, not in a TYPE_CHECKING block: the compiled engine (native.py) binds calls to it here.
    @abstractmethod
    def cast_triggers(self, player: int) -> None:
        """Cast the triggers waiting for ``player`` (``card_actions.CardActions``)."""

    def _check_upkeep(self, action: Action) -> dict[str, Any]:
        player = action["player"]
        if self.phase != "upkeep" or self.stack or self.pending:
            raise refuse("wrong_phase", "upkeep effects are resolved in the upkeep phase")
        entry = next((e for e in self.upkeep_todo if e["id"] == action.get("entry")), None)
        if entry is None:
            raise refuse("bad_choice", "no such upkeep effect is waiting")
        if entry["kind"] == "accro":
            if "discard" in action:
                if action["discard"] not in self.zone(player, "hand"):
                    raise refuse("bad_choice", "discard a card from your hand")
            elif "pay" in action:
                problem = self.payment_problem(player, {"any": entry["n"]}, action["pay"])
                if problem:
                    raise refuse("unpaid_cost", problem)
        elif entry["kind"] == "shelter_exit":
            ability = self.card(entry["card"]).ability
            problem = self.payment_problem(player, dict(ability.cost) if ability else {}, action.get("pay", {}))
            if problem:
                raise refuse("unpaid_cost", problem)
        elif entry["kind"] == "engage_cost" and "pay" in action:
            problem = self.payment_problem(player, dict(self.card(entry["card"]).cost), action["pay"])
            if problem:
                raise refuse("unpaid_cost", problem)
        return entry

    def _run_upkeep(self, action: Action, entry: dict[str, Any]) -> None:
        self.close_window()
        self.resolve_upkeep(action["player"], entry, action)
        self.check_end()
        self.after_stack()

    def _check_end_upkeep(self, action: Action) -> None:
        if self.phase != "upkeep" or self.stack or self.pending:
            raise refuse("wrong_phase", "you are not in your upkeep")
        if any(not e.get("optional") for e in self.upkeep_todo):
            raise refuse("upkeep_pending", "resolve every ENTRETIEN effect first")

    def _run_end_upkeep(self, action: Action, plan: None) -> None:
        self.close_window()
        self.enter_main()

    def close_window(self, player: int | None = None) -> None:
        """« Vous ne pouvez pas garder en mémoire une action » (FAQ 8): any other act of the active player
        closes the window; an opponent's interruption is not the active player's act."""
        if player is None or player == self.active:
            self.window = ""

    def _check_pass(self, action: Action) -> None:
        if not self.priority or self.pending:
            raise refuse("wrong_phase", "there is nothing to pass on")

    def _run_pass(self, action: Action, plan: None) -> None:
        self.pass_priority(action["player"])
        self.check_end()
        self.resume()

    def _check_place_special(self, action: Action) -> str:
        player = action["player"]
        uid = action.get("card")
        if self.window != "open" or player != self.active or self.stack or self.pending:
            raise refuse("no_window", "a SPECIAL card is placed right after paying a cost")
        if not isinstance(uid, int) or uid not in self.zone(player, "hand") or self.card(uid).type != "special":
            raise refuse("not_allowed", "place a SPECIAL card from your hand")
        attribute = self.card(uid).attribute or "S"
        if self.points(player, attribute) >= 10:
            # « Le nombre maximum de Point d'Attribut SPECIAL est de 10 par catégorie »
            raise refuse(
                "not_allowed", "{attribute} already has 10 points, the most an Attribute holds", attribute=attribute
            )
        return attribute

    def _run_place_special(self, action: Action, attribute: str) -> None:
        player = action["player"]
        self.window = ""
        self.move(action["card"], "special", attribute=attribute)
        self.events.append(
            {"t": "special_placed", "player": player, "card": self.cards[action["card"]].cid, "attribute": attribute}
        )
        self.cast_triggers(player)
        if self.ending:
            self.end_turn()
        else:
            self.open_interrupts(player)

    def _check_end_turn(self, action: Action) -> None:
        if self.stack or self.pending or self.phase != "main" and not self.ending:
            raise refuse(
                "wrong_phase",
                "finish what is on the stack first" if self.stack else "end your turn from the main phase",
            )
        if action["player"] != self.active:
            raise refuse("not_your_turn", "it is not your turn")

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
            p.mulligan_done, p.mulligan_declared = True, False
            self.settle_mulligans()
        # Turn, stack and pending decisions move on in settle_eliminations (called by apply).

    def _check_set_stop(self, action: Action) -> bool:
        stop = action.get("stop")
        if not isinstance(stop, bool):
            raise refuse("bad_choice", "say whether to stop when you can respond")
        return stop

    def _run_set_stop(self, action: Action, stop: bool) -> None:
        """A player's own setting, changed at any moment (no turn needed): with it off, the priority loop
        still stops them about an act aimed at them or their cards, and for blocks. It takes effect at once:
        the player holding priority now who would no longer be asked passes."""
        player = action["player"]
        self.players[player].stop = stop
        self.emit("stop_set", player=player, stop=stop)
        if self.priority and self.priority[0] == player and self.pending is None and not self.stops_for(player):
            self.pass_priority(player)
            self.check_end()
            self.resume()
