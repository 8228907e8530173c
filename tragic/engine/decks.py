"""Building a library: « Le nombre minimum et maximum de cartes est de 60 », the copy modes and the
recommended share of SPECIAL cards (000, III.2.d; 001, Constituer sa Bibliothèque)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .cards import LIBRARY_TYPES, Card, CardPool
from .profiles import COPY_LIMITS, LIBRARY_SIZE, PROFILES


@dataclass
class DeckReport:
    """``errors`` forbid playing the library; ``warnings`` are advice (the SPECIAL share)."""

    size: int
    specials: int
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def validate_library(card_ids: Sequence[str], pool: CardPool, *, copy_mode: str, profile: str) -> DeckReport:
    limit = COPY_LIMITS[copy_mode]
    known = [cid for cid in card_ids if cid in pool]
    specials = sum(1 for cid in known if pool[cid].type == "special")
    report = DeckReport(size=len(card_ids), specials=specials)
    for cid in card_ids:
        if cid not in pool:
            report.errors.append(f"unknown card {cid}")
    for cid in sorted(set(known)):
        if pool[cid].type not in LIBRARY_TYPES:
            report.errors.append(f"{pool[cid].label()} is a {pool[cid].type}, chosen at setup, not part of the library")
    copies = Counter(pool[cid].copy_key for cid in known)
    for (name, level), count in sorted(copies.items()):
        if count > limit:
            report.errors.append(f"{name} – {level}: {count} copies, {copy_mode} allows {limit}")
    if len(card_ids) != LIBRARY_SIZE:
        report.errors.append(f"{len(card_ids)} cards, a library has exactly {LIBRARY_SIZE}")
    rules = PROFILES[profile]
    if specials < rules.recommended_specials:
        report.warnings.append(
            f"{specials} SPECIAL cards: at least {rules.special_share_pct}% ({rules.recommended_specials}) are recommended"
        )
    return report


def fit_library(card_ids: Sequence[str], pool: CardPool, *, copy_mode: str) -> list[str]:
    """A ready library made legal in another copy mode: « il est nécessaire de s'accorder sur ce point [le
    mode] avec son ou ses adversaires »; a starter deck written for Quad keeps each card up to the mode's
    limit, and every copy taken out is replaced by another card of the same kind (SPECIAL or not) and the
    same attribute, then of any attribute, the pool's cards in id order — so the SPECIAL share and the
    attributes the library pays with stay as close as the mode allows. Deterministic: the same library
    and mode always give the same cards."""
    limit = COPY_LIMITS[copy_mode]
    copies: Counter[tuple[str, int]] = Counter()
    kept: list[str] = []
    missing: Counter[tuple[bool, str | None]] = Counter()
    for cid in card_ids:
        card = pool[cid]
        if copies[card.copy_key] < limit:
            copies[card.copy_key] += 1
            kept.append(cid)
        else:
            missing[(card.type == "special", card.attribute)] += 1
    candidates = sorted((c for c in pool.cards.values() if c.type in LIBRARY_TYPES), key=lambda c: c.id)

    def take(fits: Callable[[Card], bool], n: int) -> int:
        for card in candidates:
            while n and fits(card) and copies[card.copy_key] < limit:
                copies[card.copy_key] += 1
                kept.append(card.id)
                n -= 1
        return n

    for (special, attribute), n in sorted(missing.items(), key=lambda item: (not item[0][0], item[0][1] or "")):
        take(_of_kind(special, attribute), n)
    if len(kept) < LIBRARY_SIZE:
        take(lambda c: True, LIBRARY_SIZE - len(kept))
    return kept


def _of_kind(special: bool, attribute: str | None) -> Callable[[Card], bool]:
    """Fits a card missing from a library: a SPECIAL card of that attribute, or another card of that attribute."""
    return lambda card: (card.type == "special") == special and card.attribute == attribute
