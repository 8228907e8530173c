"""The campaign's character options and trait list, edited by the narrator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.services import event_append
from characters.models import (
    CharacterRules,
    Progression,
)
from characters.rules.traits import traits_from_dicts
from characters.selectors import character_rules

# ---------------------------------------------------------------- helpers
from characters.services.changes import _require_narrator
from core.errors import ServiceError, StaleState

RULES_FIELDS = (
    "players_name_traits", "human_maximum", "progression", "streamlined_atouts", "first_aid_lowers_wound",
    "psychic_fatigue", "potential_rest_hours", "npc_out_after", "single_atout_help", "trait_list",
)  # fmt: skip


@transaction.atomic
def character_rules_update(
    *, campaign: Campaign, actor: User, data: Mapping[str, Any], expected_version: int
) -> CharacterRules:
    """The narrator edits the campaign's trait list and character options."""
    _require_narrator(campaign.pk, actor)
    character_rules(campaign)
    rules = CharacterRules.objects.select_for_update().get(campaign=campaign)
    if rules.version != expected_version:
        raise StaleState(_("Someone changed these settings first. Reload the page and try again."))
    if "trait_list" in data:
        from characters.rules.errors import DataError

        try:
            traits_from_dicts(data["trait_list"], source=_("trait list"))
        except DataError as exc:
            raise ServiceError(str(exc)) from exc
    if data.get("progression") not in (None, "", *Progression.values):
        raise ServiceError(_("Unknown progression."))
    changed = []
    for field in RULES_FIELDS:
        if field in data and getattr(rules, field) != data[field]:
            setattr(rules, field, data[field])
            changed.append(field)
    if not changed:
        return rules
    rules.version += 1
    rules.full_clean()
    rules.save()
    campaign._character_rules_cache = rules  # type: ignore[attr-defined]  # a cache on this instance, not a field
    event_append(campaign=campaign, kind="character.rules_changed", actor=actor, payload={"fields": changed})
    return rules
