"""Scales of comparison (appendix 8).

« Les échelles accroissent le rang des Caractéristiques appropriées et peuvent être utilisées comme
un bonus ou une pénalité » ; « La caractéristique, la situation ou le Conflit pour lequel s'applique
l'échelle est citée entre crochets après la valeur de l'échelle. »

Ogre example: « Les Ogres ont une Echelle +1 (Taille, Combat) […] lorsque l'ogre dont la Vigueur
est bonne est comparé à un humain, il est considéré comme ayant une Excellente Vigueur. »
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import RuleViolation

# « Echelle / Masse / Exemple » : the scale's mass in kilograms (the first row is « moins de 1 kg »).
MASS_TABLE: dict[int, tuple[float, str]] = {
    -10: (0.5, "Basilic, furet (femelle), faucon pèlerin"),
    -9: (1, "Furet (mâle), lapin"),
    -8: (2, "Poule"),
    -7: (4, "Aigle royal"),
    -6: (6, "Gros chat domestique, faucon royal"),
    -5: (9, "Renard, petit chien, grande belette"),
    -4: (13, "Blaireau, cygne"),
    -3: (20, "Coyote, chien, lynx, chevreuil, diabolotin"),
    -2: (30, "Gros chien, cockatryx"),
    -1: (45, "Guépard, gobelin, homme rat, gnome, loup, chèvre"),
    0: (68, "Humain, goule, hyène, méduse, petit garou, ptérodactyle, très gros chien ou loup"),
    1: (100, "Léopard, garou, ogre, djinn, chien de l'enfer, minotaure, sanglier, mastiff"),
    2: (150, "Ours brun, grand garou, gorille, chimère, sanglier (mâle), lion, cochon"),
    3: (225, "Utahraptor, troll, licorne, ours brun (mâle), grand renne, lion (mâle), âne"),
    4: (333, "Grizzly, jeune dragon, sasquatch, griffon, élan, mule"),
    5: (500, "Alligator, cheval, chameau, yack"),
    6: (750, "Bison, jeune adulte dragon, ours kodiak, bœuf"),
    7: (1100, "Grand requin blanc, dragon adulte"),
    8: (1700, "Orque (baleine tueuse), grand dragon adulte, hydre"),
    9: (2600, "Allosaure, vieux dragon"),
    10: (3900, "Ver géant, kraken, vénérable dragon"),
}

# Domains a scale may name, and the traits each one raises. « Lorsqu'il s'agit de la taille, elle
# représente la puissance physique, une peau ou protection plus épaisse, une plus grande endurance ».
SCALE_DOMAINS: dict[str, frozenset[str]] = {
    "size": frozenset({"vigueur"}),
    "combat": frozenset({"combat"}),
    "strength": frozenset({"vigueur"}),
    "agility": frozenset({"habilete", "athletisme"}),
    "mind": frozenset({"esprit"}),
}


@dataclass(frozen=True)
class Scale:
    value: int
    domains: frozenset[str]


def scale_for_mass(kg: float) -> int:
    """The scale whose mass is closest to ``kg`` (on a log scale, as the table grows by ~1.5×)."""
    return min(MASS_TABLE, key=lambda s: abs(math.log(MASS_TABLE[s][0]) - math.log(max(kg, 0.01))))


def scale_in(scales: Iterable[Scale], *, domain: str | None = None, trait: str | None = None) -> int:
    """A creature's scale for a domain (``size``, ``combat``…) or a trait code; 0 when none applies."""
    for scale in scales:
        if domain is not None and domain in scale.domains:
            return scale.value
        if trait is not None and any(trait in SCALE_DOMAINS.get(d, ()) for d in scale.domains):
            return scale.value
    return 0


def compared_rank(rank: int, own_scale: int, other_scale: int) -> int:
    """The rank a creature counts as against another: its rank shifted by the scale difference."""
    return rank + own_scale - other_scale


def card_modifier(own_scale: int, other_scale: int) -> int:
    """Extra (or fewer) cards in a conflict between two scales: « Le dragon […] tire 6 cartes
    supplémentaires en combat »."""
    return own_scale - other_scale


DOMAIN_WORDS = {
    "size": "size", "taille": "size", "combat": "combat", "strength": "strength", "force": "strength",
    "agility": "agility", "agilite": "agility", "agilité": "agility", "mind": "mind", "esprit": "mind",
}  # fmt: skip


def parse_scales(text: str) -> list[Scale]:
    """« Echelle +1 (Taille, Combat) » written as ``+1 taille combat; -1 force``."""
    result = []
    for part in (p.strip() for p in text.replace("\n", ";").split(";")):
        if not part:
            continue
        value, *words = part.replace(",", " ").replace("(", " ").replace(")", " ").split()
        try:
            number = int(value)
        except ValueError as exc:
            raise RuleViolation("scale.value", text=part) from exc
        domains = [DOMAIN_WORDS.get(w.lower()) for w in words]
        if not domains or None in domains or not -10 <= number <= 20:
            raise RuleViolation("scale.domains", text=part)
        result.append(Scale(value=number, domains=frozenset(d for d in domains if d)))
    return result


def scales_to_text(scales: Iterable[Scale]) -> str:
    return "; ".join(f"{s.value:+d}".replace("-", "\u2212") + f" {' '.join(sorted(s.domains))}" for s in scales)
