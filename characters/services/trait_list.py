"""The campaign's trait list, edited one trait at a time by the narrator (the settings page's « Trait list »).

« le Narrateur peut remettre aux joueurs une liste des Aptitudes qu'ils peuvent choisir pour leur personnage » and
« le Narrateur peut également fournir aux joueurs une liste de Champs d'expertise » (III): the list is the
narrator's. Each use case locks the campaign's character options, refuses a form drawn before another narrator's
change (the options' ``version``), writes the new list and appends one ``trait_list.changed`` Event that says what
changed in words. A trait's ``code`` links the list to the sheets and never changes: renaming a trait renames it
on the sheets that carry it (their lines copy its names), and removing a trait some sheets carry is refused with
their names, unless the narrator asks that those characters keep it as a trait of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.services import event_append
from characters.models import Character, CharacterRules, CharacterTrait
from characters.rules.errors import DataError
from characters.rules.traits import (
    TraitDef,
    TraitKind,
    trait_added,
    trait_index,
    trait_moved,
    trait_removed,
    trait_replaced,
)
from characters.selectors import character_rules, trait_defs
from characters.services.changes import _require_narrator
from core.errors import ServiceError, StaleState

# The fields of a trait a change can touch, in the order the log names them.
TRAIT_FIELDS = ("name_fr", "name_en", "kind", "default", "technical", "description_fr", "description_en")


def _locked(campaign: Campaign, actor: User, expected_version: int) -> CharacterRules:
    _require_narrator(campaign.pk, actor)
    character_rules(campaign)  # created on first use, before the lock
    rules = CharacterRules.objects.select_for_update().get(campaign=campaign)
    if rules.version != expected_version:
        raise StaleState(_("Someone changed the trait list first. Reload the page and try again."))
    return rules


def _trait(rules: CharacterRules, code: str) -> tuple[tuple[TraitDef, ...], TraitDef]:
    traits = trait_defs(rules)
    try:
        return traits, traits[trait_index(traits, code)]
    except KeyError:
        raise ServiceError(_("The trait list has no such trait any more. Reload the page.")) from None


def _store(
    campaign: Campaign, actor: User, rules: CharacterRules, traits: tuple[TraitDef, ...], payload: dict[str, Any]
) -> None:
    rules.trait_list = [t.to_dict() for t in traits]
    rules.version += 1
    rules.save(update_fields=["trait_list", "version"])
    campaign._character_rules_cache = rules  # type: ignore[attr-defined]  # a cache on this instance, not a field
    event_append(campaign=campaign, kind="trait_list.changed", actor=actor, payload=payload)


def _names(trait: TraitDef) -> dict[str, str]:
    return {"trait": trait.code, "name": trait.name_fr, "name_en": trait.name_en, "kind": str(trait.kind)}


def _carriers(campaign: Campaign, code: str) -> list[Character]:
    """The characters whose sheets carry the list's trait (not a trait of their own that shares its code)."""
    rows = CharacterTrait.objects.filter(character__campaign=campaign, code=code, custom=False)
    return list(Character.objects.filter(pk__in=rows.values("character_id")).order_by("name"))


def _bump(characters: list[Character]) -> None:
    """Their sheets read differently now: a new version, so no kept sheet or panel shows the old lines."""
    Character.objects.filter(pk__in=[c.pk for c in characters]).update(version=F("version") + 1)


def _new_trait(code: str, data: Mapping[str, Any]) -> TraitDef:
    return TraitDef(
        code=code, kind=TraitKind(data["kind"]), name_fr=data["name_fr"].strip(), name_en=data["name_en"].strip(),
        description_fr=data.get("description_fr") or "", description_en=data.get("description_en") or "",
        default=int(data["default"]), technical=bool(data.get("technical")),
    )  # fmt: skip


def _checked(build: Callable[[], tuple[TraitDef, ...]]) -> tuple[TraitDef, ...]:
    try:
        return build()
    except DataError as exc:
        raise ServiceError(_("This trait cannot be saved: %(reason)s") % {"reason": exc}) from exc


@transaction.atomic
def trait_add(
    *, campaign: Campaign, actor: User, expected_version: int, code: str, data: Mapping[str, Any]
) -> TraitDef:
    """A new trait, after the last of its kind."""
    rules = _locked(campaign, actor, expected_version)
    traits = trait_defs(rules)
    if any(t.code == code for t in traits):
        raise ServiceError(
            _("The list already has a trait with the code “%(code)s”: give the new one another code.") % {"code": code}
        )
    new = _new_trait(code, data)
    traits = _checked(lambda: trait_added(traits, new))
    _store(campaign, actor, rules, traits, {"op": "added", **_names(new)})
    return new


@transaction.atomic
def trait_change(
    *, campaign: Campaign, actor: User, expected_version: int, code: str, data: Mapping[str, Any]
) -> TraitDef:
    """Rename a trait, change its kind, default rank, technicality or descriptions; the sheets carrying it follow."""
    rules = _locked(campaign, actor, expected_version)
    traits, old = _trait(rules, code)
    new = _new_trait(code, data)
    changed = {f: [getattr(old, f), getattr(new, f)] for f in TRAIT_FIELDS if getattr(old, f) != getattr(new, f)}
    if not changed:
        return old
    traits = _checked(lambda: trait_replaced(traits, code, new))
    if {"name_fr", "name_en", "kind"} & set(changed):
        carriers = _carriers(campaign, code)
        CharacterTrait.objects.filter(character__in=carriers, code=code, custom=False).update(
            name_fr=new.name_fr, name_en=new.name_en, kind=str(new.kind)
        )
        _bump(carriers)
    changed = {f: [str(v) if f == "kind" else v for v in pair] for f, pair in changed.items()}
    payload = {"op": "changed", **_names(new), "old_name": old.name_fr, "old_name_en": old.name_en, "changed": changed}
    _store(campaign, actor, rules, traits, payload)
    return new


@transaction.atomic
def trait_remove(
    *, campaign: Campaign, actor: User, expected_version: int, code: str, keep_on_sheets: bool = False
) -> list[Character]:
    """Take a trait off the list. Sheets that carry it would lose a line their Atouts bought: refused with their
    names, unless ``keep_on_sheets``, and then each keeps it as a trait of its own (the narrator may still veto
    it there, which refunds its Atouts). Returns the characters that keep it."""
    rules = _locked(campaign, actor, expected_version)
    traits, old = _trait(rules, code)
    if len(traits) == 1:
        raise ServiceError(_("Keep at least one trait."))
    carriers = _carriers(campaign, code)
    if carriers and not keep_on_sheets:
        names = ", ".join(c.name for c in carriers)
        raise ServiceError(
            ngettext(
                "“%(trait)s” is on the sheet of %(names)s. Tick “they keep it as their own trait” to remove it "
                "from the list all the same.",
                "“%(trait)s” is on the sheets of %(names)s. Tick “they keep it as their own trait” to remove it "
                "from the list all the same.",
                len(carriers),
            )
            % {"trait": old.name(_language()), "names": names}
        )
    if carriers:
        CharacterTrait.objects.filter(character__in=carriers, code=code, custom=False).update(custom=True)
        _bump(carriers)
    payload = {"op": "removed", **_names(old), "kept_by": [c.name for c in carriers]}
    _store(campaign, actor, rules, trait_removed(traits, code), payload)
    return carriers


@transaction.atomic
def trait_move(*, campaign: Campaign, actor: User, expected_version: int, code: str, step: int) -> None:
    """One place up (``step=-1``) or down among the traits of its kind: the order the sheets show them in."""
    rules = _locked(campaign, actor, expected_version)
    traits, old = _trait(rules, code)
    moved = trait_moved(traits, code, step)
    if moved == traits:
        raise ServiceError(
            _("“%(trait)s” is already the first of its kind.") % {"trait": old.name(_language())}
            if step < 0
            else _("“%(trait)s” is already the last of its kind.") % {"trait": old.name(_language())}
        )
    _store(campaign, actor, rules, moved, {"op": "moved", **_names(old), "step": -1 if step < 0 else 1})


def _language() -> str:
    return get_language() or "fr"
