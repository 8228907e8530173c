"""Thin views: parse the request, call a service or a selector, render."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import answer_position
from campaigns.live import board_stream
from core.errors import ServiceError
from core.forms import posted_id
from core.http import AuthenticatedRequest, allow_methods, bounded_int
from core.jsonlimits import loads_limited
from tragic import selectors, services
from tragic.engine.card_files import default_pool
from tragic.engine.cards import ATTRIBUTES
from tragic.engine.decks import validate_library
from tragic.engine.roster import BOTS
from tragic.forms import DeckCreateForm
from tragic.models import CopyMode, Deck, Game, GameStatus, Profile
from tragic.presenters import (
    attribute_name,
    bot_label,
    card_name,
    card_text,
    describe_action,
    library_problem,
    player_names,
)


def _deck_options(request: AuthenticatedRequest) -> list[tuple[str, str]]:
    french = (get_language() or "fr").startswith("fr")
    ready = [(f"ready:{d.id}", d.name if french else d.name_en) for d in services.ready_decks().values()]
    own = [(str(d.pk), d.name) for d in selectors.decks_of(request.user) if len(d.cards) == 60]
    return ready + own


@login_required
@require_GET
def home(request: AuthenticatedRequest) -> HttpResponse:
    return render(
        request,
        "tragic/home.html",
        {
            "games": selectors.games_of(request.user)[:30],
            "decks": selectors.decks_of(request.user),
            "deck_options": _deck_options(request),
            "bots": [(bot, bot_label(bot)) for bot in BOTS],
            "profiles": Profile.choices,
            "copy_modes": CopyMode.choices,
            "campaigns": [m.campaign for m in request.user.memberships.select_related("campaign")],
        },
    )


def _campaign_id(raw: str) -> int | None:
    """The campaign a new game is played in; an id no column holds (20 digits) is refused, not looked up."""
    if not raw:
        return None
    campaign_id = posted_id(raw)
    if campaign_id is None:
        raise ValueError("not a campaign id")
    return campaign_id


@login_required
@require_POST
def game_create(request: AuthenticatedRequest) -> HttpResponse:
    try:
        game = services.game_create(
            user=request.user,
            deck_ref=request.POST.get("deck", ""),
            opponent=request.POST.get("opponent", ""),
            profile=request.POST.get("profile", "wiki") if request.POST.get("profile") in Profile.values else "wiki",
            reaction_seconds=max(10, min(600, int(request.POST.get("reaction_seconds") or 60))),
            copy_mode=request.POST.get("copy_mode", "quad"),
            timer_minutes=bounded_int(request.POST.get("timer_minutes"), default=0, low=0, high=24 * 60) or None,
            campaign_id=_campaign_id(request.POST.get("campaign", "")),
            mulligan_agreed=request.POST.get("mulligan_agreed") == "on",
            players=bounded_int(request.POST.get("players"), default=2, low=2, high=4),
        )
    except (ServiceError, ValueError) as error:
        messages.error(request, getattr(error, "message", "") or _("That form could not be read: check its numbers."))
        return redirect("tragic:home")
    return redirect(game)


@login_required
@require_http_methods(["GET", "POST"])
def invitation(request: AuthenticatedRequest, token: str) -> HttpResponse:
    game = get_object_or_404(Game.objects.prefetch_related("seats__user"), invite_token=token)
    if request.method == "POST":
        try:
            game = services.game_join(token=token, user=request.user, deck_ref=request.POST.get("deck", ""))
        except ServiceError as error:
            messages.error(request, error.message)
            return redirect("tragic:invitation", token=token)
        return redirect(game)
    return render(request, "tragic/invitation.html", {"game": game, "deck_options": _deck_options(request)})


def _game_for(request: AuthenticatedRequest, pk: int) -> Game:
    game = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=pk)
    if selectors.seat_of(game, request.user) is None:
        raise Http404
    return game


def _reach_game(request: AuthenticatedRequest, pk: int, **_: Any) -> None:
    """404 unless the visitor sits at the game (before the method is checked: core.http.allow_methods)."""
    if not Game.objects.filter(pk=pk, seats__user_id=request.user.pk).exists():
        raise Http404


def _reach_deck(request: AuthenticatedRequest, pk: int, **_: Any) -> None:
    """404 unless the deck is the visitor's (before the method is checked)."""
    get_object_or_404(Deck, pk=pk, owner=request.user)


def _render_board(request: AuthenticatedRequest, game: Game, *, status: int = 200, error: str = "") -> HttpResponse:
    # The answer shows the board at this version (X-Live-Position): the page drops pushes of older versions.
    answer_position.note(board_stream("tragic", game.pk), game.version)
    context = selectors.board(game, selectors.seat_of(game, request.user))
    context["error"] = error
    template = "tragic/game.html#board" if request.htmx else "tragic/game.html"
    response = render(request, template, context, status=status)
    response["Vary"] = "HX-Request"
    return response


@login_required
@allow_methods("GET", reach=_reach_game)
def game(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    return _render_board(request, _game_for(request, pk))


def _action_from(post: Any) -> dict[str, Any]:
    kind = post.get("kind")
    if kind in ("choose_traits", "choose_skills"):
        field = "traits" if kind == "choose_traits" else "skills"
        return {"kind": kind, field: post.getlist(field)}
    if kind == "discover":
        cards = [int(u) for u in post.getlist("card")]
        return {"kind": "discover", "placements": [[u, post.get(f"place_{u}", "top")] for u in cards]}
    if kind == "keep":
        return {"kind": "keep", "bottom": [int(u) for u in post.getlist("bottom")]}
    action = loads_limited(post.get("action") or "{}")  # bounded size and depth: a RecursionError was a 500
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
        raise ValueError("not an action")  # a kind that is no word was a 500 (a set lookup of a list)
    if action["kind"] == "block":
        blockers = action.get("blockers", [])
        if not isinstance(blockers, list):
            raise ValueError("not an action")  # a number as the blockers was a 500 (iterated below)
        if any(f"split_{u}" in post for u in blockers):
            action["split"] = [int(post.get(f"split_{u}") or 0) for u in blockers]
    if "pay" in action and any(f"pay_{a}" in post for a in ATTRIBUTES):
        action["pay"] = {a: int(post.get(f"pay_{a}") or 0) for a in ATTRIBUTES if int(post.get(f"pay_{a}") or 0)}
    return action


@login_required
@allow_methods("POST", reach=_reach_game)
def game_act(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    game = _game_for(request, pk)
    try:
        action = _action_from(request.POST)
        version = int(request.POST.get("version", "-1"))
    except ValueError:
        return HttpResponseBadRequest("bad action")
    try:
        game = services.game_act(game=game, user=request.user, action=action, expected_version=version)
    except ServiceError as error:
        game.refresh_from_db()
        return _render_board(request, game, status=error.status, error=error.message)
    if not request.htmx:
        return redirect(game)
    return _render_board(request, game)


def _post_versioned(request: AuthenticatedRequest, pk: int, service: Any) -> HttpResponse:
    """A POST that only carries the board's version (a timeout, a cancel): the service's refusal is shown on
    the refreshed board; without htmx, the board is reached again by a redirect."""
    game = _game_for(request, pk)
    try:
        game = service(game=game, user=request.user, expected_version=int(request.POST.get("version", "-1")))
    except (ServiceError, ValueError) as error:
        game.refresh_from_db()
        return _render_board(request, game, status=getattr(error, "status", 400), error=getattr(error, "message", ""))
    if not request.htmx:
        return redirect(game)
    return _render_board(request, game)


@login_required
@allow_methods("POST", reach=_reach_game)
def game_timeout(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    return _post_versioned(request, pk, services.game_timeout)


@login_required
@allow_methods("POST", reach=_reach_game)
def game_cancel(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    return _post_versioned(request, pk, services.game_cancel)


@login_required
@allow_methods("GET", reach=_reach_game)
def replay(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Steps through a finished game from its action list (spectator's view: no hand is shown)."""
    game = _game_for(request, pk)
    if game.status != GameStatus.FINISHED:
        raise Http404
    total = len(game.actions)
    try:
        step = max(0, min(total, int(request.GET.get("step", total))))
    except ValueError:
        step = total
    state = services.replay(game, step)
    context = selectors.board(game, None, state)
    context.update({"step": step, "total": total, "previous": max(0, step - 1), "next": min(total, step + 1)})
    if step:
        names = player_names([p["name"] for p in context["obs"]["players"]])
        before = services.replay(game, step - 1)
        context["last_action"] = describe_action(before, game.actions[step - 1], names)
        actor = game.actions[step - 1].get("player")
        context["last_actor"] = names[actor] if isinstance(actor, int) and 0 <= actor < len(names) else ""
    return render(request, "tragic/replay.html", context)


# -- deck builder -------------------------------------------------------------------------------------


@login_required
@require_POST
def deck_create(request: AuthenticatedRequest) -> HttpResponse:
    form = DeckCreateForm(request.POST)
    if not form.is_valid():
        messages.error(request, "; ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("tragic:home")
    try:
        deck = services.deck_create(
            owner=request.user, name=form.cleaned_data["name"], copy_mode=form.cleaned_data["copy_mode"]
        )
    except ValidationError as error:
        messages.error(request, "; ".join(error.messages))
        return redirect("tragic:home")
    return redirect(deck)


def _deck_context(deck: Deck, error: str = "", opened: str | None = None) -> dict[str, Any]:
    """``opened``: the SPECIAL column to show open (the one a card was just added to or removed from)."""
    pool = default_pool()
    report = validate_library(deck.cards, pool, copy_mode=deck.copy_mode, profile="wiki")
    counts: dict[str, int] = {}
    for cid in deck.cards:
        counts[cid] = counts.get(cid, 0) + 1
    columns = []
    for attribute in ATTRIBUTES:
        cards = [c for c in pool.cards.values() if c.attribute == attribute and c.type not in ("trait", "skill")]
        columns.append(
            {
                "name": attribute_name(attribute),
                "open": attribute == opened,
                "cards": [
                    {
                        "id": c.id,
                        "name": card_name(c.id),
                        "text": card_text(c.id),
                        "type": c.type,
                        "count": counts.get(c.id, 0),
                    }
                    for c in sorted(cards, key=lambda c: (c.type, c.name, c.level))
                ],
            }
        )
    chosen = [
        {"id": cid, "name": card_name(cid), "count": n}
        for cid, n in sorted(counts.items(), key=lambda kv: card_name(kv[0]))
    ]
    problems = {
        "errors": [library_problem(e) for e in report.errors],
        "warnings": [library_problem(w) for w in report.warnings],
    }
    return {"deck": deck, "report": report, "problems": problems, "columns": columns, "chosen": chosen, "error": error}


@login_required
@allow_methods("GET", reach=_reach_deck)
def deck(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    deck = get_object_or_404(Deck, pk=pk, owner=request.user)
    return render(request, "tragic/deck.html", _deck_context(deck))


@login_required
@allow_methods("POST", reach=_reach_deck)
def deck_change(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    deck = get_object_or_404(Deck, pk=pk, owner=request.user)
    status, error = 200, ""
    try:
        deck = services.deck_change(
            deck=deck, actor=request.user, add=request.POST.get("add"), remove=request.POST.get("remove")
        )
    except ServiceError as refusal:
        status, error = refusal.status, refusal.message
    template = "tragic/deck.html#deck-panel" if request.htmx else "tragic/deck.html"
    if not request.htmx and not error:
        return redirect(deck)
    # The column the card belongs to stays open, so that the next card is one tap away.
    changed = default_pool().cards.get(request.POST.get("add") or request.POST.get("remove") or "")
    opened = changed.attribute if changed is not None else None
    return render(request, template, _deck_context(deck, error, opened), status=status)
