"""What the conflict rules read from and write to character sheets, through the characters app.

Only the characters app's public functions are used (``characters.selectors.trait_value``,
``revers_penalty``, ``combat_equipment``; ``characters.services.atouts.atout_spend``,
``characters.services.revers.revers_inflict``), imported where they are called so that the two apps load in any order.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from core.prepared import PreparedRead

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from characters.models import Character


def trait_value(character: Character, trait_code: str) -> int:
    from characters.selectors import trait_value as read

    return int(read(character, trait_code))


def trait_facts(character: Character, trait_code: str) -> Any:
    """The trait's rank as a Test reads it and its names in both languages (``characters.selectors.TraitFacts``)."""
    from characters.selectors import trait_facts as read

    return read(character, trait_code)


def trait_values(characters: list[Character], trait_code: str, campaign: Any) -> dict[int, int]:
    """``trait_value`` of many characters of one campaign, by id, in a fixed number of queries."""
    from characters.selectors import trait_values as read

    return read(characters, trait_code, campaign)


def sheet_rank(character: Character, trait_code: str) -> int:
    """``trait_value`` but for the ranks lost feeding a power domain, which a draw reads live (``ranks_lowered``)."""
    from characters.selectors import trait_value as read

    return int(read(character, trait_code, fed=False))


def ranks_lowered(character: Character, trait_code: str) -> int:
    from characters.selectors import ranks_lowered as read

    return int(read(character, trait_code))


def ranks_lowered_many(pairs: list[tuple[Character, str]]) -> dict[int, int]:
    """``ranks_lowered`` of each (character, trait used) in one query, by character id."""
    from characters.selectors import ranks_lowered_many as read

    return read(pairs)


def revers_penalty(character: Character, domain: str) -> int:
    from characters.selectors import revers_penalty as read

    return abs(int(read(character, domain)))


def revers_penalty_by_domain(character: Character, domains: tuple[str, ...], revers: Any = None) -> dict[str, int]:
    """``revers_penalty`` of each domain, from one query, or none when the page has the active ``revers`` already
    (the sheet does): the roll dialog shows them all."""
    from characters.models import Revers
    from characters.rules.revers import ActiveRevers, penalty

    if revers is None:
        revers = Revers.objects.filter(character=character, severity__gt=0)
    rows = [ActiveRevers(domain=r.domain_key, severity=r.severity, nature=r.nature) for r in revers if r.severity > 0]
    everywhere = harm_weighs_everywhere(character.campaign, rows)
    return {domain: abs(int(penalty(rows, domain, deep_everywhere=everywhere))) for domain in domains}


def harm_weighs_everywhere(campaign: Any, rows: Any) -> bool:
    """The campaign's reading of « Les Revers s'appliquent, en principe, à tous les types d'action » (on by
    default): deep wounds, and the state cards' wounds and fatigue, weigh on social and mental rolls too. Read only
    when one of ``rows`` (active Revers) is a deep physical wound: otherwise it changes nothing."""
    if not any(r.domain == "physical" and r.nature == "deep" for r in rows):
        return False
    from characters.selectors import character_rules

    return bool(character_rules(campaign).harm_weighs_everywhere)


def scale_modifier(character: Character, other: Character, trait_code: str) -> int:
    """Appendix 8: ranks (or cards) ``character`` gains against ``other`` for a trait, from their scales."""
    from characters.selectors import scale_modifier as read

    return int(read(character, other, trait_code))


def combat_equipment(character: Character) -> Any:
    from characters.selectors import combat_equipment as read

    return read(character)


def trait_choices(character: Character) -> list[tuple[str, str, int]]:
    """(code, name, value) of every trait the campaign knows, as the character has it."""
    from characters.selectors import sheet

    # The trait lines alone: no Revers, gear, feeds or ledger are read for a list of traits.
    lines = sheet(character, ledger=False, feeds=False, revers=False, equipment=False).all_lines
    return [(line.code, line.name, line.rank) for line in lines]


def atout_spend(
    *, character: Character, actor: User, use: str, amount: int = 1, justification: str = "", context: Mapping[str, Any]
) -> None:
    from characters.services.atouts import atout_spend as spend

    spend(character=character, actor=actor, use=use, amount=amount, justification=justification, context=context)


def atout_pay(
    *, character: Character, actor: User, use: str, amount: int = 1, justification: str = "", context: Mapping[str, Any]
) -> dict[str, Any]:
    """The ledger's spending without its own Event: the caller's Event carries what it returns."""
    from characters.services.atouts import atout_pay as pay

    return pay(character=character, actor=actor, use=use, amount=amount, justification=justification, context=context)


def revers_inflict(
    *,
    character: Character,
    actor: User,
    domain: str,
    severity: int,
    source: str,
    payload: Mapping[str, Any],
    nature: str,
) -> bool:
    """Write a Revers on ``character``'s sheet; True when it became wounds instead (then no Revers is written)."""
    from characters.services.revers import revers_inflict as inflict
    from states.services.revers import savage_revers_to_wounds

    # With Savage-style states and the campaign's "Revers become wounds" option, a physical Revers
    # is written as wounds (and État critique for a Revers décisif) instead of a Revers.
    if (
        savage_revers_to_wounds(
            character=character, severity=severity, actor=actor, domain=domain, lethal=nature != "blunt", cause=source
        )
        is not None
    ):
        return True
    inflict(
        character=character,
        actor=actor,
        domain=domain,
        severity=severity,
        source=source,
        payload=payload,
        nature=nature,
    )
    return False


def revers_record(
    *, character: Character, actor: User, domain: str, severity: int, source: str, payload: Mapping[str, Any],
    nature: str,
) -> dict[str, Any]:  # fmt: skip
    """``revers_inflict`` without an Event of its own, for a use case whose one Event tells it (a settle): writes
    the Revers (or its wounds) and returns the part its Event would have been, with that Event's visibility
    (``campaigns.redaction.event_part``); an empty dict when nothing was written (État critique already)."""
    from characters.services.revers import revers_record as record
    from states.services.revers import savage_revers_wounds_part

    wounds = savage_revers_wounds_part(
        character=character, severity=severity, actor=actor, domain=domain, lethal=nature != "blunt", cause=source
    )
    if wounds is not None:
        return wounds
    return record(character=character, domain=domain, severity=severity, source=source, payload=payload, nature=nature)


def revers_become_wounds(character: Character, domain: str) -> bool:
    """Whether a Revers of ``domain`` on this character would be written as wounds (Savage-style states)."""
    from states.services.revers import revers_become_wounds as become

    return become(character, domain)


def revers_follow_roll(
    *, character: Character, roll: str, written: int, severity: int, domain: str, nature: str, source: str
) -> dict[str, Any]:
    """The hazardous Test ``roll``'s Revers follows its new result, without an Event of its own."""
    from characters.services.revers import revers_follow_roll as follow

    return follow(
        character=character, roll=roll, written=written, severity=severity, domain=domain, nature=nature, source=source
    )


def campaign_traits(campaign: Any) -> list[tuple[str, str]]:
    """(code, name) of the traits the campaign's list offers, in the reader's language."""
    from django.utils.translation import get_language

    from characters.selectors import character_rules, trait_defs

    language = get_language() or "fr"
    return [(t.code, t.name(language)) for t in trait_defs(character_rules(campaign))]


def named_traits(campaign: Any, *, npcs: bool) -> list[tuple[str, str]]:
    """(code, name) of the traits characters named themselves (free style, or « players name traits »):
    Jim's Psychologie, Janey's « Punkette endurcie ». NPCs' only for the narrators' forms."""
    from django.utils.translation import get_language

    from characters.models import CharacterTrait

    rows = CharacterTrait.objects.filter(character__campaign=campaign, custom=True)
    if not npcs:
        rows = rows.exclude(character__kind="npc")
    english = (get_language() or "fr")[:2] == "en"
    named: dict[str, str] = {}
    for code, name_fr, name_en in rows.values_list("code", "name_fr", "name_en").order_by("code"):
        named.setdefault(code, (name_en if english and name_en else name_fr) or code)
    return sorted(named.items(), key=lambda item: item[1].lower())


@cache
def _active_revers() -> PreparedRead[Any]:
    """The active Revers of some characters, compiled once per number of characters (core.prepared): every Sequence
    page, odds answer and draw reads them. Made on first use: this module reaches the characters app lazily."""
    from characters.models import Revers

    return PreparedRead(lambda ids, floor: Revers.objects.filter(character_id__in=ids, severity__gt=floor))


def revers_penalties(characters: list[Character], domain: str, campaign: Any = None) -> dict[int, int]:
    """``revers_penalty`` for many characters in one query (a page shows every participant); ``campaign``: theirs,
    when the page has it (its options are read once on it)."""
    from characters.rules.revers import ActiveRevers, penalty

    active: dict[int, list[ActiveRevers]] = {c.pk: [] for c in characters}
    for row in _active_revers()(tuple(active), 0):
        active[row.character_id].append(ActiveRevers(domain=row.domain_key, severity=row.severity, nature=row.nature))
    everywhere = (
        domain != "physical"
        and bool(characters)
        and harm_weighs_everywhere(campaign or characters[0].campaign, [r for rows in active.values() for r in rows])
    )
    return {pk: abs(int(penalty(rows, domain, deep_everywhere=everywhere))) for pk, rows in active.items()}


def boost_lines(character: Character, trait_code: str) -> list[tuple[str, int, str]]:
    """A running Conscience boost as budget lines (code, amount, use): « Endurance accrue » / « Coordination
    accrue » add Présence to the boosted trait, or natural armour to defence (characters.boosts)."""
    from characters.boosts import boost_amount

    lines = []
    if trait_code and (amount := boost_amount(character, trait_code)):
        lines.append(("power", amount, "any"))
    if amount := boost_amount(character, "armour"):
        lines.append(("natural_armour", amount, "defence"))
    return lines


def boost_used(character: Character, trait_code: str, *, draw: bool) -> bool:
    """A Test or draw took place: the boost on its trait (and, in a draw, the natural armour) loses one use. Whether
    one was spent (the character changed: a draw's Event then says so, ``campaigns.event_subjects.changes_characters``)."""
    from characters.boosts import boost_use

    spent = bool(trait_code) and boost_use(character, trait_code)
    if draw:
        spent = boost_use(character, "armour") or spent
    return spent


def states_effects(characters: list[Character], *, domain: str, campaign: Any) -> dict[int, Any]:
    """What the Savage-style state cards do to each character's draws (``states.bridge.cecj_effects``)."""
    from states.bridge import cecj_effects

    return cecj_effects(characters, domain=domain, campaign=campaign)


def states_effect(character: Character, *, domain: str, loaded: bool = False) -> Any:
    """``loaded``: the page read the character's state row already (``states.bridge.cecj_effect``)."""
    from states.bridge import cecj_effect

    return cecj_effect(character, domain=domain, loaded=loaded)


def no_states_effect() -> Any:
    from states.bridge import NO_EFFECT

    return NO_EFFECT


def states_refusal(effect: Any, *, attack: bool = False, test: bool = False, free_action: bool = False) -> str:
    """Why the state cards forbid this Test or draw ("" when they allow it)."""
    from states.bridge import out_reason, shaken_reason

    if effect.out:
        return out_reason(effect)
    if effect.shaken and (attack or (test and not free_action)):
        return shaken_reason()
    return ""


def power_use(
    *, character: Character, actor: User, domain: str, power_rank: int, masked: bool, several_objects: bool,
    fed_by: str,
) -> Any:  # fmt: skip
    """One use of a psychic power paid on the sheet (a Potentiel point, or a trait feeding the domain)."""
    from characters.services.powers import power_use as use

    return use(character=character, actor=actor, domain=domain, power_rank=power_rank, masked=masked,
               several_objects=several_objects, fed_by=fed_by)  # fmt: skip
