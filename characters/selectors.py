"""Reads of the characters app: sheets, trait values, Revers penalties and combat equipment.

The functions resolution (issue 4) and states (issue 5) build on are ``trait_value``,
``revers_penalty`` and ``combat_equipment``; their signatures are stable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import get_language

from characters.models import (
    AtoutEntry,
    Character,
    CharacterKind,
    CharacterRules,
    CharacterTrait,
    Equipment,
    EquipmentCategory,
    PowerFeed,
    Revers,
)
from characters.rules import psychic
from characters.rules.equipment import Era
from characters.rules.ladder import Rank, rank_label
from characters.rules.revers import ActiveRevers, penalty
from characters.rules.scales import Scale, scale_in
from characters.rules.traits import TraitDef, TraitKind, traits_from_dicts
from core.prepared import PreparedRead
from core.regions import pass_fact

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign, Membership


def character_rules(campaign: Campaign) -> CharacterRules:
    """The campaign's character options, created with the seed's defaults on first use."""
    campaign_id = campaign.pk
    cached = getattr(campaign, "_character_rules_cache", None)
    if cached is not None:
        return cached
    rules, _created = CharacterRules.objects.get_or_create(campaign_id=campaign_id)
    campaign._character_rules_cache = rules  # type: ignore[attr-defined]  # a cache on this instance, not a field
    return rules


def session_open(campaign: object) -> bool:
    """Whether a session of the campaign is open (Atouts kept from creation raise traits only then); read
    once per campaign row, like ``character_rules``."""
    cached = getattr(campaign, "_session_open_cache", None)
    if cached is None:
        cached = campaign.game_sessions.filter(status="open").exists()  # type: ignore[attr-defined]  # a Campaign
        campaign._session_open_cache = cached  # type: ignore[attr-defined]  # kept on the row, as the rules are
    return bool(cached)


def trait_defs(rules: CharacterRules) -> tuple[TraitDef, ...]:
    return traits_from_dicts(rules.trait_list, source=f"campaign {rules.campaign_id} trait list")


def trait_def_map(rules: CharacterRules) -> dict[str, TraitDef]:
    return {t.code: t for t in trait_defs(rules)}


VIGOUR = "vigueur"


def trait_value(character: Character, trait_code: str, *, fed: bool = True) -> int:
    """The trait's rank on the sheet, or its default when absent.

    « Faible (2) ← Valeur par défaut pour toute Caractéristique non citée » ; the campaign's list
    gives the exceptions (Médecine, Sciences Lamentable; power domains Abyssal). A code the list
    does not know is Faible.
    """
    trait = CharacterTrait.objects.filter(character=character, code=trait_code).only("rank").first()
    if trait is not None:
        value = trait.rank
    else:
        known = trait_def_map(character_rules(character.campaign)).get(trait_code)
        value = known.default if known is not None else Rank.FAIBLE
    if trait_code == VIGOUR and character.vigour_lost:
        # Psychic fatigue (option): « L'Aptitude Vigueur du personnage est temporairement réduite de un
        # rang après chaque utilisation » — the sheet keeps its rank, the tests use the reduced one.
        value -= character.vigour_lost
    # « Le Rang de la Caractéristique concerné est alors réduit d'un cran jusqu'à ce que le personnage
    # puisse prendre du repos » (VI): a trait that fed a power domain is used at its lowered rank
    # (``fed=False``: a sequence declares the rank before that loss and reads it at each draw).
    return value - ranks_lowered(character, trait_code) if fed else value


@dataclass(frozen=True)
class TraitFacts:
    """A trait as a Test reads it: its rank as ``trait_value`` gives it, and its name in both languages, from the
    sheet's row or the campaign's list (the log reads « Tir » in French and "Shooting" in English)."""

    rank: int
    name_fr: str
    name_en: str


def trait_facts(character: Character, trait_code: str) -> TraitFacts:
    """``trait_value`` and the trait's names in two queries (its row, its ranks lost feeding a power domain): no
    sheet is built for a name."""
    row = CharacterTrait.objects.filter(character=character, code=trait_code).values_list("rank", "name_fr", "name_en")
    found = row.first()
    if found is not None:
        value, name_fr, name_en = found
    else:
        known = trait_def_map(character_rules(character.campaign)).get(trait_code)
        value = known.default if known is not None else Rank.FAIBLE
        name_fr, name_en = (known.name_fr, known.name_en) if known is not None else (trait_code, trait_code)
    if trait_code == VIGOUR and character.vigour_lost:
        value -= character.vigour_lost  # as trait_value: the sheet keeps its rank, the Tests use the reduced one
    return TraitFacts(rank=value - ranks_lowered(character, trait_code), name_fr=name_fr, name_en=name_en)


def trait_values(characters: list[Character], trait_code: str, campaign: Campaign) -> dict[int, int]:
    """``trait_value`` of one trait for many characters of ``campaign``, in a fixed number of queries (by id)."""
    rows = dict(
        CharacterTrait.objects.filter(character__in=characters, code=trait_code).values_list("character_id", "rank")
    )
    known = trait_def_map(character_rules(campaign)).get(trait_code)
    default = known.default if known is not None else Rank.FAIBLE
    lowered = ranks_lowered_many([(c, trait_code) for c in characters])
    out = {}
    for c in characters:
        value = rows.get(c.pk, default)
        if trait_code == VIGOUR and c.vigour_lost:
            value -= c.vigour_lost
        out[c.pk] = value - lowered.get(c.pk, 0)
    return out


def ranks_lowered(character: Character, trait_code: str) -> int:
    """Ranks ``trait_code`` has lost feeding power domains since the character's last rest."""
    return sum(
        PowerFeed.objects.filter(character=character, trait=trait_code, ranks_lost__gt=0).values_list(
            "ranks_lost", flat=True
        )
    )


# Read by every Sequence page, odds answer and draw: compiled once per number of characters (core.prepared).
_power_feeds = PreparedRead(
    lambda ids, floor: PowerFeed.objects.filter(character_id__in=ids, ranks_lost__gt=floor).values_list(
        "character_id", "trait", "ranks_lost"
    )
)


def ranks_lowered_many(pairs: list[tuple[Character, str]]) -> dict[int, int]:
    """``ranks_lowered`` of each (character, trait) in one query, by character id (0 without a trait)."""
    wanted = {character.pk: code for character, code in pairs if code}
    result = dict.fromkeys((character.pk for character, _code in pairs), 0)
    for character_id, trait, lost in _power_feeds(tuple(wanted), 0):
        if wanted.get(character_id) == trait:
            result[character_id] += lost
    return result


def revers_penalty(character: Character, domain: str) -> int:
    """Cards (or ranks) lost in ``domain`` (physical, social, mental or a named domain).

    « Les effets des divers Revers ne sont pas cumulatifs, seul le Revers entraînant la pénalité la
    plus importante est pris en compte » : the worst active Revers of that domain, 0 when none.
    """
    active = [
        ActiveRevers(domain=r.domain_key, severity=r.severity, nature=r.nature)
        for r in Revers.objects.filter(character=character, severity__gt=0)
    ]
    # The option is read only when a deep physical wound could weigh off the body.
    deep = domain != "physical" and any(r.domain == "physical" and r.nature == "deep" for r in active)
    return penalty(active, domain, deep_everywhere=deep and character_rules(character.campaign).harm_weighs_everywhere)


@dataclass(frozen=True)
class CombatEquipment:
    """What a character brings to a fight (VII-2). Bonuses are cards; ``None`` eras mean nothing carried."""

    weapon_bonus: int = 0
    weapon_era: int = Era.MODERN
    weapon_firearm: bool = False
    weapon_name: str = ""
    two_weapons: bool = False
    armour: int = 0
    armour_era: int = Era.MODERN
    armour_bulletproof: bool = False
    shield: bool = False
    quality: int = 0


def combat_equipment(character: Character) -> CombatEquipment:
    """The best weapon and armour carried, a shield, two weapons, and the best gear quality."""
    items = list(Equipment.objects.filter(character=character))
    weapons = sorted((i for i in items if i.category == EquipmentCategory.WEAPON), key=lambda i: -i.bonus)
    armours = sorted((i for i in items if i.category == EquipmentCategory.ARMOUR), key=lambda i: -i.bonus)
    gear = [i.bonus for i in items if i.category == EquipmentCategory.GEAR]
    weapon = weapons[0] if weapons else None
    armour = armours[0] if armours else None
    return CombatEquipment(
        weapon_bonus=weapon.bonus if weapon else 0,
        weapon_era=weapon.era if weapon else Era.MODERN,
        weapon_firearm=weapon.firearm if weapon else False,
        weapon_name=weapon.name if weapon else "",
        two_weapons=len(weapons) >= 2,
        armour=armour.bonus if armour else 0,
        armour_era=armour.era if armour else Era.MODERN,
        armour_bulletproof=armour.bulletproof if armour else False,
        shield=any(i.category == EquipmentCategory.SHIELD for i in items),
        quality=max(gear, default=0),
    )


@dataclass(frozen=True)
class SheetLine:
    code: str
    kind: str
    name: str
    description: str
    rank: int
    label: str
    on_sheet: bool
    custom: bool = False
    potential_left: int | None = None
    lowered: int = 0
    """Ranks lost feeding a power domain until rest; tests use ``rank - lowered``."""

    @property
    def effective_label(self) -> str:
        return rank_label(self.rank - self.lowered, get_language() or "fr")


@dataclass(frozen=True)
class FeedLine:
    pk: int
    domain: str
    domain_name: str
    trait: str
    trait_name: str
    ranks_lost: int
    allowed: bool


@dataclass
class Sheet:
    """Everything a sheet page shows, read in a constant number of queries."""

    character: Character
    rules: CharacterRules
    aptitudes: list[SheetLine] = field(default_factory=list)
    fields: list[SheetLine] = field(default_factory=list)
    power_domains: list[SheetLine] = field(default_factory=list)
    revers: list[Revers] = field(default_factory=list)
    healed_revers: list[Revers] = field(default_factory=list)
    equipment: list[Equipment] = field(default_factory=list)
    ledger: list[AtoutEntry] = field(default_factory=list)
    feeds: list[FeedLine] = field(default_factory=list)

    @property
    def all_lines(self) -> list[SheetLine]:
        return [*self.aptitudes, *self.fields, *self.power_domains]


def _line(trait_def: TraitDef | None, row: CharacterTrait | None, language: str, lowered: int = 0) -> SheetLine:
    if row is not None:
        name = row.name_en if language.startswith("en") else row.name_fr
        rank, code, kind, custom = row.rank, row.code, row.kind, row.custom
    else:
        assert trait_def is not None
        name, rank, code, kind, custom = (
            trait_def.name(language),
            trait_def.default,
            trait_def.code,
            trait_def.kind,
            False,
        )
    potential_left = None
    if kind == TraitKind.POWER_DOMAIN and psychic.usable(rank):
        potential_left = psychic.potential(rank) - (row.potential_used if row else 0)
    return SheetLine(
        code=code,
        kind=kind,
        name=name,
        description=trait_def.description(language) if trait_def else "",
        rank=rank,
        label=rank_label(rank, language),
        on_sheet=row is not None,
        custom=custom,
        potential_left=potential_left,
        lowered=lowered,
    )


def sheet(
    character: Character, *, ledger: bool = True, feeds: bool = True, revers: bool = True, equipment: bool = True
) -> Sheet:
    """The full sheet: the campaign's traits (defaults included), the character's own, Revers, gear.

    ``feeds=False`` leaves out the traits feeding power domains and their ranks lost until rest (the
    printed sheet keeps the ranks; a rank lost until rest is a pencil mark). ``revers=False`` and
    ``equipment=False`` leave those lists empty, unread (a roll's form that names no gear needs neither)."""
    language = get_language() or "fr"
    rules = character_rules(character.campaign)
    defs = trait_defs(rules)
    rows = {t.code: t for t in character.traits.all()}
    result = Sheet(character=character, rules=rules)
    feed_rows = list(character.power_feeds.all()) if feeds else []
    lowered: dict[str, int] = {}
    for feed in feed_rows:
        lowered[feed.trait] = lowered.get(feed.trait, 0) + feed.ranks_lost
    seen = set()
    for trait_def in defs:
        seen.add(trait_def.code)
        line = _line(trait_def, rows.get(trait_def.code), language, lowered.get(trait_def.code, 0))
        _bucket(result, trait_def.kind).append(line)
    for code, row in rows.items():
        if code not in seen:
            _bucket(result, row.kind).append(_line(None, row, language, lowered.get(code, 0)))
    names = {line.code: line.name for line in result.all_lines}
    result.feeds = [
        FeedLine(pk=f.pk, domain=f.domain, domain_name=names.get(f.domain, f.domain), trait=f.trait,
                 trait_name=names.get(f.trait, f.trait), ranks_lost=f.ranks_lost, allowed=f.allowed)
        for f in feed_rows
    ]  # fmt: skip
    rows_of_revers = list(character.revers.all()) if revers else []
    result.revers = [r for r in rows_of_revers if r.severity > 0]
    result.healed_revers = [r for r in rows_of_revers if r.severity == 0]
    result.equipment = list(character.equipment.all()) if equipment else []
    if ledger:
        result.ledger = ledger_of(character)
    return result


# Compiled once (core.prepared): the ledger is read anew after every Atout.
_ledger = PreparedRead(
    lambda character_id: (
        AtoutEntry.objects.filter(character_id=character_id)
        .select_related("game_session")
        # What a line shows and is keyed by (characters.sheet_atouts.ledger_line_depends); its session by number
        # and title, as it prints.
        .only("character_id", "delta", "use", "reason", "justification", "game_session__number", "game_session__title")
        .order_by("-pk")[:30]
    )
)


def ledger_of(character: Character) -> list[AtoutEntry]:
    """The newest 30 lines of a character's Atout ledger, with their session."""
    return _ledger(character.pk)


def _bucket(result: Sheet, kind: str) -> list[SheetLine]:
    if kind == TraitKind.APTITUDE:
        return result.aptitudes
    if kind == TraitKind.POWER_DOMAIN:
        return result.power_domains
    return result.fields


def scales_of(character: Character) -> tuple[Scale, ...]:
    """Appendix 8 scales written on the sheet (« Echelle +1 (Taille, Combat) »)."""
    return tuple(Scale(value=int(s["value"]), domains=frozenset(s["domains"])) for s in character.scales or [])


def scale_modifier(character: Character, other: Character, trait_code: str) -> int:
    """Cards (or ranks) ``character`` gains against ``other`` for a trait, from their scales."""
    return scale_in(scales_of(character), trait=trait_code) - scale_in(scales_of(other), trait=trait_code)


def characters_for_panels(campaign: Campaign | int) -> QuerySet[Character]:
    """The dashboard's characters with what their panels show, in a fixed number of queries."""
    return (
        Character.objects.filter(campaign=campaign)
        .select_related("owner", "savage_state")
        .prefetch_related(
            Prefetch("traits", queryset=CharacterTrait.objects.order_by("-rank", "name_fr")),
            Prefetch("revers", queryset=Revers.objects.filter(severity__gt=0)),
            "savage_state__fatigue_tracks",
        )
    )


def characters_owned(campaign: Campaign, user: User) -> QuerySet[Character]:
    """The characters a person plays in a campaign (their home page)."""
    return Character.objects.filter(campaign=campaign, owner=user)


def visible_characters(campaign: Campaign, membership: Membership) -> QuerySet[Character]:
    """The characters a member may list: narrators all, players PCs and the allies they run."""
    from django.db.models import Q

    queryset = Character.objects.filter(campaign=campaign).select_related("owner")
    if membership.is_narrator:
        return queryset
    return queryset.filter(Q(kind="pc") | Q(owner_id=membership.user_id))


# The other characters' active Revers, as ``visible_characters`` lists them (narrators: every character; players:
# the PCs and the allies they run), each with its character; compiled once (core.prepared): a sheet reads it anew
# whenever any character of its campaign changed, and compiling it cost more than running it.
_revers_for_narrators = PreparedRead(
    lambda campaign_id, floor, character_id: (
        Revers.objects.filter(character__campaign_id=campaign_id)
        .filter(severity__gt=floor)
        .exclude(character_id=character_id)
        .select_related("character")
        .order_by("character_id", "pk")
    )
)
_revers_for_players = PreparedRead(
    lambda campaign_id, kind, user_id, floor, character_id: (
        Revers.objects.filter(character__campaign_id=campaign_id)
        .filter(Q(character__kind=kind) | Q(character__owner_id=user_id))
        .filter(severity__gt=floor)
        .exclude(character_id=character_id)
        .select_related("character")
        .order_by("character_id", "pk")
    )
)


def revers_others(character: Character, membership: Membership) -> list[Revers]:
    """The active Revers of the other characters this member may see: what ``character`` may take in their place
    (« supporter un Revers à la place d'un autre »), each with its character (name, ``version``), in one query."""
    if membership.is_narrator:
        return _revers_for_narrators(character.campaign_id, 0, character.pk)
    return _revers_for_players(character.campaign_id, CharacterKind.PC.value, membership.user_id, 0, character.pk)


# Who runs which character, read once per render pass (``owned_ids``): compiled once per thread (``core.prepared``).
_owners_of = PreparedRead(
    lambda campaign_id: (
        Character.objects.filter(campaign_id=campaign_id, owner_id__isnull=False)
        .order_by("pk")
        .values_list("pk", "owner_id")
    )
)


def owned_ids(membership: Membership) -> tuple[int, ...]:
    """The characters ``membership``'s user runs in its campaign, for the regions that show a member's own characters
    and declare them (``character:<id>``): one query per render pass for every member of the campaign
    (``core.regions.pass_fact``), not one per member. Who runs which changes only through an Event touching the
    campaign's cast (a character created or handed), which those declarations name too."""
    campaign_id = int(membership.campaign_id)

    def load() -> dict[int, tuple[int, ...]]:
        owners: dict[int, list[int]] = {}
        for pk, owner_id in _owners_of(campaign_id):
            owners.setdefault(owner_id, []).append(pk)
        return {owner: tuple(pks) for owner, pks in owners.items()}

    found: dict[int, tuple[int, ...]] = pass_fact(("owned characters", campaign_id), load)
    return found.get(int(membership.user_id), ())
