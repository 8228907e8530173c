"""Frag pages: the lobby, the board, actions by tapping, and the replay. Thin: the work is in services."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns import answer_position
from campaigns.live import board_stream
from core.errors import ServiceError
from core.http import AuthenticatedRequest, allow_methods
from core.jsonlimits import loads_limited
from frag import services
from frag.engine import State
from frag.forms import NewGameForm
from frag.models import Game, Seat
from frag.selectors.board import board_view
from frag.selectors.fighters import fighters_panel
from frag.selectors.log import log_lines
from frag.selectors.naming import language
from frag.selectors.replay import live_pace, replay_frame
from frag.selectors.seats import fold_after, hand_key, reveal_hand, revealed_hand, seat_for_viewer
from frag.selectors.table import game_context


@login_required
@require_http_methods(["GET", "POST"])
def home(request: AuthenticatedRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        specs: list[services.SeatSpec] = []
        mine = [s for s in form.cleaned_data["seats"] if s["kind"] == "me"]
        for seat in form.cleaned_data["seats"]:
            user = request.user if seat["kind"] == "me" else seat["user"]
            name = seat["name"] or (
                user.get_username() if len(mine) <= 1 or user is None else f"{user.get_username()} {len(specs) + 1}"
            )
            specs.append(
                services.SeatSpec(
                    name=name,
                    health=seat["health"],
                    speed=seat["speed"],
                    accuracy=seat["accuracy"],
                    wins=seat["wins"],
                    user=user if seat["kind"] in ("me", "user") else None,
                    bot=seat["kind"] if seat["kind"] in ("heuristic", "random", "search") else "",
                )
            )
        try:
            game = services.game_create(
                creator=request.user,
                map_name=form.cleaned_data["map_name"],
                seats=specs,
                frags_to_win=form.cleaned_data["frags_to_win"],
                auto_single_answer=form.cleaned_data["auto_single_answer"],
                auto_end_turn=form.cleaned_data["auto_end_turn"],
                campaign_id=form.cleaned_data["campaign"].pk if form.cleaned_data["campaign"] else None,
            )
        except ServiceError as refusal:
            form.add_error(None, refusal.message)
        else:
            return redirect(game)
    games = Game.objects.filter(seats__user=request.user).distinct().prefetch_related("seats")[:30]
    return render(request, "frag/home.html", {"form": form, "games": games})


def _game_for(request: AuthenticatedRequest, game_id: int) -> tuple[Game, list[Seat]]:
    game = get_object_or_404(Game, pk=game_id)
    seats = list(game.seats.all())
    if not any(s.user_id == request.user.pk for s in seats):
        raise Http404
    return game, seats


def _reach_game(request: AuthenticatedRequest, game_id: int, **_: Any) -> None:
    """404 unless the visitor sits at the game (before the method is checked: core.http.allow_methods)."""
    if not Game.objects.filter(pk=game_id, seats__user_id=request.user.pk).exists():
        raise Http404


@login_required
@allow_methods("GET", reach=_reach_game)
def game(request: AuthenticatedRequest, game_id: int) -> HttpResponse:
    game, seats = _game_for(request, game_id)
    revealed = revealed_hand(request.session, game.pk)
    context = game_context(game, seats, request.user, request.GET.get("mode", ""), revealed=revealed)
    template = "frag/game.html#table" if request.htmx else "frag/game.html"
    answer_position.note(board_stream("frag", game.pk), game.version)  # the page's version (X-Live-Position)
    return render(request, template, context)


@login_required
@allow_methods("POST", reach=_reach_game)
def act(request: AuthenticatedRequest, game_id: int) -> HttpResponse:
    """One tap: ``choice`` is the index of a legal action at ``version``, or ``action`` a JSON action."""
    game, seats = _game_for(request, game_id)
    status, error = 200, ""
    # The number this action's step will get: the table first shows the game right after it.
    own_step = game.steps.count()
    try:
        version = int(request.POST.get("version", ""))
        action = _parse_action(game, seats, request, version)
        services.game_act(game=game, user=request.user, action=action, expected_version=version)
        fold_after(request.session, game.pk, action["player"])
    except ValueError:
        status, error = 400, _("That action could not be read: reload the page.")
    except ServiceError as refusal:
        status, error = refusal.status, refusal.message
    game.refresh_from_db()
    frame = None
    if not error and live_pace() > 0 and game.steps.filter(number__gt=own_step).exists():
        # Bots answered: show the moment after this action; the socket plays their turns out.
        frame = replay_frame(game, own_step)
    return _table_answer(request, game, seats, status, error, frame=frame)


@login_required
@allow_methods("POST", reach=_reach_game)
def reveal(request: AuthenticatedRequest, game_id: int) -> HttpResponse:
    """Hot seat: the person the device was passed to taps their hand open. Only the hand of the seat to
    act, and only if ``seat`` names it: a stale « pass to » screen never opens someone else's hand."""
    game, seats = _game_for(request, game_id)
    state = State.from_json(game.snapshot)
    seat = seat_for_viewer(game, seats, request.user, state)
    status, error = 200, ""
    if seat is None or seat not in state.current_players() or request.POST.get("seat") != str(seat):
        status, error = 409, _("The turn has passed to someone else: pass the device on.")
    else:
        reveal_hand(request.session, game.pk, hand_key(state, seat))
    return _table_answer(request, game, seats, status, error)


def _table_answer(
    request: AuthenticatedRequest,
    game: Game,
    seats: list[Seat],
    status: int,
    error: str,
    *,
    frame: tuple[State, list[Any]] | None = None,
) -> HttpResponse:
    """The answer to a tap: the table (this device's hot-seat hand as tapped open) for htmx, else a redirect."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(game)
    if frame is None:
        # The answer shows the table at this version (X-Live-Position). A moment on the way to it (the bots' turns
        # still to be played out by the socket) names no version: the frames and the board that follow must apply.
        answer_position.note(board_stream("frag", game.pk), game.version)
    revealed = revealed_hand(request.session, game.pk)
    context = game_context(game, seats, request.user, frame=frame, revealed=revealed)
    context["error"] = error
    return render(request, "frag/game.html#table", context, status=status)


def _parse_action(game: Game, seats: list[Seat], request: AuthenticatedRequest, version: int) -> dict[str, Any]:
    raw = request.POST.get("action")
    if raw:
        action = loads_limited(raw)  # bounded size and depth: a RecursionError was a 500
        if not isinstance(action, dict):
            raise ValueError("an action is an object")
        return action
    if game.version != version:
        # The choice indexes an older list of legal actions: let the service answer « someone acted first ».
        return {"type": "stale", "player": -1}
    state = State.from_json(game.snapshot)
    seat = seat_for_viewer(game, seats, request.user, state)
    legal = state.legal_actions(seat) if seat is not None else []
    index = int(request.POST.get("choice", ""))
    if not 0 <= index < len(legal):
        raise ValueError("no such choice")
    return legal[index]


@login_required
@allow_methods("GET", reach=_reach_game)
def replay(request: AuthenticatedRequest, game_id: int) -> HttpResponse:
    game, seats = _game_for(request, game_id)
    total = game.steps.filter(number__gte=1).count()
    try:
        upto = max(0, min(total, int(request.GET.get("step", total))))
    except ValueError:
        upto = total
    state, steps = services.game_replay(game, upto)
    setup = list(game.steps.filter(number=0))
    # A replay is shown as a spectator sees it: no hand, no hidden draw.
    context = {
        "game": game,
        "seats": seats,
        "state": state,
        "map_title": state.board.title[language()],
        "board": board_view(state, None, []),
        "fighters": fighters_panel(state, None),
        "log": log_lines(state, setup + steps, None, limit=None),
        "upto": upto,
        "total": total,
        "previous": max(0, upto - 1),
        "next": min(total, upto + 1),
        "playing": request.GET.get("play") == "1",
    }
    template = "frag/replay.html#replay" if request.htmx else "frag/replay.html"
    return render(request, template, context)
