"""Phase 0 (« Mise en Place »): the actions that choose Traits and Compétences and take or refuse mulligans.

Each action has a ``_check_<kind>(action) -> plan`` raising :class:`IllegalAction` and changing nothing,
and a ``_run_<kind>(action, plan)`` that changes the state (dispatched by ``State.apply``).
"""

from __future__ import annotations

from .errors import refuse
from .legal import Action, Choices


class SetupActions(Choices):
    def _check_choose_traits(self, action: Action) -> list[str]:
        traits = action.get("traits")
        p = self.players[action["player"]]
        if self.phase != "choose_traits":
            raise refuse("wrong_phase", "Traits are chosen at setup")
        if not isinstance(traits, list) or len(traits) > 2 or len(set(traits)) != len(traits):
            raise refuse("bad_choice", "choose up to two different Traits")
        for cid in traits:
            if cid not in p.trait_pool or self.pool[cid].type != "trait":
                raise refuse("bad_choice", "{card} is not one of your Traits", card=cid)
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
            raise refuse("wrong_phase", "Compétences are chosen at setup")
        slots = self.skill_slots(player)
        if not isinstance(skills, list) or not 3 <= len(skills) <= slots or len(set(skills)) != len(skills):
            if slots == 3:
                raise refuse("bad_choice", "choose 3 different Compétences")
            raise refuse("bad_choice", "choose 3 to {slots} different Compétences", slots=slots)
        for cid in skills:
            if cid not in p.skill_pool or self.pool[cid].type != "skill":
                raise refuse("bad_choice", "{card} is not one of your Compétences", card=cid)
        return list(skills)

    def _run_choose_skills(self, action: Action, skills: list[str]) -> None:
        self.players[action["player"]].hidden_choice = skills
        self.emit("chose_skills", player=action["player"])
        if all(p.hidden_choice is not None for p in self.players):
            self.reveal_skills()

    def _check_mulligan(self, action: Action) -> None:
        player = action["player"]
        if self.phase != "mulligan":
            raise refuse("wrong_phase", "mulligans happen before the first turn")
        if self.players[player].mulligans >= self.initial_hand_size(player):
            raise refuse("bad_choice", "your starting hand is already empty")

    def _run_mulligan(self, action: Action, plan: None) -> None:
        self.declare_mulligan(action["player"])

    def _check_keep(self, action: Action) -> list[int]:
        player = action["player"]
        if self.phase != "mulligan":
            raise refuse("wrong_phase", "mulligans happen before the first turn")
        bottom = action.get("bottom", [])
        hand = self.zone(player, "hand")
        if (
            not isinstance(bottom, list)
            or len(bottom) != self.players[player].mulligans
            or len(set(bottom)) != len(bottom)
        ):
            raise refuse("bad_choice", "put exactly {n} card(s) under your library", n=self.players[player].mulligans)
        if any(u not in hand for u in bottom):
            raise refuse("bad_choice", "those cards are not in your hand")
        return list(bottom)

    def _run_keep(self, action: Action, bottom: list[int]) -> None:
        self.keep_hand(action["player"], bottom)
