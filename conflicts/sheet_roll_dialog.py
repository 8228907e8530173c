"""The sheet's roll dialog: what a trait row can roll, every modifier computed with its reason, the exact chance.

One dialog serves a Test (a Difficulty), a power use (a power domain's row: the power's rank sets the
Difficulty), a simple conflict or a Difficulty read from an opponent's trait (the narrator's), each with the same
situational choices (situation, the Revers that apply, relatedness, the gear used, the character's scale, an
Atout). The lines and chances shown come from the very setups the roll is made from
(``fudge_tests.fudge_test_setup`` and ``simple_conflict_setups``); ``request_data`` turns the dialog's choices
into the data the services roll with, so the dialog and the roll cannot read them apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from campaigns.models import Membership
from characters.models import Character
from conflicts import labels, sheets
from conflicts.rules.fudge import (
    ConflictWinner,
    FudgeTestSetup,
    Modifier,
    simple_conflict_chances,
    success_chance,
    with_modifiers,
)
from conflicts.rules.ranks import Difficulty, difficulty_from_rank
from conflicts.rules.relatedness import Relatedness, related_rank
from conflicts.services.fudge_tests import defender_setups, fudge_test_setup
from conflicts.sheet_roll import CHIPS, NO_GEAR, REVERS_DOMAINS, RollMemory


@dataclass(frozen=True)
class DialogFacts:
    """What the dialog offers for this character, read once: its traits (code → sheet line), power domains it
    can use, the gear it carries, the traits feeding its domains, its scales; for a narrator the characters it
    may be opposed to and the traits they may use."""

    lines: dict[str, Any]
    domains: frozenset[str]
    gear: tuple[Any, ...]
    feeds: tuple[tuple[str, str], ...]
    scales: tuple[Any, ...] = ()
    opponents: tuple[Character, ...] = ()
    opponent_traits: tuple[tuple[str, str], ...] = ()


def dialog_facts(
    character: Character, membership: Membership, *, choices: Mapping[str, Any] | None = None
) -> DialogFacts:
    """``choices``: a roll's posted choices; then only what they can name is read (the gear when they name an
    item, the opponents when they name one), so that a one-tap Test reads the trait lines and nothing else. The
    dialog itself (no ``choices``) offers everything."""
    from characters.models import EquipmentCategory
    from characters.selectors import scales_of, sheet

    names_gear = choices is None or choices.get("gear") not in (None, "", NO_GEAR)
    read = sheet(character, ledger=False, revers=False, equipment=names_gear)
    lines = {line.code: line for line in read.all_lines}
    domains = frozenset(line.code for line in read.power_domains if line.rank - line.lowered >= 2)
    gear = tuple(item for item in read.equipment if item.category == EquipmentCategory.GEAR)
    feeds = tuple(sorted({(f.trait, f.trait_name) for f in read.feeds if f.allowed}))
    names_opponent = choices is None or any(choices.get(k) for k in ("opponent", "resisted_by", "opponent_trait"))
    if not membership.is_narrator or not names_opponent:
        # A simple conflict, and an opponent's trait as the Difficulty, are the narrator's call (the services
        # refuse them to players: an NPC's rank is the narrator's secret).
        return DialogFacts(lines, domains, gear, feeds, scales_of(character))
    opponents = tuple(
        Character.objects.filter(campaign_id=character.campaign_id).exclude(pk=character.pk).order_by("kind", "name")
    )
    traits = sheets.campaign_traits(character.campaign)
    listed = {code for code, _name in traits}
    traits += [(c, n) for c, n in sheets.named_traits(character.campaign, npcs=True) if c not in listed]
    return DialogFacts(lines, domains, gear, feeds, scales_of(character), opponents, tuple(traits))


def request_data(choices: dict[str, Any], memory: RollMemory, facts: DialogFacts) -> dict[str, Any]:
    """The data a Test (``fudge_test_setup``) is rolled with, from the dialog's cleaned choices."""
    code = choices.get("trait_code") or ""
    data: dict[str, Any] = {
        "trait_code": code, "difficulty": memory.difficulty, "other": memory.other,
        "revers_domain": choices.get("revers_domain") or "", "atout": bool(choices.get("atout")),
        "relatedness": choices.get("relatedness") or "close",
    }  # fmt: skip
    notes: dict[str, str] = {}
    gear = choices.get("gear") or ""
    if gear == NO_GEAR:
        data["equipment"] = -1  # « Inférieur ou pas de matériel : -1 »
    elif gear:
        item = next(g for g in facts.gear if str(g.pk) == gear)
        data["equipment"], notes["equipment"] = item.bonus, item.name
    if choices.get("scale") and not choices.get("opponent"):
        # Against an opponent the scales are compared by the roll itself (appendix 8); here the character's own
        # scale for this trait against the human scale of the task.
        data["scale"] = own_scale(facts, code)
    data["notes"] = notes
    return data


def own_scale(facts: DialogFacts, code: str) -> int:
    from characters.rules.scales import scale_in

    return int(scale_in(facts.scales, trait=code))


def power_choices(choices: dict[str, Any]) -> dict[str, Any]:
    return {"power_rank": choices["power_rank"], "masked": bool(choices.get("masked")),
            "several_objects": bool(choices.get("several_objects")), "fed_by": choices.get("fed_by") or ""}  # fmt: skip


def percent(chance: Fraction | float) -> str:
    return f"{100 * float(chance):.0f}"


@dataclass(frozen=True)
class Line:
    """One modifier as the dialog shows it: its label, its amount, why it applies."""

    code: str
    label: str
    amount: int
    reason: str


def lines_of(setup: FudgeTestSetup) -> list[Line]:
    """Every modifier of a setup with its reason, and relatedness as the rank it leaves."""
    from conflicts.templatetags.conflicts_tags import domain as domain_name

    out = []
    if setup.relatedness != Relatedness.CLOSE:
        shown = dict(RELATEDNESS_REASONS())[str(setup.relatedness)]
        used = related_rank(setup.trait_rank, setup.relatedness)
        out.append(Line("relatedness", labels.modifier_label("relatedness"), used - setup.trait_rank,
                        f"{shown}: {labels.rank(setup.trait_rank)} → {labels.rank(used)}"))  # fmt: skip
    for m in setup.modifiers:
        reason = m.note
        if m.code == "revers":
            reason = _("the worst Revers of the domain (%(domain)s)") % {"domain": domain_name(m.note)}
        elif m.code == "equipment":
            reason = m.note or _("inferior or no gear")
        elif m.code == "scale":
            reason = _("against %(name)s (appendix 8)") % {"name": m.note} if m.note else _("own scale (appendix 8)")
        elif m.code in ("wounds", "fatigue"):
            reason = _("state cards")
        elif m.code == "other":
            reason = _("situation")
        elif m.code == "atout":
            reason = _("an Atout spent")
        out.append(Line(m.code, labels.modifier_label(m.code), m.amount, reason))
    return out


def RELATEDNESS_REASONS() -> list[tuple[str, str]]:  # noqa: N802  # a table read in the reader's language
    return [("related", _("related but not central")), ("distant", _("distant"))]


@dataclass(frozen=True)
class Chip:
    value: int
    label: str
    percent: str
    checked: bool = False
    note: str = ""
    disabled: bool = False


@dataclass(frozen=True)
class Opposed:
    """One opponent as the dialog offers it: its chances for a simple conflict of the chosen traits."""

    character: Character
    win: str
    tie: str
    checked: bool
    lines: list[Line]
    their_lines: list[Line]
    their_effective: int
    as_difficulty: str
    """The chance when their rank is the Difficulty instead (« Le Rang de la Caractéristique donne alors la
    Difficulté de l'action »)."""


@dataclass
class Dialog:
    code: str
    name: str
    rank: int
    lines: list[Line]
    percent: str
    chips: list[Chip]
    setup: FudgeTestSetup
    powers: list[Chip]
    opponents: list[Opposed]
    revers: list[tuple[str, int]]
    scale: int = 0
    potential_left: int | None = None


def dialog(
    character: Character, facts: DialogFacts, choices: dict[str, Any], memory: RollMemory
) -> Dialog:  # fmt: skip
    """What the dialog shows for these choices (``choices``: the form's cleaned data)."""
    from characters.rules.psychic import use_difficulty

    code = choices["trait_code"]
    line = facts.lines[code]
    data = request_data(choices, memory, facts)
    setup, _code = fudge_test_setup(character, data)
    chips = [
        Chip(value, str(label), percent(success_chance(replace(setup, difficulty=Difficulty(value)))),
             value == memory.difficulty)
        for value, label in CHIPS
    ]  # fmt: skip
    powers = []
    if code in facts.domains:
        usable = line.rank - line.lowered
        for rank in range(2, 8):
            name = use_difficulty(rank, masked=bool(choices.get("masked")),
                                  several_objects=bool(choices.get("several_objects")))  # fmt: skip
            difficulty = Difficulty[name.upper()]
            needed = rank + int(bool(choices.get("masked")))
            powers.append(Chip(rank, labels.rank(rank), percent(success_chance(replace(setup, difficulty=difficulty))),
                               rank == choices.get("power_rank"), note=labels.difficulty_label(difficulty.name),
                               disabled=needed > usable))  # fmt: skip
    opponents = []
    if facts.opponents:
        their_code = choices.get("opponent_trait") or code
        mine, _mine = fudge_test_setup(character, {**data_without_difficulty(data), "difficulty": Difficulty.FACILE})
        theirs = defender_setups(character, list(facts.opponents), their_code)
        for other in facts.opponents:
            # As simple_conflict_setups: the scale difference counts once, for the larger side.
            scale = max(0, sheets.scale_modifier(character, other, code))
            a = with_modifiers(mine, Modifier("scale", scale, other.name)) if scale else mine
            b = theirs[other.pk]
            odds = simple_conflict_chances(a.effective_rank, b.effective_rank)
            # As fudge_test_setup: their trait, as it compares with this character's scale, is the Difficulty.
            against = difficulty_from_rank(b.trait_rank + sheets.scale_modifier(other, character, their_code))
            as_difficulty = percent(success_chance(replace(setup, difficulty=against)))
            opponents.append(Opposed(other, percent(odds[ConflictWinner.FIRST]), percent(odds[ConflictWinner.TIE]),
                                     other.pk == choices.get("opponent"), lines_of(a), lines_of(b), b.effective_rank,
                                     as_difficulty))  # fmt: skip
    return Dialog(
        code=code, name=line.name, rank=line.rank, lines=lines_of(setup), percent=percent(success_chance(setup)),
        chips=chips, setup=setup, powers=powers, opponents=opponents, scale=own_scale(facts, code),
        revers=list(sheets.revers_penalty_by_domain(character, REVERS_DOMAINS).items()),
        potential_left=line.potential_left,
    )  # fmt: skip


def data_without_difficulty(data: dict[str, Any]) -> dict[str, Any]:
    """A simple conflict's side: the same choices, no Difficulty, scales compared by the roll."""
    return {k: v for k, v in data.items() if k not in ("difficulty", "scale")}
