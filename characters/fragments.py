"""A character's sheet and dashboard panel, rendered once and kept by the character's version.

Every change to a sheet goes through a service that locks the character and bumps its ``version`` (the
optimistic-concurrency token every form posts back), and every change to its Savage-style state bumps the
state's ``version``: so (character, version, state version) names the content of a sheet's rows — traits,
Revers, gear, the Atout ledger, power feeds, the state badges. The key adds everything else the bytes
depend on: the campaign row (its name, options, ``version`` and the ``log_epoch`` that renames of members
and sessions bump), the campaign's character-options version, whether a session is open, the other
characters the reader may name (id and name), the reader's rights (narrator, owner), the reader's session
(the roll controls remember a difficulty there), the language and the time zone. A kept sheet or panel can
only be served to a reader whose own rendering would be the same bytes: rights are in the key, and the
view has already refused a reader who may not see the character.

The page (``characters.views.sheet``), the dashboard (``{% character_panel %}``) and the live layer can
all render through these functions, so a push reuses what a page kept (and the reverse).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from campaigns.kept import table_head
from characters.models import Character, CharacterKind
from characters.selectors import character_rules, characters_for_panels, session_open
from core.fragment_cache import kept

SHEET_TEMPLATE = "characters/detail.html#sheet"
PANEL_TEMPLATE = "characters/partials/panel.html"
PANEL_SEPARATOR = "\x1e"  # between the panels kept as one string (never in HTML)


@dataclass(frozen=True)
class CastRow:
    """One character of a campaign as keys need it: one light query reads them all."""

    pk: int
    name: str
    kind: str
    owner_id: int | None
    version: int
    state_version: int | None


def cast_of(campaign_id: int) -> list[CastRow]:
    """The campaign's characters in the dashboard's order, with their versions and their states' versions."""
    rows = (
        Character.objects.filter(campaign_id=campaign_id)
        .order_by("kind", "name", "pk")
        .values_list("pk", "name", "kind", "owner_id", "version", "savage_state__version")
    )
    return [CastRow(*row) for row in rows]


def _session(request: Any) -> tuple[tuple[str, Any], ...]:
    # The roll controls read the reader's remembered difficulty from the session (conflicts' sheet roll).
    session = getattr(request, "session", None)
    return tuple(sorted(session.items())) if session is not None else ()


def sheet_key(character: Character, membership: Any, request: Any = None) -> tuple[Any, ...]:
    """What decides the bytes of ``character``'s sheet for ``membership`` (``character`` loaded with its
    campaign and owner, as ``characters.access.character_for_viewer`` does): three light queries."""
    cast = cast_of(character.campaign_id)
    me = next((row for row in cast if row.pk == character.pk), None)
    others = [
        (row.pk, row.name) for row in cast
        if row.pk != character.pk
        and (membership.is_narrator or row.kind == CharacterKind.PC or row.owner_id == membership.user_id)
    ]  # fmt: skip
    rules = character_rules(character.campaign)  # kept on the campaign row for the sheet's own reads
    in_session = session_open(character.campaign)
    players: list[tuple[int, str]] = []
    if membership.is_narrator and character.kind == CharacterKind.NPC:
        # The « hand this ally to a player » form names the players.
        players = list(
            character.campaign.memberships.filter(role="player").order_by("pk").values_list("user_id", "user__username")
        )
    owner = character.owner.username if character.owner_id else None  # type: ignore[union-attr]  # owner_id set
    return (
        SHEET_TEMPLATE, character.pk, character.version, me.state_version if me else None, character.campaign,
        owner, rules.version, in_session, others, players,
        membership.is_narrator, membership.user_id, _session(request),
    )  # fmt: skip


def sheet_html(
    character: Character,
    membership: Any,
    context: Callable[[], dict[str, Any]],
    *,
    request: Any = None,
    token: str | None = None,
) -> SafeString:
    """``detail.html#sheet`` of ``character`` for ``membership``, kept by ``sheet_key``; ``context()``
    (``characters.views.sheet.sheet_context``) is only built when the sheet is not kept yet.

    ``token`` is the CSRF token to print (with a ``request`` and none given, the request's own)."""
    if token is None and request is not None:
        token = get_token(request)

    def render(csrf_token: str | None) -> str:
        return render_to_string(SHEET_TEMPLATE, {**context(), "csrf_token": csrf_token}, request=request)

    def inner(csrf_token: str | None) -> str:
        return kept("sheet", sheet_key(character, membership, request), render, csrf_token, template=SHEET_TEMPLATE)

    # Until the table changes (an Event moves the stream head), not even the key's three reads are needed.
    at = ("sheet-at", table_head(membership), character, membership, _session(request))
    return kept("sheet-at", at, inner, token, template=SHEET_TEMPLATE)


def panel_key(character: CastRow, campaign: Any, membership: Any, quick: Any, oob: Any) -> tuple[Any, ...]:
    """What decides the bytes of a character's panel: its version and its state's (traits, Revers, Atouts,
    badges), the campaign row (options, and the ``log_epoch`` an owner's new name bumps), the reader's role."""
    is_narrator = getattr(membership, "is_narrator", False)
    return (PANEL_TEMPLATE, character.pk, character.version, character.state_version, campaign, is_narrator,
            bool(quick), bool(oob))  # fmt: skip


def panels_html(campaign: Any, membership: Any, *, quick: Any = None, oob: Any = None) -> list[SafeString]:
    """The dashboard's panels of every character of ``campaign``, in order; only those not kept yet are
    loaded (``characters.selectors.characters_for_panels``) and rendered."""

    def all_panels(_token: str | None) -> str:
        return PANEL_SEPARATOR.join(_panels(campaign, membership, quick, oob))

    # Until the table changes (an Event moves the stream head), not even the characters' versions are read.
    at = ("panels-at", table_head(membership), campaign, membership, quick, oob)
    joined = kept("panels-at", at, all_panels, None, template=PANEL_TEMPLATE)
    return [mark_safe(html) for html in joined.split(PANEL_SEPARATOR)] if joined else []  # noqa: S308


def _panels(campaign: Any, membership: Any, quick: Any, oob: Any) -> list[SafeString]:
    cast = cast_of(campaign.pk)
    loaded: dict[int, Character] = {}

    def render_one(row: CastRow) -> Callable[[str | None], str]:
        def render(_token: str | None) -> str:
            if not loaded:
                loaded.update({character.pk: character for character in characters_for_panels(campaign)})
            character = loaded.get(row.pk) or characters_for_panels(campaign).get(pk=row.pk)
            context = {"character": character, "campaign": campaign, "membership": membership,
                       "quick": quick, "oob": oob}  # fmt: skip
            return render_to_string(PANEL_TEMPLATE, context)

        return render

    return [
        kept("panel", panel_key(row, campaign, membership, quick, oob), render_one(row), None, template=PANEL_TEMPLATE)
        for row in cast
    ]


def panel_html(character: Character, *, campaign: Any, membership: Any = None, quick: Any = None,
               oob: Any = None) -> SafeString:  # fmt: skip
    """One character's panel (``character`` loaded by ``characters_for_panels``), kept as ``panels_html``
    keeps it: for a live push of the panel (``quick`` and ``oob``)."""
    try:
        state_version = character.savage_state.version
    except ObjectDoesNotExist:
        state_version = None
    row = CastRow(character.pk, character.name, character.kind, character.owner_id, character.version, state_version)
    context = {"character": character, "campaign": campaign, "membership": membership, "quick": quick, "oob": oob}
    key = panel_key(row, campaign, membership, quick, oob)
    return kept("panel", key, lambda _token: render_to_string(PANEL_TEMPLATE, context), None, template=PANEL_TEMPLATE)
