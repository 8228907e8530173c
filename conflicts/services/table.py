"""The campaign's table settings and its decks (reshuffling one)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.services import event_append
from conflicts import decks as deck_store
from conflicts.models import (
    DeckLayout,
    SuccessRule,
    TableSettings,
)
from conflicts.rules import deck as deck_rules
from conflicts.services.changes import _member, _narrator, _rng
from core.errors import PermissionRefused, ServiceError, StaleState


@transaction.atomic
def table_settings_update(
    *, campaign: Campaign, actor: User, data: Mapping[str, Any], expected_version: int
) -> TableSettings:
    _narrator(campaign.pk, actor)
    """How the table draws. A form drawn before another narrator's save is refused when it would change anything;
    saved as it was shown, it changes nothing and is not refused."""
    settings = TableSettings.objects.select_for_update().get(pk=deck_store.table_settings(campaign).pk)
    changed = {}
    for field in ("success_rule", "layout", "cover_mode"):
        if field in data and getattr(settings, field) != data[field]:
            changed[field] = [getattr(settings, field), data[field]]
            setattr(settings, field, data[field])
    if settings.success_rule == SuccessRule.RED and settings.layout not in (DeckLayout.TABLE, DeckLayout.SMALL_DEFENCE):
        raise ServiceError(_("Method 2 counts red cards: it needs the table deck, not attack and defence decks."))
    if settings.success_rule != SuccessRule.RED and settings.layout == DeckLayout.SMALL_DEFENCE:
        raise ServiceError(_("The smaller defence deck is a method 2 option."))
    if not changed:
        return settings
    if settings.version != expected_version:
        raise StaleState(_("Someone changed the table settings first. Reload the page and try again."))
    settings.version += 1
    settings.full_clean()
    settings.save()
    event_append(campaign=campaign, kind="table.settings_changed", actor=actor, payload={"changed": changed})
    return settings


@transaction.atomic
def deck_reshuffle(*, campaign: Campaign, actor: User, kind: str, holder: str, player_id: int | None = None,
                   rng: random.Random | None = None) -> None:  # fmt: skip
    """The dealer's privilege: played cards go back under the pile and everything is shuffled."""
    membership = _member(campaign.pk, actor)
    if not membership.is_narrator and holder == "narrator":
        raise PermissionRefused(_("Only a narrator can shuffle the narrator's decks."))
    if not membership.is_narrator and holder == "player" and player_id != actor.pk:
        raise PermissionRefused(_("You can only shuffle your own decks."))
    deck = deck_store.deck_get(campaign, kind, holder, player_id, lock=True)
    state = deck_rules.reshuffle(deck_store.state_of(deck), _rng(rng))
    deck_store.store(deck, state)
    event_append(
        campaign=campaign, kind="deck.reshuffled", actor=actor,
        payload={"deck": str(deck), "kind": kind, "holder": holder, "pile": len(state.pile), "in_play": len(state.in_play)},
    )  # fmt: skip
