"""Small shared helpers of the rule mixins: events, payments and the end of the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import ANY, ATTRIBUTES
from .errors import Problem
from .state import StateData, payments_memo


class Base(StateData):
    events: list[dict[str, Any]]

    def emit(self, kind: str, **data: Any) -> None:
        """Record an event ``{"t": kind, **data}``. The most frequent ones (a payment, a draw, a card played, an
        attack…) are appended as dict literals where they happen, with the same keys in the same order: a
        random playout makes about three events a step, and this call and its keyword dict cost as much as the
        event itself."""
        self.events.append({"t": kind, **data})

    # -- costs ---------------------------------------------------------------------------------------

    def can_pay(self, player: int, cost: Mapping[str, int]) -> bool:
        available = self._available.get(player) or self.available_points(player)
        total = 0
        for attribute, need in cost.items():
            if attribute != ANY and available[attribute] < need:
                return False
            total += need
        return sum(available.values()) >= total

    def suggest_payment(self, player: int, cost: Mapping[str, int]) -> dict[str, int]:
        """The specific points first, then generic points from the attributes with the most left.

        Remembered per cost until the player's disengaged points change (``available_points`` resets the
        memo); each caller gets its own copy, since actions carry it."""
        return dict(self.known_payment(player, tuple(cost.items())))

    def known_payment(self, player: int, key: tuple[tuple[str, int], ...]) -> dict[str, int]:
        """:meth:`suggest_payment` for a cost given as its items (a card's ``cost_key``), not copied: the
        caller copies it before an action carries it."""
        available = self._available.get(player) or self.available_points(player)
        # The memo of these disengaged points (available_points chose it): shared by every state and turn
        # that meets the same points, since the suggestion depends on nothing else.
        memo = self._payments[player]
        known = memo.get(key)
        if known is None:
            cost = dict(key)
            generic = cost.get(ANY, 0)
            if not generic:  # the named points alone, whatever is left
                known = memo[key] = {a: cost[a] for a in ATTRIBUTES if cost.get(a)}
                return known
            pay = [cost.get(a, 0) for a in ATTRIBUTES]
            left = [available[a] - n for a, n in zip(ATTRIBUTES, pay, strict=True)]
            for _ in range(generic):
                best = left.index(max(left))  # the first attribute with the most left, in ATTRIBUTES order
                pay[best] += 1
                left[best] -= 1
            known = memo[key] = {a: n for a, n in zip(ATTRIBUTES, pay, strict=True) if n}
        return known

    def affordable_part(self, player: int, cost: Mapping[str, int]) -> dict[str, int]:
        """For a cost that may be paid in life: the named points the player can still pay."""
        available = self.available_points(player)
        return {a: min(n, available[a]) for a, n in cost.items() if a in ATTRIBUTES and min(n, available[a])}

    def life_payment_problem(self, player: int, cost: Mapping[str, int], pay: Any) -> Problem | None:
        """Named points of such a cost may be left unpaid (one life each); generic points may not."""
        if not isinstance(pay, dict):
            return Problem("the payment must name attributes and points")
        for attribute, n in pay.items():
            if attribute not in ATTRIBUTES:
                return Problem("{attribute} is not a SPECIAL attribute", attribute=attribute)
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                return Problem("points paid are whole numbers")
            if n > self.available(player, attribute):
                return Problem(
                    "only {n} {attribute} point(s) are disengaged",
                    n=self.available(player, attribute),
                    attribute=attribute,
                )
        named_paid = sum(min(pay.get(a, 0), n) for a, n in cost.items() if a in ATTRIBUTES)
        if sum(pay.values()) - named_paid != cost.get(ANY, 0):
            return Problem("the generic part of the cost is {n} point(s)", n=cost.get(ANY, 0))
        return None

    def missing_points(self, cost: Mapping[str, int], pay: Mapping[str, int]) -> int:
        return sum(max(0, n - pay.get(a, 0)) for a, n in cost.items() if a in ATTRIBUTES)

    def payment_problem(self, player: int, cost: Mapping[str, int], pay: Any) -> Problem | None:
        """Why ``pay`` does not settle ``cost``, or None. « 1 S et 2 SPECIAL revient à tourner une carte
        Force … puis à choisir parmi l'ensemble des autres ressources SPECIAL disponible » (000, III.6.a)."""
        if not isinstance(pay, dict):
            return Problem("the payment must name attributes and points")
        for attribute, n in pay.items():
            if attribute not in ATTRIBUTES:
                return Problem("{attribute} is not a SPECIAL attribute", attribute=attribute)
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                return Problem("points paid are whole numbers")
            if n > self.available(player, attribute):
                return Problem(
                    "only {n} {attribute} point(s) are disengaged",
                    n=self.available(player, attribute),
                    attribute=attribute,
                )
        for attribute in ATTRIBUTES:
            if pay.get(attribute, 0) < cost.get(attribute, 0):
                return Problem("the cost needs {n} {attribute} point(s)", n=cost[attribute], attribute=attribute)
        total_cost = sum(cost.values())
        if sum(pay.values()) != total_cost:
            return Problem("the cost is {n} point(s), {offered} offered", n=total_cost, offered=sum(pay.values()))
        return None

    def pay(self, player: int, pay: Mapping[str, int]) -> None:
        """Engage the chosen resources: irrevocable, and it opens the right to place a SPECIAL card."""
        paid: dict[str, int] = {}
        engaged = self.players[player].engaged_points
        available = self._available.get(player)
        for attribute, n in pay.items():
            if not n:
                continue
            paid[attribute] = n
            engaged[attribute] += n
            if available is not None:
                # The disengaged points are max(0, points - engaged): lowered by what is paid, as
                # available_points would find them again, without reading the points and engagements anew.
                left = available[attribute] - n
                available[attribute] = left if left > 0 else 0
        if not paid:
            return
        if available is not None:
            self._payments[player] = payments_memo(available)
        # A literal rather than emit(): about three events a step, each one a call and a dict fewer.
        self.events.append({"t": "paid", "player": player, "points": paid})
        # cost_paid inlined (a cost is paid about every other step of a playout): keep the two alike.
        if player == self.active and self.phase in ("main", "upkeep"):
            if not self.profile.special_after_stack:
                self.window = "open"
            elif self.phase == "main":
                self.window = "pending"

    def cost_paid(self, player: int) -> None:
        """« après payé un cout, n'importe lequel … le joueur peut lancer une carte d'Aptitude SPECIAL ».

        Only on the player's own turn (« L'utilisation d'une carte Réaction ayant lieu pendant le tour
        adverse ne permet pas de poser des ressources »). Wiki: main phase only, once the stack resolved.
        ``pay`` makes the same test inline.
        """
        if player != self.active or self.phase not in ("main", "upkeep"):
            return
        if self.profile.special_after_stack:
            if self.phase == "main":
                self.window = "pending"
        else:
            self.window = "open"

    # -- life ------------------------------------------------------------------------------------------

    def heal_player(self, player: int, amount: int) -> int:
        """« On ne peut jamais dépasser le maximum de Point de Vie d'un joueur »."""
        p = self.players[player]
        before = p.life
        p.life = min(p.max_life, p.life + max(0, amount))
        return p.life - before

    def lose_life(self, player: int, amount: int, *, radiation: bool = False, source: int | None = None) -> None:
        """Radiation damage « font monter d'un niveau la Radiation sur la Fiche de Suivi de l'Irradiation »."""
        p = self.players[player]
        if amount <= 0:
            return
        p.life -= amount
        if radiation:
            p.radiation = min(10, p.radiation + 1)
            # Our track card: each level lowers the maximum life by one (docs/rules-decisions.md).
            p.max_life = max(1, p.max_life - 1)
            p.life = min(p.life, p.max_life)
        self.events.append(
            {
                "t": "life_lost",
                "player": player,
                "amount": amount,
                "life": p.life,
                "radiation": p.radiation if radiation else None,
            }
        )

    def check_end(self) -> None:
        """« lorsqu'un joueur se retrouve avec zéro Point de Vie ou moins … la partie s'arrête, en cas
        d'égalité, c'est un match nul » ; with three or four players the fallen leave and the others go on."""
        players = self.players
        if len(players) == 2:
            # The usual table, asked several times a step: both standing, nobody fell, nothing to settle.
            first, second = players
            if first.life > 0 and second.life > 0 and not first.eliminated and not second.eliminated:
                return
        standing = 0
        for p in self.players:
            if not p.eliminated:
                if p.life <= 0:
                    break
                standing += 1
        else:
            # Nobody fell (the usual case, asked several times a step): nothing to settle while two stand.
            if standing > 1 or self.over:
                return
        fallen = [p for p in self.players if not p.eliminated and p.life <= 0]
        for p in fallen:
            p.eliminated = True
            p.lost_reason = p.lost_reason or "life"
            self.emit("eliminated", player=p.index, reason=p.lost_reason)
        alive = self.alive()
        if len(alive) <= 1 and not self.over:
            self.finish(alive[0] if alive else None)

    def finish(self, winner: int | None) -> None:
        self.over = True
        self.phase = "over"
        self.winner_index = winner
        self.pending = None
        self.priority = []
        self.emit("game_over", winner=winner)
