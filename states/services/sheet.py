"""The campaign's Savage-style options and a character's sheet entries (dice, Pace, Parry)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.services import event_append
from characters.models import Character
from core.errors import ServiceError, StaleState
from states.models import SavageSettings, SavageState
from states.rules.dice import TraitDie
from states.rules.ranks import validated_mapping
from states.selectors import trait_die
from states.services.changes import _lock, _log


@transaction.atomic
def savage_settings_update(
    *,
    campaign: Campaign,
    actor: User,
    revers_to_wounds: bool,
    rank_dice: dict[str, str],
    expected_version: int,
    weigh_on_cecj: bool | None = None,
) -> SavageSettings:
    SavageSettings.objects.get_or_create(campaign=campaign)
    settings = SavageSettings.objects.select_for_update().get(campaign=campaign)
    if settings.version != expected_version:
        raise StaleState(_("Someone changed these settings first. Reload the page and try again."))
    try:
        mapping = {str(k): v for k, v in validated_mapping(rank_dice).items()}
    except ValueError as exc:
        raise ServiceError(_("Each rank needs a trait die such as d4, d8 or d12+1.")) from exc
    settings.revers_to_wounds = revers_to_wounds
    if weigh_on_cecj is not None:
        settings.weigh_on_cecj = weigh_on_cecj
    settings.rank_dice = mapping
    settings.version += 1
    settings.save()
    event_append(
        campaign=campaign,
        kind="savage.settings_changed",
        actor=actor,
        payload={"revers_to_wounds": revers_to_wounds, "weigh_on_cecj": settings.weigh_on_cecj, "rank_dice": mapping},
    )
    return settings


@transaction.atomic
def savage_sheet_update(
    *, character: Character, actor: User, data: dict[str, Any], expected_version: int | None
) -> SavageState:
    """The dice and base values entered on the sheet (an empty die is derived from the rank)."""
    state = _lock(character, expected_version)
    for trait in ("vigor", "spirit", "agility", "smarts"):
        text = (data.get(f"{trait}_die") or "").strip()
        if text:
            try:
                text = str(TraitDie.parse(text))
            except ValueError as exc:
                raise ServiceError(_("“%(die)s” is not a trait die (d4 … d12, d12+1).") % {"die": text}) from exc
        setattr(state, f"{trait}_die", text)
    for field in ("wild_card", "base_pace", "base_parry"):
        if field in data:
            setattr(state, field, data[field])
    state.version += 1
    state.full_clean()
    state.save()
    _log(
        state,
        kind="savage.sheet_changed",
        actor=actor,
        payload={
            "dice": {t: str(trait_die(state, t)) for t in ("vigor", "spirit", "agility", "smarts")},
            "wild_card": state.wild_card,
        },
    )
    return state
