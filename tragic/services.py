"""TRAGIC use cases: decks, creating and joining games, acting (with bots answering server-side).

A game is its config, seed and action list; every service that changes a game locks it, checks the
expected version, applies through the pure engine and broadcasts to the game's sockets after commit.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.live import group_send_on_commit
from campaigns.selectors import campaigns_of
from campaigns.services import event_append
from core.errors import PermissionRefused, ServiceError, StaleState
from core.forms import MAX_ID
from tragic.engine import IllegalAction, State, new_game
from tragic.engine.card_files import default_pool, load_decklists
from tragic.engine.decks import fit_library, validate_library
from tragic.engine.profiles import PROFILES
from tragic.engine.roster import BOTS, make_bot
from tragic.models import CopyMode, Deck, Game, GameStatus, Seat
from tragic.presenters import library_problem
from tragic.refusals import refusal_text

MAX_BOT_STEPS = 3000
# A person waits for the bots' answers: the search bot stops at this many seconds of wall-clock per decision
# even when the shared machine is too loaded for its counted work (issue 15: under a second a move).
LOBBY_WALL_CAP = 1.0
SIMULTANEOUS_CHOICES = frozenset({"choose_traits", "choose_skills"})
SETUP_PHASES = frozenset({"choose_traits", "choose_skills", "mulligan"})


def game_group(game_id: int) -> str:
    return f"tragic-game-{game_id}"


def refusal_message(error: IllegalAction) -> str:
    """The engine's refusal in the reader's language: its code, then its reason (tragic/refusals.py)."""
    messages = {
        "not_your_turn": _("It is not your turn to act."),
        "wrong_phase": _("That cannot be done at this moment of the turn."),
        "unpaid_cost": _("The cost is not paid with the resources chosen."),
        "bad_target": _("That target cannot be chosen."),
        "unknown_card": _("That card is not there."),
        "game_over": _("The game is over."),
        "no_window": _("A SPECIAL card may only be placed right after paying a cost."),
        "sheltered": _("You are inside the shelter."),
        "upkeep_pending": _("Resolve every ENTRETIEN effect first."),
        "bad_choice": _("That choice is not allowed."),
    }
    base = messages.get(error.code, _("That action is not allowed."))
    return f"{base} ({refusal_text(error)})"


def _broadcast(game: Game) -> None:
    # The move stands whatever the channel layer does; the pages catch up by version (campaigns.live_boards).
    group_send_on_commit(game_group(game.pk), {"type": "game.updated", "version": game.version})


# -- decks ----------------------------------------------------------------------------------------------


@transaction.atomic
def deck_create(*, owner: User, name: str, copy_mode: str = "quad", cards: Sequence[str] = ()) -> Deck:
    deck = Deck(owner=owner, name=name.strip() or _("New deck"), copy_mode=copy_mode, cards=list(cards))
    deck.full_clean()
    deck.save()
    return deck


@transaction.atomic
def deck_change(*, deck: Deck, actor: User, add: str | None = None, remove: str | None = None) -> Deck:
    """Add or remove one card; refused when the card is unknown, not part of a library, or over the copy limit."""
    deck = Deck.objects.select_for_update().get(pk=deck.pk)
    if deck.owner_id != actor.pk:
        raise PermissionRefused(_("This deck is not yours."))
    pool = default_pool()
    cards = list(deck.cards)
    if add is not None:
        if add not in pool or pool[add].type in ("trait", "skill"):
            raise ServiceError(_("That card cannot go into a library."))
        report = validate_library([*cards, add], pool, copy_mode=deck.copy_mode, profile="wiki")
        if any("copies" in e for e in report.errors):
            raise ServiceError(_("The copy mode allows no more copies of that card."))
        if len(cards) >= 60:
            raise ServiceError(_("A library holds exactly 60 cards."))
        cards.append(add)
    if remove is not None and remove in cards:
        cards.remove(remove)
    deck.cards = cards
    deck.updated_at = timezone.now()
    deck.save(update_fields=["cards", "updated_at"])
    return deck


def ready_decks() -> dict[str, Any]:
    return load_decklists()


def library_for(*, user: User, deck_ref: str, copy_mode: str = "quad") -> tuple[list[str], str]:
    """``deck_ref`` is ``ready:<id>`` (a starter deck, fitted to the game's copy mode) or the pk of one of
    the user's decks (played as built)."""
    if deck_ref.startswith("ready:"):
        deck = ready_decks().get(deck_ref.removeprefix("ready:"))
        if deck is None:
            raise ServiceError(_("No such deck."))
        return fit_library(list(deck.cards), default_pool(), copy_mode=copy_mode), deck.name
    own = Deck.objects.filter(owner=user, pk=int(deck_ref) if deck_ref.isdigit() else 0).first()
    if own is None:
        raise ServiceError(_("No such deck."))
    return list(own.cards), own.name


# -- games ------------------------------------------------------------------------------------------------


def load_state(game: Game) -> State:
    """The cached snapshot, or a replay of the actions when there is none."""
    if game.snapshot is not None:
        return State.from_json(game.snapshot)
    return replay(game, len(game.actions))


def replay(game: Game, steps: int) -> State:
    state = new_game(game.config, game.seed)
    for action in game.actions[:steps]:
        state.apply(action)
    return state


@transaction.atomic
def game_create(
    *,
    user: User,
    deck_ref: str,
    opponent: str,
    profile: str = "wiki",
    reaction_seconds: int = 60,
    seed: int | None = None,
    max_turns: int | None = None,
    copy_mode: str = "quad",
    timer_minutes: int | None = None,
    campaign_id: int | None = None,
    mulligan_agreed: bool = False,
    players: int = 2,
) -> Game:
    """``opponent``: ``invite`` (a link for a person) or a bot name (``heuristic``, ``random``); with a bot,
    every other seat of a 3- or 4-player game (wiki rules) is a bot of that kind.

    « il est nécessaire de s'accorder sur ce point [le mode] avec son ou ses adversaires »: the copy
    mode is the game's, and both libraries must follow it.
    """
    if opponent != "invite" and opponent not in BOTS:
        raise ServiceError(_("Choose a person or a bot as opponent."))
    if copy_mode not in CopyMode.values:
        raise ServiceError(_("Choose a copy mode."))
    if profile not in PROFILES or not 2 <= players <= PROFILES[profile].max_players:
        raise ServiceError(_("The wiki rules seat 2 to 4 players, the booklet 2."))
    library, deck_name = library_for(user=user, deck_ref=deck_ref, copy_mode=copy_mode)
    report = validate_library(library, default_pool(), copy_mode=copy_mode, profile=profile)
    if not report.ok:
        raise ServiceError(
            _("This deck cannot be played: %(errors)s")
            % {"errors": "; ".join(library_problem(e) for e in report.errors)}
        )
    seed = seed if seed is not None else secrets.randbits(63)
    config: dict[str, Any] = {
        "profile": profile,
        "copy_mode": copy_mode,
        "players": [{"name": user.username, "deck": library}],
    }
    if max_turns:
        config["max_turns"] = max_turns
    if mulligan_agreed:
        # Booklet: « il est possible d'utiliser des règles existantes dans d'autres jeux si tous les joueurs
        # se mettent d'accord » — the invited player accepts it by joining.
        config["mulligan_agreed"] = True
    campaign = None
    if campaign_id is not None:
        # An id past the column's range is nobody's campaign (SQLite cannot even bind it: an OverflowError).
        membership = campaigns_of(user).filter(campaign_id=campaign_id).first() if 0 < campaign_id <= MAX_ID else None
        if membership is None:
            raise ServiceError(_("You are not a member of that campaign."))
        campaign = membership.campaign
    game = Game(
        seed=seed,
        config=config,
        created_by=user,
        reaction_seconds=reaction_seconds,
        timer_minutes=timer_minutes or None,
        campaign=campaign,
        seats_wanted=players,
    )
    game.full_clean(exclude=["config", "actions"])
    game.save()
    Seat.objects.create(game=game, index=0, user=user, deck_name=deck_name)
    if opponent == "invite":
        game.invite_token = secrets.token_urlsafe(32)
        game.save(update_fields=["invite_token"])
        return game
    # The bots take the ready decks in turn, the ones the person does not play first.
    ready = sorted(ready_decks().values(), key=lambda d: d.name == deck_name)
    bot_decks = [ready[(index - 1) % len(ready)] for index in range(1, players)]
    for index, bot_deck in enumerate(bot_decks, start=1):
        Seat.objects.create(game=game, index=index, bot=opponent, deck_name=bot_deck.name)
        name = f"bot ({opponent})" if players == 2 else f"bot {index} ({opponent})"
        # A starter deck is written for Quad: in another copy mode the bot plays it fitted to the mode.
        config["players"].append(
            {"name": name, "deck": fit_library(list(bot_deck.cards), default_pool(), copy_mode=copy_mode)}
        )
    _start(game)
    return game


@transaction.atomic
def game_join(*, token: str, user: User, deck_ref: str) -> Game:
    game = Game.objects.select_for_update().filter(invite_token=token).first()
    if game is None:
        raise ServiceError(_("This invitation is not valid."))
    if game.status == GameStatus.ABANDONED:
        raise ServiceError(_("This invitation has been cancelled."))
    if game.status != GameStatus.WAITING:
        raise ServiceError(_("Someone already took that seat."))
    if game.seats.filter(user=user).exists():
        raise ServiceError(_("You cannot play against yourself."))
    library, deck_name = library_for(user=user, deck_ref=deck_ref, copy_mode=game.config["copy_mode"])
    report = validate_library(
        library, default_pool(), copy_mode=game.config["copy_mode"], profile=game.config["profile"]
    )
    if not report.ok:
        raise ServiceError(
            _("This deck cannot be played: %(errors)s")
            % {"errors": "; ".join(library_problem(e) for e in report.errors)}
        )
    Seat.objects.create(game=game, index=len(game.config["players"]), user=user, deck_name=deck_name)
    game.config["players"].append({"name": user.username, "deck": library})
    if len(game.config["players"]) >= game.seats_wanted:
        _start(game)
    else:
        # A seat taken is a change every seated page shows (« 2 of 3 seats taken »): a new version, sent live.
        game.version += 1
        game.save(update_fields=["config", "version"])
        _broadcast(game)
    return game


def _start(game: Game) -> None:
    state = new_game(game.config, game.seed)
    game.status = GameStatus.PLAYING
    game.started_at = timezone.now()
    if game.campaign is not None:
        event_append(
            campaign=game.campaign,
            kind="tragic.game_started",
            actor=game.created_by,
            # Never the seed: with the config it deals every library and hand again (campaigns.redaction).
            payload={"game": game.pk, "players": [p["name"] for p in game.config["players"]]},
        )
    _run_bots(game, state)
    _save(game, state)


def _ring_timer(game: Game, state: State, now: dt.datetime) -> None:
    """The clock stays out of the engine: once the game's time is up, the shell records ``time_up``
    and the engine ends the game when both players have played as many turns."""
    if not game.timer_minutes or game.started_at is None or state.timer or state.is_over():
        return
    if now - game.started_at >= dt.timedelta(minutes=game.timer_minutes):
        action = {"kind": "time_up"}
        game.log.extend(state.apply(action))
        game.actions.append(action)


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").order_by("index"))


def _run_bots(game: Game, state: State) -> None:
    """Bots answer at once, server-side, after a person's action."""
    bots = {
        seat.index: make_bot(seat.bot, game.seed + len(game.actions) + seat.index, wall_cap=LOBBY_WALL_CAP)
        for seat in _seats(game)
        if seat.bot
    }
    for _step in range(MAX_BOT_STEPS):
        if state.is_over():
            return
        acting = [p for p in state.current_players() if p in bots]
        if not acting:
            return
        player = acting[0]
        action = bots[player].choose(state, player)
        game.log.extend(state.apply(action))
        game.actions.append(action)


def _save(game: Game, state: State) -> None:
    game.snapshot = state.to_json()
    game.version += 1
    game.last_action_at = timezone.now()
    if state.is_over() and game.status != GameStatus.FINISHED:
        game.status = GameStatus.FINISHED
        game.winner_seat = state.winner()
        if game.campaign is not None:
            winner = state.winner()
            event_append(
                campaign=game.campaign,
                kind="tragic.game_finished",
                actor=game.created_by,
                payload={
                    "game": game.pk,
                    "winner": state.players[winner].name if winner is not None else None,
                    "turns": state.turn,
                    "actions": len(game.actions),
                },
            )
    game.save()
    _broadcast(game)


def _lock_seat(game: Game, user: User, expected_version: int, *, stale_ok: bool = False) -> tuple[Game, Seat]:
    """The game locked for a change by one of its seated players, refused if someone acted first."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.version != expected_version and not stale_ok:
        raise StaleState(_("Someone acted first. The board has been refreshed."))
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise PermissionRefused(_("You are not playing in this game."))
    return game, seat


@transaction.atomic
def game_act(*, game: Game, user: User, action: dict[str, Any], expected_version: int) -> Game:
    """« a stale click gets a clear "someone acted first" answer, never a double draw » (design.md).

    Hidden Trait and Compétence choices are made at the same time by everyone: another player's
    choice does not make yours stale (the engine still refuses a second choice).
    """
    game, seat = _lock_seat(game, user, expected_version, stale_ok=action.get("kind") in SIMULTANEOUS_CHOICES)
    if game.status != GameStatus.PLAYING:
        raise ServiceError(_("The game is not being played."))
    state = load_state(game)
    action = {**{k: v for k, v in action.items() if k != "timed_out"}, "player": seat.index}
    if action.get("kind") == "time_up":
        raise ServiceError(_("That action is not allowed."))
    _ring_timer(game, state, timezone.now())
    try:
        events = state.apply(action)
    except IllegalAction as error:
        raise ServiceError(refusal_message(error)) from error
    game.actions.append(action)
    game.log.extend(events)
    _run_bots(game, state)
    _save(game, state)
    return game


def _timer_due(game: Game, state: State, now: dt.datetime) -> bool:
    if state.timer:
        return True
    return bool(
        game.timer_minutes and game.started_at and now - game.started_at >= dt.timedelta(minutes=game.timer_minutes)
    )


def waited_long_enough(game: Game, now: dt.datetime) -> bool:
    """The time to react (``reaction_seconds``, counted from the last action) has run out: a timeout or a
    cancel may be asked for."""
    return now - game.last_action_at >= dt.timedelta(seconds=game.reaction_seconds)


def timeout_defaults(game: Game, state: State, now: dt.datetime | None = None) -> list[dict[str, Any]]:
    """What a timeout would record now for the players being waited for ([] when the wait does not time
    out): the engine's defaults, the active player's own turn included once the game's timer has run out."""
    if game.status != GameStatus.PLAYING:
        return []
    return state.timeout_actions(own_turn=_timer_due(game, state, now or timezone.now()))


@transaction.atomic
def game_timeout(*, game: Game, user: User, expected_version: int, now: dt.datetime | None = None) -> Game:
    """When the players being waited for let the time limit pass (counted from the last action), the
    engine's default answer is recorded for them, marked ``timed_out`` in the action list and the log:
    a pass on the stack, no block, nothing searched… (any other seated player may ask). Their own turn is
    only ended for them once the game's timer has run out."""
    now = now or timezone.now()
    game, seat = _lock_seat(game, user, expected_version)
    if game.status != GameStatus.PLAYING:
        raise ServiceError(_("The game is not being played."))
    state = load_state(game)
    if seat.index in state.current_players():
        raise ServiceError(_("You are the one being waited for."))
    actions = timeout_defaults(game, state, now)
    if not actions:
        if state.phase in ("upkeep", "main"):
            raise ServiceError(_("A player's own turn is only ended for them once the game's time is up."))
        raise ServiceError(_("No decision is waiting with a time limit."))
    if not waited_long_enough(game, now):
        if state.priority and state.pending is None:
            raise ServiceError(_("The time to react has not run out yet."))
        raise ServiceError(_("The time to decide has not run out yet."))
    _ring_timer(game, state, now)
    for action in actions:
        try:
            game.log.extend(state.apply(action))
        except IllegalAction as error:
            raise ServiceError(refusal_message(error)) from error
        game.actions.append(action)
    _run_bots(game, state)
    _save(game, state)
    return game


def cancel_due(game: Game, state: State, seat_index: int | None, now: dt.datetime | None = None) -> str | None:
    """Why ``seat_index`` may not cancel the game now, or None when it may (see ``game_cancel``)."""
    if game.status != GameStatus.PLAYING or state.is_over():
        return _("The game is not being played.")
    if state.phase not in SETUP_PHASES:
        return _("The game has started: it can no longer be cancelled, only conceded.")
    if seat_index is None or state.players[seat_index].eliminated:
        return _("You are not playing in this game.")
    if seat_index in state.current_players():
        return _("You are the one being waited for.")
    if not waited_long_enough(game, now or timezone.now()):
        return _("The others still have time to choose.")
    return None


def _abandon(game: Game, event: dict[str, Any], now: dt.datetime) -> None:
    """The game ends with no winner; ``event`` says why in its log."""
    game.log.append(event)
    game.status = GameStatus.ABANDONED
    game.winner_seat = None
    game.version += 1
    game.last_action_at = now
    game.save(update_fields=["log", "status", "winner_seat", "version", "last_action_at"])
    _broadcast(game)


@transaction.atomic
def game_cancel(*, game: Game, user: User, expected_version: int, now: dt.datetime | None = None) -> Game:
    """A way out of a setup that waits forever, adding no rule: « les joueurs doivent choisir obligatoirement
    3 Compétences » names no default, so nobody chooses for the idle player. Once the time to react has run
    out (counted from the last action) with the game still waiting on someone's setup choice, a seated
    player who is not being waited for may cancel the game: it is abandoned with no winner, which the game
    log and, for a game recorded in a campaign, the campaign log say once. An invitation not yet taken by
    every player (no game has begun) may be withdrawn by a seated player at once."""
    now = now or timezone.now()
    game, seat = _lock_seat(game, user, expected_version)
    if game.status == GameStatus.WAITING:
        # An invitation nobody (or not everybody) has taken yet: no game has begun, nobody waits on a
        # decision, so a seated player may withdraw it at once.
        _abandon(game, {"t": "invitation_cancelled", "player": seat.index}, now)
        return game
    if game.status != GameStatus.PLAYING:
        raise ServiceError(_("The game is not being played."))
    state = load_state(game)
    refusal = cancel_due(game, state, seat.index, now)
    if refusal:
        raise ServiceError(refusal)
    waited = state.current_players()
    _abandon(game, {"t": "game_cancelled", "player": seat.index, "waiting_for": waited, "phase": state.phase}, now)
    if game.campaign is not None:
        names = [p["name"] for p in game.config["players"]]
        event_append(
            campaign=game.campaign,
            kind="tragic.game_cancelled",
            actor=user,
            payload={
                "game": game.pk,
                "players": names,
                "by": names[seat.index],
                "waiting_for": [names[i] for i in waited],
            },
        )
    return game
