"""The allies' combat actions: attacking with a group of allies and choosing the blockers
(each a ``_check_`` / ``_run_`` pair, see setup_actions).
"""

from __future__ import annotations

from .card_actions import CardActions
from .errors import refuse
from .legal import Action


class CombatActions(CardActions):
    def _check_ally_attack(self, action: Action) -> list[int]:
        player = action["player"]
        allies = action.get("allies")
        if self.stack or self.pending or self.phase != "main" or self.ending:
            raise refuse("wrong_phase", "allies attack in your main phase")
        if self.players[player].sheltered is not None:
            raise refuse("sheltered", "you are inside the shelter")
        if not isinstance(allies, list) or not allies or len(set(allies)) != len(allies):
            raise refuse("bad_choice", "name the attacking allies")
        for uid in allies:
            if not isinstance(uid, int) or uid not in self.zone(player, "play") or not self.can_ally_attack(uid):
                raise refuse("not_allowed", "that ally cannot attack")
        horde = [u for u in self.zone(player, "play") if self.keyword(u, "HORDE") and self.can_ally_attack(u)]
        if any(self.keyword(u, "HORDE") for u in allies) and not set(horde) <= set(allies):
            raise refuse("not_allowed", "HORDE allies attack all together")
        if action.get("target") not in self.ally_targets(player, allies):
            raise refuse("bad_target", "that is not a legal target")
        return list(allies)

    def _run_ally_attack(self, action: Action, allies: list[int]) -> None:
        """« Lorsqu'une telle carte Attaque, elle s'engage, puis s'avance légèrement vers l'adversaire »."""
        player = action["player"]
        self.close_window()
        for uid in allies:
            self.cards[uid].engaged = True
            self.move(uid, "combat")
        self.events.append(
            {
                "t": "ally_attack",
                "player": player,
                "allies": [self.cards[u].cid for u in allies],
                "target": self.describe_target(action["target"]),
            }
        )
        # « Poser ce type de carte, ou attaquer avec sont des actions donnant l'autorisation de poser une Aptitude »
        self.cost_paid(player)
        self.push({"kind": "ally_attack", "player": player, "allies": allies, "target": action["target"]})
        self.check_end()
        self.after_stack()

    def _check_block(self, action: Action) -> tuple[list[int], list[int]]:
        pending = self.pending
        if pending is None or pending["kind"] not in ("block", "protect"):
            raise refuse("wrong_phase", "nobody is attacking you")
        blockers = action.get("blockers", [])
        split = action.get("split", [])
        if not isinstance(blockers, list) or not isinstance(split, list) or len(set(blockers)) != len(blockers):
            raise refuse("bad_choice", "name your defenders")
        if any(u not in pending["options"] for u in blockers):
            raise refuse("bad_choice", "that ally cannot defend")
        if pending["kind"] == "protect":
            if len(blockers) > 1:
                raise refuse("bad_choice", "one CHARGE DE PROTECTION ally takes the blow")
            return list(blockers), []
        total = self.incoming_power(pending)
        if blockers and (
            len(split) != len(blockers) or any(not isinstance(s, int) or s < 0 for s in split) or sum(split) != total
        ):
            raise refuse("bad_choice", "split the {total} damage among your defenders", total=total)
        return list(blockers), list(split) if blockers else []

    def _run_block(self, action: Action, plan: tuple[list[int], list[int]]) -> None:
        blockers, split = plan
        self.defend(action["player"], blockers, split)
