"""The engine API (design.md, rule 7): ``new_game``, ``current_players``, ``legal_actions``, ``apply``,
``observation``, ``is_over``, ``winner``, ``to_json`` / ``from_json``.

The state's methods live by concept in a chain of classes: ``state.StateData`` (fields, zones) → ``base``
→ ``effects`` → ``targeting`` → ``combat`` → ``stack`` (the stack and priority) → ``turns`` (the rules' steps)
→ ``setup_choices`` → ``checks`` (the checks shared with ``apply``) → ``legal_attacks`` → ``legal_main`` (the
main phase's choices) → ``legal.Choices`` (who may act, what they may do) → ``setup_actions`` → ``turn_actions``
→ ``card_actions`` → ``combat_actions`` (one ``_check_`` / ``_run_`` pair per action kind) → :class:`State` here (``apply`` dispatches to them). ``apply`` checks an action
completely before changing anything, so a refused action leaves the state exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cards import CardPool
from .codes import PLANS
from .combat_actions import CombatActions
from .decks import validate_library
from .errors import IllegalAction, refuse
from .legal import Action, Entry
from .observation import observe
from .profiles import COPY_LIMITS, PROFILES
from .state import Instance, Player, copy_instance, copy_plain, copy_player, pool_for


class State(CombatActions):
    # the step, the entries (legal_main.Entry) or actions and the player of the last legal_codes or offer
    _coded: tuple[int, Sequence[Entry], int] | None

    def observation(self, player: int | None) -> dict[str, Any]:
        return observe(self, player)

    def clone(self) -> State:
        """An independent copy, as ``State.from_json(state.to_json())`` would give, without the JSON round trip (the
        search bot copies the state for every rollout). The configuration, card pool and profile are shared: the
        game never changes them. Field by field: the compiled State (native.py) has no ``__dict__`` to copy, so an
        attribute added to ``StateData`` is added here too (a copy without it fails at its first read)."""
        state = State()
        state.config = self.config
        state.pool = self.pool
        state._card_table = self._card_table
        state.profile = self.profile
        state.phase = self.phase
        state.active = self.active
        state.first_player = self.first_player
        state.turn = self.turn
        state.window = self.window
        state.ending = self.ending
        state.timer = self.timer
        state.over = self.over
        state.winner_index = self.winner_index
        state.steps = self.steps
        state.next_stack_id = self.next_stack_id
        state.rng = random.Random()
        state.rng.setstate(self.rng.getstate())
        state.cards = [copy_instance(inst) for inst in self.cards]
        state.players = [copy_player(p) for p in self.players]
        state.stack = copy_plain(self.stack)
        state.priority = list(self.priority)
        state.pending = copy_plain(self.pending)
        state.upkeep_todo = copy_plain(self.upkeep_todo)
        state._mods, state._points, state._sources, state._available, state._payments = {}, {}, {}, {}, {}
        state._coded = None
        state.events = []
        return state

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        state = cls()
        state._load_json(data)
        state._coded = None
        state.events = []
        return state

    # -- apply ---------------------------------------------------------------------------------------------

    def apply(self, action: Action) -> list[dict[str, Any]]:
        """Apply one action in place and return the events it produced."""
        if not isinstance(action, dict) or "kind" not in action:
            raise refuse("bad_action", "an action is a dict with a kind")
        kind = action["kind"]
        handler = self.HANDLERS.get(kind) if isinstance(kind, str) else None  # a list or dict: not hashable
        if handler is None:
            raise refuse("bad_action", "unknown action {kind!r}", kind=kind)
        if self.over:
            raise refuse("game_over", "the game is over")
        player = action.get("player")
        if kind != "time_up":
            if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(self.players):
                raise refuse("bad_action", "the action names no seat at this table")
            if kind in ("concede", "set_stop"):
                if self.players[player].eliminated:
                    raise refuse("not_your_turn", "you are out of the game")
            elif player not in self.current_players():
                raise refuse("not_your_turn", "it is not your turn to act")
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

    # -- integer-coded actions (OpenSpiel's side of the API) ---------------------------------------------

    def legal_codes(self, player: int, *, concede: bool = True) -> list[int]:
        """The legal actions as integers: code ``i`` is the ``i``-th action of :meth:`legal_actions` at this
        step (:meth:`decode` gives it), valid until the state next changes. ``concede=False`` leaves out
        conceding, which a random playout never wants (it is always the last action when offered)."""
        if self.phase in ("choose_traits", "choose_skills") and player in self.current_players():
            # Hundreds of combinations, one of them read: each is built when decoded or applied.
            offer = self.trait_offer(player) if self.phase == "choose_traits" else self.skill_offer(player)
            self._coded = (self.steps, offer, player)
            return list(range(len(offer)))
        # The main phase's actions on cards stay entries (legal_main.Entry) until one is decoded or applied.
        entries = self.legal_entries(player)
        self._coded = (self.steps, entries, player)
        n = len(entries)
        if not concede and n:
            last = entries[-1]
            if last.__class__ is dict and last["kind"] == "concede":  # type: ignore[call-overload]  # mypy does not narrow on __class__ is dict (kept: cheaper than isinstance in the hot path)
                n -= 1
        return list(range(n))

    def offer(self, player: int) -> list[Action]:
        """:meth:`legal_actions`, each action's position in the list being its code for :meth:`apply_code`
        (for bots that read the actions to choose one: the list is the engine's own, not to be changed)."""
        actions = self.legal_actions(player)
        self._coded = (self.steps, actions, player)
        return actions

    def decode(self, code: int) -> Action:
        """The action dict of a code from the last :meth:`legal_codes` (a copy: the caller may keep it)."""
        action: Action = copy_plain(self._coded_action(code))
        return action

    def apply_code(self, code: int) -> list[dict[str, Any]]:
        """Apply an action by its code, as ``apply(decode(code))`` would, without checking it again: it was
        found legal at this very step by :meth:`legal_codes` (the hot path of playouts and search)."""
        action = self._coded_action(code)
        self._coded = None
        kind = action["kind"]
        plan = PLANS[kind](self, action)
        self.events = []
        getattr(self, self.HANDLERS[kind][1])(action, plan)
        if not self.over:
            for p in self.players:
                if p.eliminated:
                    self.settle_eliminations()
                    break
        self.steps += 1
        return self.events

    def _coded_action(self, code: int) -> Action:
        """The action of a code (its entry built into a dict: not to be changed, a dict entry being the list's own)."""
        coded = self._coded
        if coded is None or coded[0] != self.steps or not isinstance(code, int) or not 0 <= code < len(coded[1]):
            raise refuse("bad_action", "that action code is not one of this step's legal actions")
        return self.action_of(coded[2], coded[1][code])

    # each handler: (check(action) -> plan, raising IllegalAction; run(action, plan) mutating)

    def check_time_up(self, action: Action) -> None:
        return None

    def run_time_up(self, action: Action, plan: Any) -> None:
        """The shell's clock ran out: « le jeu s'arrête lorsque les 2 joueurs ont joué très exactement le
        même nombre de tour » — checked at the end of every turn from now on (Turns.timer_due)."""
        self.timer = True
        self.emit("timer_started")

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
            "set_stop",
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
    state = State()
    state._init_fields(config, pool)
    state._coded = None
    state.events = []
    state.rng = random.Random(seed)
    traits, skills = _setup_pools(pool)
    for index, seat in enumerate(seats):
        errors = _library_errors(seat["deck"], pool, config["copy_mode"], profile.name)
        if errors:
            raise IllegalAction("bad_deck", "player {seat}: {errors}", seat=index + 1, errors="; ".join(errors))
        player = Player(
            index=index,
            name=str(seat.get("name", f"Player {index + 1}")),
            deck=list(seat["deck"]),
            trait_pool=list(seat.get("traits") or traits),
            skill_pool=list(seat.get("skills") or skills),
        )
        state.players.append(player)
        # new_instance inlined: 60 cards a player, at every playout's start
        cards, library = state.cards, player.zones["library"]
        for cid in seat["deck"]:
            uid = len(cards)
            cards.append(Instance(uid, cid, index, "library"))
            library.append(uid)
        state.shuffle_library(index)
    for p in state.players:
        p.max_life = p.life = profile.base_life
    return state


def _setup_pools(pool: CardPool) -> tuple[list[str], list[str]]:
    """The pool's Traits and Compétences in id order, kept in the pool's memo (a simulation starts thousands
    of games from one pool; the memo holds derived values only, so copies are handed out)."""
    key = ("setup pools",)
    known = pool.memo.get(key)
    if known is None:
        known = pool.memo[key] = (
            tuple(sorted(c.id for c in pool.of_type("trait"))),
            tuple(sorted(c.id for c in pool.of_type("skill"))),
        )
    return list(known[0]), list(known[1])


def _library_errors(deck: list[str], pool: CardPool, copy_mode: str, profile: str) -> tuple[str, ...]:
    """:func:`validate_library`'s errors, remembered per library, mode and profile in the pool's memo."""
    key = ("library errors", tuple(deck), copy_mode, profile)
    known: tuple[str, ...] | None = pool.memo.get(key)
    if known is None:
        known = pool.memo[key] = tuple(validate_library(deck, pool, copy_mode=copy_mode, profile=profile).errors)
    return known


__all__ = ["State", "new_game"]
