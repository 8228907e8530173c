"""Frag use cases: create a game, act in it. Bots play their turns here, on the server."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.live import group_send_on_commit
from campaigns.models import Campaign
from campaigns.selectors import campaigns_of
from campaigns.services import event_append
from core.errors import PermissionRefused, ServiceError, StaleState
from frag.engine import IllegalAction, State, new_game
from frag.engine.levels import BOTS
from frag.engine.rng import Dice
from frag.models import BotKind, Game, GameStatus, Seat, Step
from frag.refusals import refusal_text

# A safety net: bots finish a turn in a few dozen actions; a whole bot-only game in a few thousand.
MAX_BOT_ACTIONS_PER_CALL = 5_000


@dataclass(frozen=True)
class SeatSpec:
    name: str
    health: int
    speed: int
    accuracy: int
    user: User | None = None
    bot: str = ""
    wins: int = 0  # tournament wins: one more attribute point each


def game_group(game_id: int) -> str:
    return f"frag-game-{game_id}"


def _broadcast_on_commit(game: Game) -> None:
    # The move stands whatever the channel layer does; the pages catch up by version (campaigns.live_boards).
    group_send_on_commit(game_group(game.pk), {"type": "game.updated", "version": game.version})


def _bot_dice(game: Game, step_number: int) -> Dice:
    # Bots choose from their own stream, derived from the game's seed, so a game is reproducible.
    return Dice(game.seed * 1_000_003 + step_number)


def _run_bots(game: Game, state: State, seats: Sequence[Seat], next_number: int) -> int:
    """Let bots act while it is a bot's turn (or a bot must answer); return the next step number."""
    by_number = {seat.number: seat for seat in seats}
    steps = []
    for _count in range(MAX_BOT_ACTIONS_PER_CALL):
        if state.is_over():
            break
        seat = by_number[state.current_players()[0]]
        if not seat.is_bot:
            break
        action = BOTS[seat.bot](state, seat.number, _bot_dice(game, next_number))
        events = state.apply(action)
        steps.append(Step(game=game, number=next_number, seat=seat.number, action=action, events=events))
        next_number += 1
    Step.objects.bulk_create(steps)
    return next_number


def _forced_action(game: Game, state: State, seats: Sequence[Seat]) -> dict[str, Any] | None:
    """The one thing a person at the table could do now, when the game's settings say to do it for them: the only
    legal action of the fighter whose turn it is, if it is a movement roll (``auto_single_answer``) or the end of
    the turn (``auto_end_turn``). Anything else (a card, a move, a target) stays the person's to choose."""
    if state.is_over():
        return None
    player = state.current_players()[0]
    seat = next((s for s in seats if s.number == player), None)
    if seat is None or seat.is_bot:
        return None
    legal = state.legal_actions(player)
    if len(legal) != 1:
        return None
    kind = legal[0]["type"]
    if (kind == "roll" and game.auto_single_answer) or (kind == "end_turn" and game.auto_end_turn):
        return legal[0]
    return None


def _play_on(game: Game, state: State, seats: Sequence[Seat], next_number: int) -> int:
    """The bots' answers, and between them the people's forced actions (each recorded as a step of its seat, so a
    replay plays it again); returns the next step number."""
    for _count in range(MAX_BOT_ACTIONS_PER_CALL):
        next_number = _run_bots(game, state, seats, next_number)
        action = _forced_action(game, state, seats)
        if action is None:
            break
        events = state.apply(action)
        Step.objects.create(game=game, number=next_number, seat=action["player"], action=action, events=events)
        next_number += 1
    return next_number


def _save(game: Game, state: State) -> None:
    game.snapshot = state.to_json()
    game.version += 1
    game.updated_at = timezone.now()
    if state.is_over() and game.status != GameStatus.FINISHED:
        # The one moment a game turns finished, whoever's action (a person's or a bot's) ended it.
        game.status = GameStatus.FINISHED
        game.winner_seat = state.winner()
        _record_finish(game, state)
    game.save(update_fields=["snapshot", "version", "updated_at", "status", "winner_seat"])


def _campaign_of(creator: User, campaign_id: int | None) -> Campaign | None:
    """Only a campaign the creator belongs to may record the game."""
    if campaign_id is None:
        return None
    membership = campaigns_of(creator).filter(campaign_id=campaign_id).first()
    if membership is None:
        raise ServiceError(_("You can only record a game in a campaign you are a member of."))
    return membership.campaign


def _record(game: Game, state: State, kind: str, **payload: Any) -> None:
    """One line of the game in its campaign's log. Never the seed: with the config it deals every hand again, and
    a log (and its JSON export, which carries every payload) is read by members who may not sit at the table."""
    campaign = game.campaign
    if campaign is None:
        return
    event_append(
        campaign=campaign,
        kind=kind,
        actor=game.created_by,
        payload={"game": game.pk, "map": game.map_name, "map_title": state.board.title, **payload},
    )


def _record_start(game: Game, state: State, seats: Sequence[Seat]) -> None:
    _record(
        game,
        state,
        "frag.game_started",
        frags_to_win=state.config["frags_to_win"],
        fighters=[{"name": seat.name, "bot": seat.bot or None} for seat in seats],
    )


def _record_finish(game: Game, state: State) -> None:
    winner = state.winner()
    by_frags = winner is not None and state.fighters[winner].frags >= state.config["frags_to_win"]
    _record(
        game,
        state,
        "frag.game_finished",
        winner=state.fighters[winner].name if winner is not None else None,
        frags=[{"name": f.name, "frags": f.frags} for f in state.fighters],
        turns=state.turn.number,
        reason="frags" if by_frags else "turn_limit",
    )


@transaction.atomic
def game_create(
    *,
    creator: User,
    map_name: str,
    seats: Sequence[SeatSpec],
    frags_to_win: int = 3,
    turn_limit: int = 400,
    seed: int | None = None,
    campaign_id: int | None = None,
    auto_single_answer: bool = True,
    auto_end_turn: bool = True,
) -> Game:
    """Deal, roll for the first player, and let bots place their fighters.

    ``campaign_id``: a campaign of the creator's whose log records the game's start and result."""
    if not any(spec.user is not None for spec in seats):
        raise ServiceError(_("A game needs at least one person at the table."))
    if any(spec.bot and spec.bot not in BOTS for spec in seats):
        raise ServiceError(_("Unknown bot."))
    campaign = _campaign_of(creator, campaign_id)
    seed = random.SystemRandom().randrange(2**62) if seed is None else seed
    config = {
        "map": map_name,
        "players": [
            {
                "name": spec.name,
                "health": spec.health,
                "speed": spec.speed,
                "accuracy": spec.accuracy,
                "wins": spec.wins,
            }
            for spec in seats
        ],
        "frags_to_win": frags_to_win,
        "turn_limit": turn_limit,
    }
    try:
        state = new_game(config, seed)
    except IllegalAction as refusal:
        raise ServiceError(_("This game cannot start: %(reason)s.") % {"reason": refusal_text(refusal)}) from refusal
    game = Game(
        map_name=map_name,
        config=state.config,
        seed=seed,
        snapshot=state.to_json(),
        created_by=creator,
        campaign=campaign,
        auto_single_answer=auto_single_answer,
        auto_end_turn=auto_end_turn,
    )
    game.full_clean(exclude=["snapshot", "config"])
    game.save()
    created = [
        Seat(game=game, number=n, user=spec.user, bot=spec.bot or BotKind.NONE, name=spec.name)
        for n, spec in enumerate(seats)
    ]
    Seat.objects.bulk_create(created)
    Step.objects.create(game=game, number=0, seat=0, actor=creator, action={"type": "setup"}, events=state.setup_events)
    _record_start(game, state, created)
    _play_on(game, state, created, 1)
    _save(game, state)
    _broadcast_on_commit(game)
    return game


def seats_of(game: Game, user: User) -> list[int]:
    return [seat.number for seat in game.seats.all() if seat.user_id == user.pk and not seat.is_bot]


@transaction.atomic
def game_act(*, game: Game, user: User, action: dict[str, Any], expected_version: int) -> list[dict[str, Any]]:
    """Apply one person's action, then the bots' answers. « someone acted first » when the page is stale."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.version != expected_version:
        raise StaleState(_("Someone acted first: the board has been refreshed, look again before you play."))
    if game.status == GameStatus.FINISHED:
        raise ServiceError(_("This game is over."))
    seats = list(game.seats.all())
    seat_number = action.get("player")
    seat = next((s for s in seats if s.number == seat_number), None)
    if seat is None or seat.is_bot or seat.user_id != user.pk:
        raise PermissionRefused(_("You do not control that fighter."))
    state = State.from_json(game.snapshot)
    try:
        events = state.apply(action)
    except IllegalAction as refusal:
        raise ServiceError(_("Refused: %(reason)s.") % {"reason": refusal_text(refusal)}) from refusal
    number = game.steps.count()
    Step.objects.create(game=game, number=number, seat=seat.number, actor=user, action=action, events=events)
    _play_on(game, state, seats, number + 1)
    _save(game, state)
    _broadcast_on_commit(game)
    return events


def game_replay(game: Game, upto: int | None = None) -> tuple[State, list[Step]]:
    """Rebuild the game from its config, seed and steps (the first ``upto`` actions)."""
    state = new_game(game.config, game.seed)
    steps = list(game.steps.filter(number__gte=1).order_by("number"))
    if upto is not None:
        steps = steps[:upto]
    for step in steps:
        state.apply(step.action)
    return state, steps
