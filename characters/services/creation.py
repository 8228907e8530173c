"""Creating a character or an NPC: the campaign's trait list, the creation budget, the starting ranks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign, CreationMode
from characters.models import (
    Character,
    CharacterKind,
    CharacterRules,
    CharacterTrait,
)
from characters.rules import creation as creation_rules
from characters.rules.atouts import (
    PROGRESSION_ONE_PER_RANK,
    PROGRESSION_STREAMLINED,
    GainReason,
    Pool,
)
from characters.rules.errors import RuleViolation
from characters.rules.traits import TraitDef, TraitKind, creation_default, custom_trait
from characters.selectors import character_rules, trait_def_map, trait_defs

# ---------------------------------------------------------------- helpers
from characters.services.changes import _append, _names, _refuse, _require_member, _require_narrator, _write_entries
from core.errors import PermissionRefused, ServiceError


def progression_scheme(rules: CharacterRules, campaign: Campaign, character: Character | None = None) -> str:
    """The price list of raises: the campaign's rule if set, else the mode the character was made under (a
    Standard character keeps Standard prices after the campaign switches to Streamlined)."""
    if rules.progression:
        return str(rules.progression)
    mode = (character.creation_mode if character is not None else "") or campaign.creation_mode
    return PROGRESSION_STREAMLINED if mode == CreationMode.STREAMLINED else PROGRESSION_ONE_PER_RANK


def creation_total(campaign: Campaign, rules: CharacterRules) -> int:
    if campaign.creation_mode == CreationMode.STREAMLINED:
        return int(rules.streamlined_atouts)
    return int(campaign.starting_atouts)


def creation_traits(
    campaign: Campaign, rules: CharacterRules, custom: Iterable[Mapping[str, str]] = ()
) -> tuple[TraitDef, ...]:
    """The traits a new character may rate: the campaign's list plus, where allowed, player-named ones."""
    defs = list(trait_defs(rules))
    custom = list(custom)
    if custom and not (campaign.creation_mode == CreationMode.FREE or rules.players_name_traits):
        raise ServiceError(_("In this campaign, traits come from the narrator's list."))
    known = {t.code for t in defs}
    for item in custom:
        name = (item.get("name") or "").strip()
        if not name:
            continue
        trait = custom_trait(name, TraitKind(item.get("kind") or TraitKind.FIELD))
        if trait.code not in known:
            defs.append(trait)
            known.add(trait.code)
    return tuple(defs)


@transaction.atomic
def character_create(
    *,
    campaign: Campaign,
    actor: User,
    name: str,
    concept: str,
    goal: str,
    ranks: Mapping[str, int],
    custom_traits: Iterable[Mapping[str, str]] = (),
    owner: User | None = None,
    permitted: Iterable[str] = (),
) -> Character:
    """Create a PC through the campaign's creation mode, or refuse naming the broken rule.

    « Le processus de création commence par une courte phrase […] le concept […] ce qu'il recherche
    à accomplir […] Un nom peut également s'avérer utile. »
    """
    membership = _require_member(campaign.pk, actor)
    owner = owner or actor
    if owner != actor and not membership.is_narrator:
        raise PermissionRefused(_("Only a narrator can create a character for another player."))
    name, concept, goal = name.strip(), concept.strip(), goal.strip()
    if not name:
        raise ServiceError(_("Give your character a name."))
    if not concept:
        raise ServiceError(_("Write the concept: a short sentence that says who the character is."))
    if not goal:
        raise ServiceError(_("Write the goal: what the character seeks to achieve now."))
    rules = character_rules(campaign)
    defs = creation_traits(campaign, rules, custom_traits)
    options = creation_rules.CreationOptions(
        human_maximum=int(rules.human_maximum),
        permitted=frozenset(permitted) if membership.is_narrator else frozenset(),
    )
    try:
        budget = creation_rules.creation_check(
            mode=str(campaign.creation_mode),
            total=creation_total(campaign, rules),
            traits=defs,
            ranks=ranks,
            options=options,
        )
    except RuleViolation as violation:
        raise _refuse(violation, _names(defs)) from violation
    character = Character(
        campaign=campaign, owner=owner, kind=CharacterKind.PC, name=name, concept=concept, goal=goal,
        creation_mode=str(campaign.creation_mode),
    )  # fmt: skip
    character.full_clean()
    character.save()
    by_code = {t.code: t for t in defs}
    listed = {t.code for t in trait_defs(rules)}
    # Appendix 3: « le Rang par défaut des Aptitudes est Moyen »: an Aptitude the player left alone is written at
    # Moyen, since the sheet reads a missing line at the list's default (Faible).
    starts = {t.code: creation_default(t, str(campaign.creation_mode)) for t in defs if t.code in listed}
    ranks = {**{c: r for c, r in starts.items() if r != by_code[c].default}, **ranks}
    for code, rank in ranks.items():
        trait = by_code[code]
        if rank == trait.default and code in listed:
            continue  # a listed trait at its default needs no line
        CharacterTrait.objects.create(
            character=character,
            code=code,
            kind=trait.kind,
            name_fr=trait.name_fr,
            name_en=trait.name_en,
            rank=rank,
            custom=code not in listed,
        )
    if budget.left:
        _write_entries(
            character, {Pool.CREATION: budget.left}, sign=1, actor=actor, game_session=None, reason=GainReason.CREATION
        )
        character.save(update_fields=["atouts_creation"])
    _append(
        character,
        "character.created",
        actor,
        {
            "mode": str(campaign.creation_mode),
            "spent": budget.spent,
            "kept": budget.left,
            "traits": dict(ranks),
        },
    )
    return character


@transaction.atomic
def npc_create(
    *,
    campaign: Campaign,
    actor: User,
    name: str,
    concept: str,
    goal: str = "",
    ranks: Mapping[str, int] | None = None,
    atouts: int = 0,
    out_after: int | None = None,
) -> Character:
    """VII-1: « Un Concept (ou quelques phrases) et quelques Atouts, qui peuvent être dépensés à l'avance
    ou en cours de jeu » — no budget to respect, the narrator rates what matters."""
    _require_narrator(campaign.pk, actor)
    if not name.strip():
        raise ServiceError(_("Give your character a name."))
    rules = character_rules(campaign)
    defs = trait_def_map(rules)
    character = Character(
        campaign=campaign,
        kind=CharacterKind.NPC,
        name=name.strip(),
        concept=concept.strip(),
        goal=goal.strip(),
        out_after_revers=out_after or rules.npc_out_after,
        creation_mode=str(campaign.creation_mode),
    )
    character.full_clean()
    character.save()
    for code, rank in (ranks or {}).items():
        trait = defs.get(code) or custom_trait(code)
        CharacterTrait.objects.create(
            character=character, code=trait.code, kind=trait.kind, name_fr=trait.name_fr, name_en=trait.name_en,
            rank=rank, custom=code not in defs,
        )  # fmt: skip
    if atouts > 0:
        _write_entries(
            character, {Pool.CREATION: atouts}, sign=1, actor=actor, game_session=None, reason=GainReason.CREATION
        )
        character.save(update_fields=["atouts_creation"])
    _append(character, "character.created", actor, {"mode": "npc", "kept": atouts, "traits": dict(ranks or {})})
    return character


def creation_preview(
    *, campaign: Campaign, ranks: Mapping[str, int], custom_traits: Iterable[Mapping[str, str]] = ()
) -> creation_rules.Budget:
    """The live budget the wizard shows on each click (never raises for rule breaks)."""
    rules = character_rules(campaign)
    defs = creation_traits(campaign, rules, custom_traits)
    return creation_rules.creation_budget(
        mode=str(campaign.creation_mode),
        total=creation_total(campaign, rules),
        traits=defs,
        ranks=ranks,
        options=creation_rules.CreationOptions(human_maximum=int(rules.human_maximum)),
    )


def starting_ranks(campaign: Campaign, defs: Iterable[TraitDef]) -> dict[str, int]:
    return {t.code: creation_default(t, str(campaign.creation_mode)) for t in defs}
