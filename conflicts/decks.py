"""The campaign's decks in the database: which deck a participant draws from, locked while dealing."""

from __future__ import annotations

import random

from django.db import IntegrityError, transaction

from campaigns.models import Campaign
from conflicts.models import Deck, DeckHolder, DeckKind, DeckLayout, Participant, SuccessRule, TableSettings
from conflicts.rules import cards as card_rules
from conflicts.rules.deck import DeckState, from_codes, new_deck
from core.prepared import PreparedRead

# Read by every Sequence page, odds and draw: compiled once (core.prepared); the row is made the first time.
_table_settings = PreparedRead(lambda campaign_id: TableSettings.objects.filter(campaign_id=campaign_id)[:1])


def table_settings(campaign: Campaign) -> TableSettings:
    cached = getattr(campaign, "_table_settings_cache", None)
    if cached is not None:
        return cached
    found = _table_settings(int(campaign.pk))
    if found:
        settings = found[0]
        settings.campaign = campaign
    else:
        settings, _created = TableSettings.objects.get_or_create(campaign=campaign)
    campaign._table_settings_cache = settings  # type: ignore[attr-defined]  # a cache on this instance, not a field
    return settings


def success_rule(settings: TableSettings) -> card_rules.SuccessRule:
    return card_rules.SuccessRule.RED if settings.success_rule == SuccessRule.RED else card_rules.SuccessRule.EVEN


def deck_address(settings: TableSettings, participant: Participant, use: str) -> tuple[str, str, int | None]:
    """(kind, holder, player id) of the deck a participant draws ``use`` (attack or defence) cards from.

    NPCs draw from the narrator's decks; PCs from their player's, or the players' shared pair. Method 2 draws
    from the 52-card deck, and defence from the 32-card deck when the table uses a smaller defence deck.
    """
    if settings.success_rule == SuccessRule.RED:
        if settings.layout == DeckLayout.SMALL_DEFENCE and use == "defence":
            return DeckKind.SMALL, DeckHolder.TABLE, None
        return DeckKind.FULL, DeckHolder.TABLE, None
    if settings.layout in (DeckLayout.TABLE, DeckLayout.SMALL_DEFENCE):
        return DeckKind.TABLE, DeckHolder.TABLE, None
    kind = DeckKind.ATTACK if use == "attack" else DeckKind.DEFENCE
    character = participant.character
    if character.kind == "npc" or character.owner_id is None:
        return kind, DeckHolder.NARRATOR, None
    if settings.layout == DeckLayout.PAIRS_PER_PLAYER:
        return kind, DeckHolder.PLAYER, character.owner_id
    return kind, DeckHolder.PLAYERS, None


def _fresh(kind: str) -> list[str]:
    state = new_deck(card_rules.DeckKind(kind), random.SystemRandom())
    return card_rules.codes(state.pile)


# A deck's row, locked, at its address (a player's deck, or the table's and the narrator's, which name no player):
# the first read of every draw, compiled once per thread. ``first()``'s row: the model's order, one row.
_locked_deck = PreparedRead(
    lambda campaign_id, holder, kind: Deck.objects.select_for_update().filter(
        campaign_id=campaign_id, kind=kind, holder=holder, player_id__isnull=True
    )[:1]
)
_locked_player_deck = PreparedRead(
    lambda campaign_id, holder, kind, player_id: Deck.objects.select_for_update().filter(
        campaign_id=campaign_id, kind=kind, holder=holder, player_id=player_id
    )[:1]
)


def deck_get(campaign: Campaign, kind: str, holder: str, player_id: int | None, *, lock: bool) -> Deck:
    """The deck at that address, created shuffled on first use; row-locked when ``lock``."""
    lookup = {"campaign": campaign, "kind": kind, "holder": holder, "player_id": player_id}
    if lock:  # every draw's first read: compiled once per thread (``core.prepared``)
        # Plain values in the SQL's order (Django sorts a filter's keywords): an enum member is a str of another type.
        at = (int(campaign.pk), str(holder), str(kind))
        found = _locked_deck(*at) if player_id is None else _locked_player_deck(*at, int(player_id))
        deck = found[0] if found else None
    else:
        deck = Deck.objects.filter(**lookup).first()
    if deck is not None:
        return deck
    try:
        with transaction.atomic():
            # The row this transaction inserts is no one else's until it commits: as good as locked.
            return Deck.objects.create(pile=_fresh(kind), **lookup)
    except IntegrityError:
        pass  # someone created it at the same instant: use theirs
    return (Deck.objects.select_for_update() if lock else Deck.objects).get(**lookup)


def state_of(deck: Deck) -> DeckState:
    return from_codes(card_rules.DeckKind(deck.kind), deck.pile, deck.in_play, deck.discard)


def store(deck: Deck, state: DeckState) -> None:
    deck.pile = card_rules.codes(state.pile)
    deck.in_play = card_rules.codes(state.in_play)
    deck.discard = card_rules.codes(state.discard)
    deck.version += 1
    deck.save(update_fields=["pile", "in_play", "discard", "version"])
