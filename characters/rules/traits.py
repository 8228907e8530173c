"""Traits: Aptitudes, Champs d'expertise and Domaines de pouvoir (III, VI).

« Les Caractéristiques des personnages sont classées en deux grandes catégories, les Aptitudes et
les Champs d'expertise. » « La valeur par défaut des Champs d'expertise est Faible, sauf mention
contraire (entre parenthèses après le nom du Champ). » « Les Domaines de pouvoir ont, par défaut,
un Rang de départ Abyssal. »

A trait list is data (``data/traits.toml``), validated on load with an error naming the file, the
entry and the field; campaigns keep their edited copy as a list of plain dicts.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from .errors import DataError
from .ladder import Rank

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_TRAITS_FILE = DATA_DIR / "traits.toml"


class TraitKind(StrEnum):
    APTITUDE = "aptitude"
    FIELD = "field"
    POWER_DOMAIN = "power_domain"


KIND_DEFAULTS = {TraitKind.APTITUDE: Rank.FAIBLE, TraitKind.FIELD: Rank.FAIBLE, TraitKind.POWER_DOMAIN: Rank.ABYSSAL}


@dataclass(frozen=True)
class TraitDef:
    """One trait a campaign offers. ``default`` is its rank when absent from a sheet."""

    code: str
    kind: TraitKind
    name_fr: str
    name_en: str
    description_fr: str = ""
    description_en: str = ""
    default: int = Rank.FAIBLE
    # « Compétences hautement techniques »: the narrator may make an untrained use fail (V).
    technical: bool = False

    def name(self, language: str = "fr") -> str:
        return self.name_en if language.startswith("en") else self.name_fr

    def description(self, language: str = "fr") -> str:
        return self.description_en if language.startswith("en") else self.description_fr

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["kind"] = str(self.kind)
        return data


_REQUIRED = ("code", "kind", "name_fr", "name_en")
_CODE = re.compile(r"^[a-z0-9_]{1,40}$")


def slugify_code(name: str) -> str:
    """A trait code from a free name: « Fine gâchette » → ``fine_gachette``."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_name.lower()).strip("_")[:40] or "trait"


def trait_from_dict(entry: Mapping[str, Any], *, source: str, index: int) -> TraitDef:
    where = f"{source}, entry {index}"
    for field in _REQUIRED:
        if not isinstance(entry.get(field), str) or not entry[field].strip():
            raise DataError(f"{where}, field '{field}': a non-empty text is required")
    code = entry["code"]
    if not _CODE.match(code):
        raise DataError(f"{where} ({code}), field 'code': lowercase letters, digits and _ only")
    try:
        kind = TraitKind(entry["kind"])
    except ValueError as exc:
        raise DataError(f"{where} ({code}), field 'kind': one of {', '.join(TraitKind)}") from exc
    default = entry.get("default", KIND_DEFAULTS[kind])
    if not isinstance(default, int) or isinstance(default, bool) or not 0 <= default <= Rank.LEGENDAIRE:
        raise DataError(f"{where} ({code}), field 'default': a rank value from 0 to 8")
    for field in ("description_fr", "description_en"):
        if not isinstance(entry.get(field, ""), str):
            raise DataError(f"{where} ({code}), field '{field}': a text is required")
    if not isinstance(entry.get("technical", False), bool):
        raise DataError(f"{where} ({code}), field 'technical': true or false")
    unknown = set(entry) - {*_REQUIRED, "description_fr", "description_en", "default", "technical"}
    if unknown:
        raise DataError(f"{where} ({code}), field '{sorted(unknown)[0]}': unknown field")
    return TraitDef(
        code=code,
        kind=kind,
        name_fr=entry["name_fr"].strip(),
        name_en=entry["name_en"].strip(),
        description_fr=entry.get("description_fr", ""),
        description_en=entry.get("description_en", ""),
        default=default,
        technical=entry.get("technical", False),
    )


def traits_from_dicts(entries: Iterable[Mapping[str, Any]], *, source: str) -> tuple[TraitDef, ...]:
    traits: list[TraitDef] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries, start=1):
        if not isinstance(entry, Mapping):
            raise DataError(f"{source}, entry {index}: a table of fields is required")
        trait = trait_from_dict(entry, source=source, index=index)
        if trait.code in seen:
            raise DataError(f"{source}, entry {index} ({trait.code}), field 'code': duplicated")
        seen.add(trait.code)
        traits.append(trait)
    return tuple(traits)


def load_trait_file(path: Path) -> tuple[TraitDef, ...]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path.name}: not valid TOML ({exc})") from exc
    entries = data.get("trait")
    if not isinstance(entries, list) or not entries:
        raise DataError(f"{path.name}: at least one [[trait]] entry is required")
    return traits_from_dicts(entries, source=path.name)


@cache
def default_traits() -> tuple[TraitDef, ...]:
    """The seed's example lists, the starting list of every campaign."""
    return load_trait_file(DEFAULT_TRAITS_FILE)


def custom_trait(name: str, kind: TraitKind = TraitKind.FIELD) -> TraitDef:
    """A player-named trait (free style, appendix 2): same name in both languages, default Faible."""
    name = name.strip()
    return TraitDef(code=slugify_code(name), kind=kind, name_fr=name, name_en=name, default=KIND_DEFAULTS[kind])


def creation_default(trait: TraitDef, mode: str) -> int:
    """A trait's starting rank at creation.

    Streamlined (appendix 3): « le Rang par défaut des Aptitudes est Moyen alors que le Rang par
    défaut des Champs d'expertise reste fixé à Faible (sauf indication contraire) ».
    """
    if mode == "streamlined" and trait.kind == TraitKind.APTITUDE:
        return Rank.MOYEN
    return trait.default


# ---------------------------------------------------------------- editing a campaign's list
# The narrator's trait list form (one trait at a time) works on the list through these; each returns a new
# list, checked by ``traits_from_dicts`` as the TOML file is, and leaves the other traits where they were.


def trait_index(traits: tuple[TraitDef, ...], code: str) -> int:
    """The trait's place in the list; ``KeyError`` when the list has no such trait."""
    for index, trait in enumerate(traits):
        if trait.code == code:
            return index
    raise KeyError(code)


def trait_list_checked(traits: Iterable[TraitDef]) -> tuple[TraitDef, ...]:
    """The list read back as stored: a duplicated code or a bad field raises ``DataError``."""
    return traits_from_dicts([t.to_dict() for t in traits], source="trait list")


def trait_added(traits: tuple[TraitDef, ...], new: TraitDef) -> tuple[TraitDef, ...]:
    """A new trait after the last of its kind (the sheet shows each kind apart, in the list's order)."""
    last = max((i for i, t in enumerate(traits) if t.kind == new.kind), default=len(traits) - 1)
    return trait_list_checked((*traits[: last + 1], new, *traits[last + 1 :]))


def trait_replaced(traits: tuple[TraitDef, ...], code: str, new: TraitDef) -> tuple[TraitDef, ...]:
    index = trait_index(traits, code)
    return trait_list_checked((*traits[:index], new, *traits[index + 1 :]))


def trait_removed(traits: tuple[TraitDef, ...], code: str) -> tuple[TraitDef, ...]:
    index = trait_index(traits, code)
    return (*traits[:index], *traits[index + 1 :])


def trait_moved(traits: tuple[TraitDef, ...], code: str, step: int) -> tuple[TraitDef, ...]:
    """The trait swapped with the previous (``step=-1``) or next (``+1``) trait of its kind; unchanged at an end."""
    index = trait_index(traits, code)
    kind = traits[index].kind
    same = [i for i, t in enumerate(traits) if t.kind == kind]
    at = same.index(index) + (1 if step > 0 else -1)
    if not 0 <= at < len(same):
        return traits
    other = same[at]
    moved = list(traits)
    moved[index], moved[other] = moved[other], moved[index]
    return tuple(moved)
