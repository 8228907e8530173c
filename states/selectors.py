"""Reads of the Savage-style states: trait dice, card states, badges, the round tracker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Q, QuerySet

from campaigns.models import Membership
from characters.access import viewable_characters
from characters.models import Character
from core.prepared import PreparedRead
from states.models import SavageFatigue, SavageRound, SavageSettings, SavageState
from states.rules import fatigue as fatigue_rules
from states.rules.dice import TraitDie
from states.rules.ranks import die_for_rank
from states.rules.states import CardState, Injury

TRAITS = ("vigor", "spirit", "agility", "smarts")
# Which MicroFudge Aptitude a Savage attribute is read from when the die is not entered on the sheet.
RANK_TRAIT_NAMES: dict[str, tuple[str, ...]] = {
    "vigor": ("vigueur", "vigor", "vigour"),
    "spirit": ("âme", "ame", "présence", "presence", "spirit"),
    "agility": ("agilité", "agilite", "habilité", "habilete", "habileté", "agility"),
    "smarts": ("intellect", "esprit", "smarts"),
}
DEFAULT_RANK_VALUE = 2  # Faible, every unlisted trait's default

RankLookup = Callable[[Character, tuple[str, ...]], "int | None"]


def _sheet_rank_value(character: Character, names: tuple[str, ...]) -> int | None:
    """The rank of the sheet's trait whose code or name (either language) is one of ``names``."""
    for trait in character.traits.all():
        labels = {str(getattr(trait, attr, "")).strip().lower() for attr in ("code", "name_fr", "name_en")}
        if labels & set(names):
            return int(trait.rank)
    return None


_rank_lookup: list[RankLookup] = [_sheet_rank_value]


def register_rank_lookup(func: RankLookup) -> RankLookup:
    """Let the characters app say how a trait's rank value is read (first answer wins)."""
    _rank_lookup.insert(0, func)
    return func


def rank_value(character: Character, trait: str, *, aptitude: str | None = None) -> int:
    """The rank a Savage attribute is read from: the Aptitude the narrator picked for it (``aptitude``, a code of
    the campaign's list) or else the one bearing its name; Faible when the sheet has neither."""
    names = (aptitude,) if aptitude else RANK_TRAIT_NAMES[trait]
    for lookup in _rank_lookup:
        value = lookup(character, names)
        if value is not None:
            return value
    return DEFAULT_RANK_VALUE


def settings_for(campaign: Any) -> SavageSettings:
    """The campaign's Savage-style options; defaults (unsaved) until a narrator changes them."""
    found = _settings_of(int(campaign.pk))
    return found[0] if found else SavageSettings(campaign=campaign)


# Read by every Sequence page and draw of a campaign with states: compiled once (core.prepared).
_settings_of = PreparedRead(
    lambda campaign_id: SavageSettings.objects.filter(campaign_id=campaign_id).order_by("pk")[:1]
)


def trait_die(state: SavageState, trait: str, *, settings: SavageSettings | None = None) -> TraitDie:
    """The die entered on the sheet, or the rank's die through the campaign's mapping (``settings``: the
    campaign's options when the caller has them, read here otherwise)."""
    entered = getattr(state, f"{trait}_die")
    if entered:
        return TraitDie.parse(entered)
    if settings is None:
        settings = settings_for(state.character.campaign)
    aptitude = (settings.attribute_traits or {}).get(trait)
    return die_for_rank(rank_value(state.character, trait, aptitude=aptitude), settings.rank_dice)


def tracks_of(state: SavageState) -> dict[str, fatigue_rules.FatigueTrack]:
    return {
        row.source: fatigue_rules.FatigueTrack(
            source=row.source,
            levels=row.levels,
            critical=row.critical,
            recovering_since=row.recovering_since,
            slow=row.slow,
            accelerated=row.accelerated,
            recovers_at=row.recovers_at,
            deadline=row.deadline,
            next_vigor_roll_at=row.next_vigor_roll_at,
        )
        for row in state.fatigue_tracks.all()
    }


def card_state(state: SavageState, tracks: dict[str, fatigue_rules.FatigueTrack] | None = None) -> CardState:
    if tracks is None:
        tracks = tracks_of(state)
    return CardState(
        shaken=state.shaken,
        wounds=state.wounds,
        incapacitated=state.incapacitated,
        incapacitation_roll_due=state.incapacitation_roll_due,
        bleeding_out=state.bleeding_out,
        unconscious=state.unconscious,
        dead=state.dead,
        injury=Injury(state.injury),
        tokens=state.tokens,
        fatigue=fatigue_rules.total_levels(tracks),
        tricked=state.tricked,
    )


_sources: dict[str, fatigue_rules.FatigueSource] | None = None


def fatigue_sources() -> dict[str, fatigue_rules.FatigueSource]:
    global _sources
    if _sources is None:
        _sources = fatigue_rules.load_sources()
    return _sources


def round_of(campaign: Any) -> SavageRound | None:
    return SavageRound.objects.filter(campaign=campaign).first()


def fatigue_rows(state: SavageState) -> list[SavageFatigue]:
    return [row for row in state.fatigue_tracks.all() if row.levels]


def savage_targets(membership: Membership, exclude: int) -> QuerySet[Character]:
    """Whom a roll or a trick may aim at: the characters this member may see, and anyone in the fight.

    A narrator's NPC stays secret from players until it joins the round tracker (as its state
    events do); then it is in plain sight at the table.
    """
    in_fight = SavageRound.objects.filter(campaign_id=membership.campaign_id).values("participants")
    visible = viewable_characters(membership).values("pk")
    return (
        Character.objects.filter(campaign_id=membership.campaign_id)
        .filter(Q(pk__in=visible) | Q(pk__in=in_fight))
        .exclude(pk=exclude)
        .order_by("name", "pk")
    )
