"""Pages of conflicts: scenes, sequences that read like a scene, the player's phone panel, tests."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.access import MemberRequest, campaign_member, campaign_narrator
from campaigns.live import console_subject, sequence_subject
from campaigns.models import Membership
from conflicts import decks as deck_store
from conflicts import selectors
from conflicts.decks_region import decks_html
from conflicts.forms import (
    DeclareForm,
    ModifiersForm,
    ParticipantAddForm,
    SceneForm,
    SequenceForm,
    SimpleConflictForm,
    split_from_post,
)
from conflicts.fudge_test_views import test_form
from conflicts.models import Deck, Participant, Scene, Sequence
from conflicts.odds_html import odds_html
from conflicts.regions import BoardOf, board_answer_html, board_html, leave_html
from conflicts.rules.budget import Budget, Split
from conflicts.services.atouts import participant_atout
from conflicts.services.changes import controls
from conflicts.services.drawing import draw_on_snapshot, participant_declare_split
from conflicts.services.sequences import participant_update, scene_create, sequence_create
from conflicts.services.settling import sequence_cut_short, sequence_settle
from conflicts.services.table import deck_reshuffle
from conflicts.setup import budget_of, can_attack, default_split, penalty_of
from core.errors import PermissionRefused, ServiceError
from core.http import AuthenticatedRequest, posted_next_or


def _membership(request: MemberRequest) -> Membership:
    return request.membership


@login_required
@require_GET
def home(request: AuthenticatedRequest) -> HttpResponse:
    memberships = Membership.objects.filter(user=request.user).select_related("campaign").order_by("campaign__name")
    return render(request, "conflicts/home.html", {"memberships": memberships})


@campaign_member
@require_http_methods(["GET", "POST"])
def scenes(request: MemberRequest, campaign_id: int) -> HttpResponse:
    membership = _membership(request)
    campaign = membership.campaign
    form = SceneForm(request.POST or None)
    if request.method == "POST":
        if not membership.is_narrator:
            raise PermissionDenied(_("Only a narrator can do this."))
        if form.is_valid():
            scene = scene_create(campaign=campaign, actor=request.user, **form.cleaned_data)
            return redirect(scene.get_absolute_url())
    return render(
        request,
        "conflicts/scenes.html",
        {
            "campaign": campaign,
            "membership": membership,
            "scenes": selectors.scenes_of(campaign),
            "form": form,
            "test_form": test_form(None, membership),
            "simple_form": SimpleConflictForm(campaign=campaign) if membership.is_narrator else None,
        },
        status=400 if form.errors else 200,
    )


@campaign_member
@require_http_methods(["GET", "POST"])
def scene(request: MemberRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    membership = _membership(request)
    scene = get_object_or_404(Scene, pk=scene_id, campaign_id=campaign_id)
    form = SequenceForm(request.POST or None)
    if request.method == "POST":
        if not membership.is_narrator:
            raise PermissionDenied(_("Only a narrator can do this."))
        if form.is_valid():
            sequence = sequence_create(scene=scene, actor=request.user, data=form.cleaned_data)
            return redirect(sequence.get_absolute_url())
    return render(
        request,
        "conflicts/scene.html",
        {"campaign": membership.campaign, "membership": membership, "scene": scene, "form": form,
         "sequences": scene.sequences.all()},
        status=400 if form.errors else 200,
    )  # fmt: skip


def _panel_context(
    request: HttpRequest | None, membership: Membership, participant: Participant, board: selectors.Board,
    split: Split | None = None, error: str = "", budget: Budget | None = None,
) -> dict[str, Any]:  # fmt: skip
    """What a draw panel shows; ``budget``: the participant's, when the caller has it already."""
    sequence = board.sequence
    everyone = [v.participant for v in board.views]
    settings = deck_store.table_settings(sequence.campaign)
    budget = budget if budget is not None else _budget(participant, board)
    view = next((v for v in board.views if v.participant.pk == participant.pk), None)
    shaken = view.shaken if view else False
    if split is None:
        split = default_split(participant, everyone, budget, shaken=shaken, collective=sequence.collective)
    attacks = can_attack(participant, everyone, shaken=shaken)
    odds = selectors.split_odds(sequence, participant, split, membership, everyone, board.states)
    return {
        "sequence": sequence,
        "campaign": sequence.campaign,
        "cover_attacker": settings.cover_mode == "attacker",
        "p": participant,
        "budget": budget,
        "split": split,
        "odds": odds,
        "opponents": [q for q in everyone if q.side != participant.side and q.active],
        "teammates": [q for q in everyone if q.side == participant.side and q.pk != participant.pk and q.active],
        "helpable": helpable(participant, everyone),
        "placed": split.cards,
        # Shaken (or out of range): every card that can defend goes to defence, attack-only cards stay out.
        "to_place": budget.to_place(can_attack=attacks),
        "set_aside": budget.total - budget.to_place(can_attack=attacks),
        "error": error,
        "version": sequence.version,
        "reasons": participant.split.get("reasons", {}),
        # The state cards (states.bridge): why this participant cannot draw, or that it may only defend.
        "blocked": view.blocked if view else "",
        "shaken": shaken,
    }


def _budget(participant: Participant, board: selectors.Board) -> Budget:
    sequence = board.sequence
    return budget_of(
        participant,
        sequence,
        deck_store.table_settings(sequence.campaign),
        penalty=penalty_of(participant, sequence, board.penalties),
        everyone=[v.participant for v in board.views],
        lowered=board.lowered,
        effects=board.effects,
    )


def _board(membership: Membership, sequence_id: int) -> selectors.Board:
    sequence = selectors.sequence_for(membership, sequence_id)
    return selectors.sequence_board(sequence, membership)


@campaign_member
@require_GET
def sequence(request: MemberRequest, campaign_id: int, sequence_id: int) -> HttpResponse:
    membership = _membership(request)
    if membership.is_narrator:
        # The console shows no draw panel: its board is built only if its region is not found kept (the reads of
        # the table's settings and states behind a board were most of the cost of a console found kept).
        return _sequence_page(request, membership, BoardOf(selectors.sequence_for(membership, sequence_id)))
    return _sequence_page(request, membership, _board(membership, sequence_id))


def _modifiers_form(participant: Participant, version: int) -> ModifiersForm:
    return ModifiersForm(
        instance=participant,
        initial={"version": version},
        auto_id=f"id_p{participant.pk}_%s",  # one form per participant: ids of their own
    )


def _sequence_page(
    request: HttpRequest, membership: Membership, board: selectors.Board | BoardOf,
    bound: ModifiersForm | None = None, status: int = 200, opened: int | None = None, adding: bool = False,
) -> HttpResponse:  # fmt: skip
    """The sequence page; ``bound`` is a participant's modifiers form sent back with what was typed in it.

    The other modifiers forms sit in closed folds and load when opened (``modifiers_form``): eight of
    them were 85 % of the page's cost. ``opened`` renders one of them open (the no-JavaScript path), as
    ``adding`` does the form that adds a participant.
    """

    narrator = membership.is_narrator
    thing = board if isinstance(board, BoardOf) else BoardOf(board.sequence, board)
    sequence = thing.sequence
    console_forms: dict[str, ModifiersForm] = {}
    if bound is not None:
        console_forms[str(bound.instance.pk)] = bound
    elif opened is not None:
        views = thing.built(membership).views
        participant = next((v.participant for v in views if v.participant.pk == opened), None)
        if participant is not None:
            console_forms[str(opened)] = _modifiers_form(participant, sequence.version)
    # The narrator's console shows every participant as a row whose panel loads when opened; a player's
    # page shows the draw panels of their own characters.
    panels = []
    if not narrator:
        built = thing.built(membership)
        panels = [
            _panel_context(request, membership, v.participant, built) for v in built.mine if not v.participant.drawn
        ]
    shown = board_html(thing, membership, request=request, console_forms=console_forms)
    leave = leave_html(thing, membership, request=request) if narrator and sequence.is_open else ""
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "board": thing.board,  # None for a console found kept (the page reads it for a player's panels only)
        "board_html": shown,
        "leave_html": leave,
        "sequence": sequence,
        "panels": panels,
        "decks_html": decks_html(thing, membership, request=request),
        # The socket sends this Sequence's board and panels (on the narrator's console, the panels opened).
        "live_watch": [sequence_subject(sequence.pk), console_subject(sequence.pk)]
        if narrator
        else sequence_subject(sequence.pk),
        "add_form": ParticipantAddForm(sequence=sequence) if narrator and adding else None,
    }
    return render(request, "conflicts/sequence.html", context, status=status)


@campaign_narrator
@require_GET
def modifiers_form(request: MemberRequest, campaign_id: int, participant_id: int) -> HttpResponse:
    """A participant's modifiers form, fetched when the narrator opens its fold (htmx); without
    JavaScript, the sequence page with that fold open."""
    membership = _membership(request)
    participant = get_object_or_404(Participant, pk=participant_id, sequence__campaign_id=campaign_id)
    if not request.htmx:
        return _sequence_page(request, membership, _board(membership, participant.sequence_id), opened=participant.pk)
    sequence = selectors.sequence_for(membership, participant.sequence_id)
    participant.sequence = sequence
    form = _modifiers_form(participant, sequence.version)
    return render(
        request, "conflicts/partials/modifiers.html", {"campaign": membership.campaign, "p": participant, "form": form}
    )


@campaign_member
@require_GET
def panel(request: MemberRequest, campaign_id: int, participant_id: int) -> HttpResponse:
    """The phone-sized panel of one participant: trait, split, odds, Atouts, draw."""
    membership = _membership(request)
    participant = get_object_or_404(Participant.objects.select_related("sequence"), pk=participant_id,
                                    sequence__campaign_id=campaign_id)  # fmt: skip
    board = _board(membership, participant.sequence_id)
    mine = next((v.participant for v in board.views if v.participant.pk == participant.pk and v.controlled), None)
    if mine is None:
        raise Http404
    context = _panel_context(request, membership, mine, board)
    context.update({"membership": membership, "board": board, "declare_form": _declare_form(mine, board),
                    "live_watch": sequence_subject(board.sequence.pk)})  # fmt: skip
    if request.htmx and not request.htmx.boosted:
        # Opened from a row of the narrator's console: the draw panel and the Atouts after the draw (a boosted
        # navigation, such as the redirect after an Atout spent from the panel, gets the whole page).
        view = next(v for v in board.views if v.participant.pk == mine.pk)
        context.update({"view": view, "next_url": board.sequence.get_absolute_url()})
        return render(request, "conflicts/partials/console_panel.html", context)
    context["board_html"] = board_html(board, membership, request=request)
    return render(request, "conflicts/panel.html", context)


def _declare_form(participant: Participant, board: selectors.Board) -> DeclareForm:
    initial = {"goal": participant.goal, "trait_code": participant.trait_code, "version": board.sequence.version}
    return DeclareForm(participant=participant, initial=initial)


def _mine(
    request: MemberRequest, campaign_id: int, participant_id: int
) -> tuple[Membership, list[Participant], Participant]:
    """The caller's participant (404 unless they control it) and everyone in its sequence, without the board."""
    membership = _membership(request)
    sequence = selectors.sequence_of_participant(membership, participant_id)
    everyone = selectors.participants_of(sequence)
    mine = next((p for p in everyone if p.pk == participant_id), None)
    if mine is None or not controls(membership, mine):
        raise Http404
    mine.sequence = sequence
    return membership, everyone, mine


def _expected(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


@campaign_member
@require_http_methods(["GET", "POST"])
def odds(request: MemberRequest, campaign_id: int, participant_id: int) -> HttpResponse:
    """htmx: the odds of the split being entered, computed afresh on every change of it. Nothing is kept:
    measured beside a bare page, the whole answer with its reads costs less than the page does, so a kept copy
    would only add a key to keep right."""
    membership, everyone, me = _mine(request, campaign_id, participant_id)
    board = selectors.sequence_board(me.sequence, membership, everyone, story=False)
    budget = _budget(me, board)
    view = next(v for v in board.views if v.participant.pk == me.pk)
    to_place = budget.to_place(can_attack=can_attack(me, everyone, shaken=view.shaken))
    split, _reasons = split_from_post(request.GET if request.method == "GET" else request.POST, me, everyone)
    odds = selectors.split_odds(board.sequence, me, split, membership, everyone, board.states)
    response = HttpResponse(odds_html(me.pk, board.sequence.version, split.cards, to_place, odds))
    # Asked again on each change: the browser keeps no copy to reuse without asking.
    patch_cache_control(response, private=True, no_cache=True)
    return response


@campaign_member
@require_POST
def split_submit(request: MemberRequest, campaign_id: int, participant_id: int) -> HttpResponse:
    """Save the split (``action=declare``) or draw with it (``action=draw``). A draw reads the split sent against
    the snapshot the rules decide on (``conflicts.snapshot``), and its answer is built from that snapshot."""
    if request.POST.get("action") == "declare":
        membership, everyone, me = _mine(request, campaign_id, participant_id)
        split, reasons = split_from_post(request.POST, me, everyone)
        try:
            participant_declare_split(participant=me, actor=request.user, split=split, reasons=reasons)
        except ServiceError as exc:
            return _panel_response(request, membership, me, split=split, error=exc.message, status=exc.status)
        messages.success(request, _("Split saved."))
        return _panel_response(request, membership, me) if request.htmx else _back(request, me)
    membership = _membership(request)
    sequence = selectors.sequence_of_participant(membership, participant_id)
    try:
        drawn = draw_on_snapshot(
            sequence=sequence, participant_id=participant_id, actor=request.user, membership=membership,
            expected_version=_expected(request),
            read_split=lambda me, everyone: split_from_post(request.POST, me, everyone),
        )  # fmt: skip
    except PermissionRefused as exc:
        raise Http404 from exc  # as for a participant of another table: nothing of it is shown
    except ServiceError as exc:
        membership, everyone, me = _mine(request, campaign_id, participant_id)
        split, _reasons = split_from_post(request.POST, me, everyone)
        return _panel_response(request, membership, me, split=split, error=exc.message, status=exc.status)
    if request.htmx:
        # The board as the use case left it: its snapshot, written (conflicts.snapshot), read again from nowhere.
        board = selectors.sequence_board(drawn.snapshot.sequence, membership, snapshot=drawn.snapshot)
        return _panel_response(request, membership, drawn.me, board=board)
    return _back(request, drawn.me)


def _panel_response(
    request: AuthenticatedRequest, membership: Membership, me: Participant, *, split: Split | None = None, error: str = "",
    status: int = 200, board: selectors.Board | None = None,
) -> HttpResponse:  # fmt: skip
    """The panel again: the refusal's reason, or the cards just drawn (with the board); ``board``: as the use case
    left it, else fresh from the database."""
    board = board if board is not None else _board(membership, me.sequence_id)
    me = next(v.participant for v in board.views if v.participant.pk == me.pk)
    context = _panel_context(request, membership, me, board, split=split, error=error)
    context.update({"membership": membership, "board": board, "live_watch": sequence_subject(board.sequence.pk)})
    if not request.htmx:
        # Only the whole page shows the form declaring the goal and trait (it reads the character's sheet).
        context["declare_form"] = _declare_form(me, board)
        context["board_html"] = board_html(board, membership, request=request)
        return render(request, "conflicts/panel.html", context, status=status)
    response = render(request, "conflicts/partials/panel_form.html", context, status=status)
    # What the request changed of the board, as its push sends it (the whole board after a refusal).
    response.content += board_answer_html(board, membership, request=request).encode()
    if not error:
        # The same person's other panels on the page (a narrator's NPCs) now need the new version.
        for view in board.mine:
            if view.participant.pk != me.pk and not view.participant.drawn:
                other = _panel_context(request, membership, view.participant, board)
                other.update({"membership": membership, "board": board, "oob": True})
                response.content += render(request, "conflicts/partials/panel_form.html", other).content
    return response


def _back(request: HttpRequest, participant: Participant) -> HttpResponse:
    default = reverse("conflicts:panel", args=[participant.sequence.campaign_id, participant.pk])
    return redirect(posted_next_or(request, default))


@campaign_member
@require_POST
def declare(request: MemberRequest, campaign_id: int, participant_id: int) -> HttpResponse:
    _member, _everyone, me = _mine(request, campaign_id, participant_id)
    form = DeclareForm(request.POST, participant=me)
    if form.is_valid():
        try:
            participant_update(
                participant=me, actor=request.user, expected_version=form.cleaned_data["version"],
                data={"goal": form.cleaned_data["goal"], "trait_code": form.cleaned_data["trait_code"]},
            )  # fmt: skip
        except ServiceError as exc:
            messages.error(request, exc.message)
    return _back(request, me)


@campaign_narrator
@require_POST
def modifiers(request: MemberRequest, campaign_id: int, participant_id: int) -> HttpResponse:
    participant = get_object_or_404(Participant.objects.select_related("sequence"), pk=participant_id,
                                    sequence__campaign_id=campaign_id)  # fmt: skip
    auto_id = f"id_p{participant.pk}_%s"
    form = ModifiersForm(request.POST, instance=Participant.objects.get(pk=participant.pk), auto_id=auto_id)
    if form.is_valid():
        helpers = ("version", "range_band", "shooter_weapon", "vehicle_model")
        data = {k: v for k, v in form.cleaned_data.items() if k not in helpers}
        try:
            participant_update(participant=participant, actor=request.user, data=data,
                                        expected_version=form.cleaned_data["version"])  # fmt: skip
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            return redirect(participant.sequence.get_absolute_url())
        status = 409
    else:
        messages.error(request, _("Check the modifiers: %(errors)s") % {"errors": form.errors.as_text()})
        status = 400
    # Refused: the page again, with the figures the narrator typed still in the form (at the current
    # version, so that sending it again applies them once checked).
    membership = _membership(request)
    board = _board(membership, participant.sequence_id)
    data = request.POST.copy()
    data["version"] = str(board.sequence.version)
    again = ModifiersForm(data, instance=Participant.objects.get(pk=participant.pk), auto_id=auto_id)
    again.is_valid()
    return _sequence_page(request, membership, board, bound=again, status=status)


@campaign_member
@require_POST
def atout(request: MemberRequest, campaign_id: int, participant_id: int) -> HttpResponse:
    membership, everyone, me = _mine(request, campaign_id, participant_id)
    target = next((p for p in everyone if str(p.pk) == request.POST.get("target")), None)
    # A changed card is posted as « ref|direction » (conflicts.card_changes): the card and what it becomes.
    card, _bar, direction = request.POST.get("card", "").partition("|")
    try:
        participant_atout(
            participant=me, actor=request.user, use=request.POST.get("use", ""), expected_version=_expected(request),
            target=target, card=card, direction=direction, justification=request.POST.get("justification", ""),
        )  # fmt: skip
    except ServiceError as exc:
        if request.htmx and request.POST.get("use") in AFTER_DRAW_USES:
            return _after_draw_response(request, membership, me, error=exc.message, status=exc.status)
        messages.error(request, exc.message)
    else:
        if request.htmx and request.POST.get("use") in AFTER_DRAW_USES:
            return _after_draw_response(request, membership, me, feedback=_("Atout spent."))
        messages.success(request, _("Atout spent."))
    return _back(request, me)


# The Atouts offered once the cards are on the table (after_draw.html): their answer is that card and the board,
# swapped in place, rather than the whole page again.
AFTER_DRAW_USES = ("redraw", "change", "take_revers")


def _after_draw_response(
    request: AuthenticatedRequest, membership: Membership, me: Participant, *, error: str = "", feedback: str = "",
    status: int = 200,
) -> HttpResponse:  # fmt: skip
    board = _board(membership, me.sequence_id)
    view = next(v for v in board.views if v.participant.pk == me.pk)
    sequence = board.sequence
    context = {"p": view.participant, "view": view, "board": board, "sequence": sequence,
               "campaign": sequence.campaign, "next_url": sequence.get_absolute_url(), "error": error,
               "feedback": feedback}  # fmt: skip
    response = render(request, "conflicts/partials/after_draw_slot.html", context, status=status)
    response.content += board_answer_html(board, membership, request=request).encode()
    return response


@campaign_narrator
@require_POST
def settle(request: MemberRequest, campaign_id: int, sequence_id: int) -> HttpResponse:
    membership = _membership(request)
    sequence = selectors.sequence_for(membership, sequence_id)
    try:
        sequence_settle(sequence=sequence, actor=request.user, expected_version=_expected(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The Revers are on the sheets."))
    return redirect(sequence.get_absolute_url())


@campaign_member
@require_POST
def cut(request: MemberRequest, campaign_id: int, sequence_id: int) -> HttpResponse:
    membership = _membership(request)
    sequence = selectors.sequence_for(membership, sequence_id)
    try:
        sequence_cut_short(sequence=sequence, actor=request.user, side=request.POST.get("side", ""),
                                    choice=request.POST.get("choice", "cut"), expected_version=_expected(request))  # fmt: skip
    except (ServiceError, ValueError) as exc:
        messages.error(request, getattr(exc, "message", _("Choose to cut short or to go on.")))
    return redirect(posted_next_or(request, sequence.get_absolute_url()))


def panel_fragment(
    membership: Membership, board: selectors.Board, participant: Participant, csrf_token: str = ""
) -> str:
    """A participant's draw panel as an out-of-band swap, for the live feed (``csrf_token``: the page's, or the live
    layer's marker for it)."""
    context = _panel_context(None, membership, participant, board)
    # A push has no request: its forms go back to the Sequence page, as that page's own GET says (without JavaScript,
    # where « next » is read, no push arrives).
    context.update({"membership": membership, "board": board, "oob": True, "csrf_token": csrf_token,
                    "next_url": board.sequence.get_absolute_url()})  # fmt: skip
    return render_to_string("conflicts/partials/panel_form.html", context)


def helpable(participant: Participant, everyone: list[Participant]) -> list[Participant]:
    """The teammates ``participant`` may help before the draw (app. 4: « Deux Atouts permettent de donner un bonus de
    +1 Carte […] à un autre personnage »): on its side, in play, and not drawn yet (``participant_atout`` refuses the
    others)."""
    return [q for q in everyone if q.side == participant.side and q.pk != participant.pk and q.active and not q.drawn]


def atouts_fragment(
    sequence: Sequence, everyone: list[Participant], participant: Participant, csrf_token: str = ""
) -> str:
    """A participant's Atout buttons before the draw and the version its split is sent with, both carrying the
    sequence's current version (live feed), so that a teammate's draw does not make them stale (``everyone``: the
    Sequence's participants, in the board's order)."""
    context = {"sequence": sequence, "p": participant, "helpable": helpable(participant, everyone),
               "version": sequence.version, "next_url": sequence.get_absolute_url(),
               "csrf_token": csrf_token}  # fmt: skip
    inner = render_to_string("conflicts/partials/atouts_before.html", context)
    version = sequence.version
    return (
        f'<div id="atouts-{participant.pk}" hx-swap-oob="innerHTML">{inner}</div>'
        f'<input type="hidden" name="version" value="{version}" id="split-version-{participant.pk}" hx-swap-oob="true">'
    )


@campaign_member
@require_POST
def reshuffle(request: MemberRequest, campaign_id: int, deck_id: int) -> HttpResponse:
    """The dealer's privilege, for whoever deals that deck (the service says who may)."""
    membership = _membership(request)
    deck = get_object_or_404(Deck, pk=deck_id, campaign_id=campaign_id)
    try:
        deck_reshuffle(campaign=membership.campaign, actor=request.user, kind=deck.kind, holder=deck.holder,
                                player_id=deck.player_id)  # fmt: skip
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        # The page comes back the same (the pile's counts aside): say what the tap did.
        messages.success(request, _("Deck shuffled: %(deck)s.") % {"deck": deck})
    return redirect(posted_next_or(request, reverse("conflicts:scenes", args=[campaign_id])))
