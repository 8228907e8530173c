"""The campaign's Savage-style options and a character's sheet entries (dice, Pace, Parry)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.services import campaign_settings_update, event_append
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
    attribute_traits: dict[str, str] | None = None,
) -> SavageSettings:
    """The campaign's Savage-style options. A form drawn before another narrator's save is refused when it would
    change anything; saved as it was shown, it changes nothing and is not refused."""
    SavageSettings.objects.get_or_create(campaign=campaign)
    settings = SavageSettings.objects.select_for_update().get(campaign=campaign)
    try:
        mapping = {str(k): v for k, v in validated_mapping(rank_dice).items()}
    except ValueError as exc:
        raise ServiceError(_("Each rank needs a trait die such as d4, d8 or d12+1.")) from exc
    weigh = settings.weigh_on_cecj if weigh_on_cecj is None else weigh_on_cecj
    changed: dict[str, list[Any]] = {}
    for field, value in (("revers_to_wounds", revers_to_wounds), ("weigh_on_cecj", weigh)):
        if getattr(settings, field) != value:
            changed[field] = [getattr(settings, field), value]
    dice = {rank: [settings.rank_dice.get(rank, ""), die] for rank, die in mapping.items()}
    changed.update({f"rank_{rank}": pair for rank, pair in dice.items() if pair[0] != pair[1]})
    reads = dict(settings.attribute_traits or {}) if attribute_traits is None else dict(attribute_traits)
    names = _aptitude_names(campaign)
    if any(code not in names for code in reads.values()):
        raise ServiceError(_("Choose an Aptitude of the campaign's trait list."))
    for trait in ("vigor", "spirit", "agility", "smarts"):
        old, new = (settings.attribute_traits or {}).get(trait, ""), reads.get(trait, "")
        if old != new:
            # Names, not codes, so that the log reads « Force » (an empty one reads as « none »: by its name).
            changed[f"reads_{trait}"] = [names.get(old, old), names.get(new, new)]
    if not changed:
        return settings
    if settings.version != expected_version:
        raise StaleState(_("Someone changed these settings first. Reload the page and try again."))
    settings.revers_to_wounds = revers_to_wounds
    settings.weigh_on_cecj = weigh
    settings.rank_dice = mapping
    settings.attribute_traits = reads
    settings.version += 1
    settings.save()
    event_append(
        campaign=campaign,
        kind="savage.settings_changed",
        actor=actor,
        payload={"revers_to_wounds": revers_to_wounds, "weigh_on_cecj": settings.weigh_on_cecj, "rank_dice": mapping,
                 "changed": changed},
    )  # fmt: skip
    return settings


def _aptitude_names(campaign: Campaign) -> dict[str, str]:
    from characters.rules.traits import TraitKind
    from characters.selectors import character_rules, trait_defs

    return {t.code: t.name_fr for t in trait_defs(character_rules(campaign)) if t.kind == TraitKind.APTITUDE}


@transaction.atomic
def savage_options_update(
    *,
    campaign: Campaign,
    actor: User,
    savage_states: bool,
    campaign_version: int,
    revers_to_wounds: bool,
    weigh_on_cecj: bool,
    rank_dice: dict[str, str],
    expected_version: int,
    attribute_traits: dict[str, str] | None = None,
) -> None:
    """The settings page's « Savage-style states » section: whether the campaign uses them (a campaign setting)
    and their options, saved together or not at all."""
    campaign_settings_update(
        campaign=campaign, actor=actor, data={"savage_states": savage_states}, expected_version=campaign_version
    )
    savage_settings_update(
        campaign=campaign, actor=actor, revers_to_wounds=revers_to_wounds, weigh_on_cecj=weigh_on_cecj,
        rank_dice=rank_dice, expected_version=expected_version, attribute_traits=attribute_traits,
    )  # fmt: skip


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
