"""The campaign's character options and trait list, edited by the narrator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.services import campaign_settings_update, event_append
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
    "harm_weighs_everywhere",
)  # fmt: skip


@transaction.atomic
def character_rules_update(
    *, campaign: Campaign, actor: User, data: Mapping[str, Any], expected_version: int
) -> CharacterRules:
    """The narrator edits the campaign's character options (and, from older callers, the whole trait list).

    A form drawn before another narrator's save is refused when it would change anything; saved as it was shown,
    it changes nothing and is not refused."""
    _require_narrator(campaign.pk, actor)
    character_rules(campaign)
    rules = CharacterRules.objects.select_for_update().get(campaign=campaign)
    if "trait_list" in data:
        from characters.rules.errors import DataError

        try:
            traits_from_dicts(data["trait_list"], source=_("trait list"))
        except DataError as exc:
            raise ServiceError(str(exc)) from exc
    if data.get("progression") not in (None, "", *Progression.values):
        raise ServiceError(_("Unknown progression."))
    changed: dict[str, list[Any]] = {}
    for field in RULES_FIELDS:
        if field in data and getattr(rules, field) != data[field]:
            # The whole list is not copied into the log: its own edits say what changed (trait_list.changed).
            changed[field] = [] if field == "trait_list" else [getattr(rules, field), data[field]]
            setattr(rules, field, data[field])
    if not changed:
        return rules
    if rules.version != expected_version:
        raise StaleState(_("Someone changed these settings first. Reload the page and try again."))
    rules.version += 1
    rules.full_clean()
    rules.save()
    campaign._character_rules_cache = rules  # type: ignore[attr-defined]  # a cache on this instance, not a field
    event_append(
        campaign=campaign, kind="character.rules_changed", actor=actor,
        payload={"fields": list(changed), "changed": {f: pair for f, pair in changed.items() if pair}},
    )  # fmt: skip
    return rules


@transaction.atomic
def character_options_update(
    *,
    campaign: Campaign,
    actor: User,
    campaign_data: Mapping[str, Any],
    campaign_version: int,
    rules_data: Mapping[str, Any],
    rules_version: int,
) -> None:
    """The settings page's « Characters » section: how characters are made and grow (the campaign's creation mode,
    starting Atouts, session award and healing times) and the character options, saved together or not at all."""
    _require_narrator(campaign.pk, actor)
    campaign_settings_update(campaign=campaign, actor=actor, data=campaign_data, expected_version=campaign_version)
    character_rules_update(campaign=campaign, actor=actor, data=rules_data, expected_version=rules_version)
