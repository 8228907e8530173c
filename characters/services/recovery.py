"""Time passing on the campaign clock: Revers heal, psychic fatigue and Potential return, healing powers run."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db.models import Q

from campaigns.models import Campaign
from characters.models import (
    Character,
    CharacterTrait,
    PowerFeed,
    Revers,
)
from characters.rules import psychic
from characters.rules.revers import (
    recover,
    recovery_days,
)
from characters.selectors import character_rules

# ---------------------------------------------------------------- helpers
from characters.services.changes import _append, _bump
from characters.services.powers import _give_back, _healing_end, _physical_wounds, _recoverable_points


def run_clock_recovery(campaign: Campaign, old: dt.datetime, new: dt.datetime, actor: User) -> None:
    """Hook of ``campaigns.hooks.on_clock_advance``: Revers heal one card per period elapsed
    (« une Carte par jour » blunt and social, « 1 Carte par semaine » deep wounds, campaign settings),
    and Vigour lost to psychic fatigue returns one rank per 15 minutes."""
    elapsed = int((new - old).total_seconds())
    revers_rows = (
        Revers.objects.select_for_update()
        .select_related("character")
        .filter(character__campaign=campaign, severity__gt=0)
    )
    for revers in revers_rows:
        days = recovery_days(
            revers.nature, light_days=campaign.revers_recovery_light_days, deep_days=campaign.revers_recovery_deep_days
        )
        new_severity, carried = recover(revers.severity, revers.recovery_seconds + elapsed, days * 86400)
        old_severity = revers.severity
        revers.severity, revers.recovery_seconds = new_severity, carried
        if new_severity == 0:
            revers.healed_at = new
        revers.save(update_fields=["severity", "recovery_seconds", "healed_at"])
        if new_severity != old_severity:
            character = revers.character
            character.campaign = campaign
            _append(character, "character.revers_recovered", actor,
                    {"revers_id": revers.pk, "from": old_severity, "to": new_severity, "domain": revers.domain,
                     "domain_name": revers.domain_name})  # fmt: skip
    stopped = _clock_healing(campaign, elapsed, new, actor)
    _clock_psychic_rest(campaign, elapsed, new, actor, stopped)


def _clock_psychic_rest(
    campaign: Campaign, elapsed: int, new: dt.datetime, actor: User, stopped: Mapping[int, int] | None = None
) -> None:
    """The game clock as rest for psychic powers (``psychic.rest_recovery``): Vigour lost to fatigue comes
    back one rank per 15 minutes, Potentiel in full and fed traits to their rank after the campaign's night
    of rest; one event each. ``stopped``: characters whose healing power ended during this move, with the
    seconds of it left after the end (their rest starts there)."""
    stopped = stopped or {}
    night_hours = character_rules(campaign).potential_rest_hours
    used = set(
        CharacterTrait.objects.filter(character__campaign=campaign, potential_used__gt=0).values_list(
            "character_id", flat=True
        )
    )
    fed = set(
        PowerFeed.objects.filter(character__campaign=campaign, ranks_lost__gt=0).values_list("character_id", flat=True)
    )
    resting = Character.objects.select_for_update().filter(campaign=campaign)
    for character in resting.filter(Q(vigour_lost__gt=0) | Q(pk__in=used | fed)):
        points = _recoverable_points(character) if character.pk in used else []
        spent = character.pk in fed or bool(points)
        recovery = psychic.rest_recovery(
            rested_seconds=character.rested_seconds, elapsed_seconds=stopped.get(character.pk, elapsed),
            vigour_lost=character.vigour_lost, potential_used=spent, night_hours=night_hours,
        )  # fmt: skip
        before = character.vigour_lost
        character.campaign = campaign
        character.vigour_lost, character.rested_seconds = recovery.vigour_lost, recovery.rested_seconds
        _bump(character, "vigour_lost", "rested_seconds")
        if recovery.vigour_lost != before:
            _append(character, "character.vigour_recovered", actor, {"from": before, "to": recovery.vigour_lost})
        if recovery.potential_back:
            domains, restored = _give_back(character, points)
            _append(character, "character.potential_recovered", actor,
                    {"domains": domains, "restored": restored, "hours": night_hours, "at": new.isoformat()})  # fmt: skip


def _clock_healing(campaign: Campaign, elapsed: int, new: dt.datetime, actor: User) -> dict[int, int]:
    """Each running healing power over the clock's move (``psychic.heal``): heal, pay, or stop.
    Returns the characters whose healing stopped, with the game seconds of the move left after it."""
    stopped: dict[int, int] = {}
    for character in Character.objects.select_for_update().filter(campaign=campaign).exclude(healing_power=""):
        character.campaign = campaign
        power = psychic.healing_power(character.healing_power)
        wounds = _physical_wounds(character, campaign)
        row = CharacterTrait.objects.select_for_update().filter(character=character, code=power.domain).first()
        left = psychic.potential(row.rank) - row.potential_used if row else 0
        result = psychic.heal(
            power, wounds=[w for _r, w in wounds], carried_seconds=character.healing_seconds,
            elapsed_seconds=elapsed, potential_left=left,
            cycles_paid=character.healing_points // power.cost_per_cycle, domain_rank=row.rank if row else 0,
        )  # fmt: skip
        healed = []
        for revers, wound in wounds:
            after = result.severities[wound.key]
            if after != revers.severity:
                healed.append({"revers_id": revers.pk, "from": revers.severity, "to": after})
                revers.severity = after
                if after == 0:
                    revers.healed_at = new
                revers.save(update_fields=["severity", "healed_at"])
        if result.points and row is not None:
            row.potential_used += result.points
            row.save(update_fields=["potential_used"])
        character.healing_points += result.points
        character.healing_seconds = result.carried_seconds
        _bump(character, "healing_points", "healing_seconds")
        if result.cycles:
            _append(character, "character.healing_cycle", actor,
                    {"power": power.code, "cycles": result.cycles, "points": result.points, "healed": healed,
                     "potential_left": left - result.points})  # fmt: skip
        if result.stopped:
            _healing_end(character, actor, result.stopped, {"potential_left": left - result.points})
            stopped[character.pk] = result.seconds_after_stop
    return stopped
