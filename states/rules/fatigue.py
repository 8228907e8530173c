"""Fatigue and its sources: levels, the third level by source, recovery on the game clock.

« Un personnage peut avoir jusqu'à 2 niveaux de Fatigue. Un troisième niveau de Fatigue provoque
alors une perte de conscience (ou pire en fonction de la source de la fatigue). Chaque niveau de
Fatigue inflige un malus de -1 à tous les jets de Trait. Récupération : la manière de récupérer un
niveau de Fatigue dépend de ce qui l'a provoqué. »

The sources are data (``states/data/fatigue_sources.toml``). Each character keeps one
``FatigueTrack`` per source; the levels of all tracks add up to the character's Fatigue (0–3).
"""

from __future__ import annotations

import datetime as dt
import random
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from .dice import TraitDie, TraitRoll, roll_plain
from .errors import IllegalTransition

DEFAULT_SOURCES_PATH = Path(__file__).resolve().parents[1] / "data" / "fatigue_sources.toml"
CRITICAL_LEVEL = 3
ROUND_SECONDS = 6

CRITICAL_KINDS = (
    "none",
    "death_within",
    "vigor_roll_every",
    "death_in_rounds",
    "death_unless_described",
    "chronic",
    "unconscious_for",
    "by_poison",
)
TRIGGERS = ("auto", "action")
ACTIONS = ("food", "water", "warmth", "out_of_water", "treatment", "decontamination", "sleep")


class SourceDataError(ValueError):
    """A fatigue source file is wrong; the message names the file, the entry and the field."""


@dataclass(frozen=True)
class Recovery:
    trigger: str
    interval_minutes: int | None = None
    action: str | None = None
    critical_interval_minutes: int | None = None
    all_at_once: bool = False
    treatment_dice: str | None = None
    accelerated_action: str | None = None
    accelerated_interval_minutes: int | None = None


@dataclass(frozen=True)
class Critical:
    kind: str
    dice: str | None = None
    unit: str | None = None
    every_minutes: int | None = None


@dataclass(frozen=True)
class FatigueSource:
    key: str
    name_fr: str
    name_en: str
    card: str
    recovery: Recovery
    critical: Critical

    def name(self, language: str) -> str:
        return self.name_fr if language.startswith("fr") else self.name_en


def parse_dice(text: str) -> tuple[int, int]:
    """``3d6`` → (3, 6)."""
    count, _, sides = text.lower().partition("d")
    return int(count), int(sides)


def load_sources(path: Path = DEFAULT_SOURCES_PATH) -> dict[str, FatigueSource]:
    """Read and validate the sources; every error names the file, the entry and the field."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)

    def fail(entry: str, field_name: str, problem: str) -> SourceDataError:
        return SourceDataError(f"{path.name}: [{entry}] {field_name}: {problem}")

    sources: dict[str, FatigueSource] = {}
    for key, entry in data.items():
        for required in ("name_fr", "name_en", "card", "recovery", "critical"):
            if required not in entry:
                raise fail(key, required, "missing")
        rec, crit = entry["recovery"], entry["critical"]
        try:
            recovery = Recovery(**rec)
        except TypeError as exc:
            raise fail(key, "recovery", str(exc)) from exc
        try:
            critical = Critical(**crit)
        except TypeError as exc:
            raise fail(key, "critical", str(exc)) from exc
        if recovery.trigger not in TRIGGERS:
            raise fail(key, "recovery.trigger", f"{recovery.trigger!r} is not one of {TRIGGERS}")
        if recovery.trigger == "action" and recovery.action not in ACTIONS:
            raise fail(key, "recovery.action", f"{recovery.action!r} is not one of {ACTIONS}")
        if recovery.accelerated_action is not None and recovery.accelerated_action not in ACTIONS:
            raise fail(key, "recovery.accelerated_action", f"{recovery.accelerated_action!r} is not one of {ACTIONS}")
        if recovery.interval_minutes is None and recovery.treatment_dice is None:
            raise fail(key, "recovery.interval_minutes", "needed unless a treatment_dice is given")
        if critical.kind not in CRITICAL_KINDS:
            raise fail(key, "critical.kind", f"{critical.kind!r} is not one of {CRITICAL_KINDS}")
        for dice_field, dice in (
            ("critical.dice", critical.dice),
            ("recovery.treatment_dice", recovery.treatment_dice),
        ):
            if dice is not None:
                try:
                    parse_dice(dice)
                except ValueError as exc:
                    raise fail(key, dice_field, f"{dice!r} is not NdS") from exc
        if critical.kind in ("death_within", "unconscious_for") and critical.dice is None:
            raise fail(key, "critical.dice", "needed for this kind")
        if critical.kind == "vigor_roll_every" and not critical.every_minutes:
            raise fail(key, "critical.every_minutes", "needed for this kind")
        sources[key] = FatigueSource(key, entry["name_fr"], entry["name_en"], entry["card"], recovery, critical)
    return sources


@dataclass(frozen=True)
class FatigueTrack:
    """One source's levels on one character and where its recovery stands."""

    source: str
    levels: int = 0
    critical: bool = False
    # Recovery by interval counts from this instant; None while nothing heals.
    recovering_since: dt.datetime | None = None
    # The slower pace of a recovery begun in État critique (Faim: every 12 hours).
    slow: bool = False
    accelerated: bool = False
    # All levels go at this instant (Poison, treated Maladie).
    recovers_at: dt.datetime | None = None
    # Death (Faim, Soif, Noyade) or waking up (Sommeil) at this instant while critical.
    deadline: dt.datetime | None = None
    next_vigor_roll_at: dt.datetime | None = None


Tracks = Mapping[str, FatigueTrack]


def total_levels(tracks: Tracks) -> int:
    return sum(t.levels for t in tracks.values())


@dataclass(frozen=True)
class FatigueGain:
    source: str
    total: int
    critical_now: bool
    effect: str = "none"
    faces: tuple[int, ...] = ()
    hours: int | None = None
    rounds: int | None = None
    deadline: dt.datetime | None = None


def fatigue_gain(
    tracks: Tracks, source: FatigueSource, *, now: dt.datetime, rng: random.Random, vigor: TraitDie
) -> tuple[dict[str, FatigueTrack], FatigueGain]:
    """One level of Fatigue from ``source``; the third level brings the source's critical effect."""
    total = total_levels(tracks)
    if total >= CRITICAL_LEVEL:
        raise IllegalTransition("fatigue_full", "The character already suffers a third level of Fatigue.")
    if total == CRITICAL_LEVEL - 1 and source.critical.kind == "none":
        raise IllegalTransition(
            "no_critical_from_source",
            "A third level cannot come from this source: « une victime ne peut pas passer dans un État critique "
            "à cause de Bleus et de bosses ».",
        )
    track = tracks.get(source.key, FatigueTrack(source.key))
    track = replace(track, levels=track.levels + 1)
    recovery = source.recovery
    if recovery.trigger == "auto":
        if recovery.all_at_once:
            # « disparaissent après 24 heures »: counted from the latest dose.
            track = replace(track, recovers_at=now + dt.timedelta(minutes=recovery.interval_minutes or 0))
        elif track.recovering_since is None:
            track = replace(track, recovering_since=now)
    result = FatigueGain(source=source.key, total=total + 1, critical_now=False)
    if total + 1 == CRITICAL_LEVEL:
        track, result = _critical(track, source, now=now, rng=rng, vigor=vigor)
    new_tracks = dict(tracks)
    new_tracks[source.key] = track
    return new_tracks, result


def _critical(
    track: FatigueTrack, source: FatigueSource, *, now: dt.datetime, rng: random.Random, vigor: TraitDie
) -> tuple[FatigueTrack, FatigueGain]:
    critical = source.critical
    track = replace(track, critical=True)
    gain = partial(FatigueGain, source=source.key, total=CRITICAL_LEVEL, critical_now=True, effect=critical.kind)
    if critical.kind in ("death_within", "unconscious_for"):
        count, sides = parse_dice(critical.dice or "")
        faces = roll_plain(rng, count, sides)
        deadline = now + dt.timedelta(hours=sum(faces))
        track = replace(track, deadline=deadline)
        if critical.kind == "unconscious_for":
            # Collapsed with exhaustion, the character sleeps: the Sommeil recovery runs from now.
            track = replace(track, recovering_since=now)
        return track, gain(faces=faces, hours=sum(faces), deadline=deadline)
    if critical.kind == "death_in_rounds":
        # « meurt en un nombre de Rounds égal à la moitié de sa Vigueur » (half the die's sides).
        rounds = vigor.sides // 2
        deadline = now + dt.timedelta(seconds=rounds * ROUND_SECONDS)
        return replace(track, deadline=deadline), gain(rounds=rounds, deadline=deadline)
    if critical.kind == "vigor_roll_every":
        first = now + dt.timedelta(minutes=critical.every_minutes or 60)
        return replace(track, next_vigor_roll_at=first), gain(deadline=first)
    return track, gain()


def fatigue_lose(tracks: Tracks, source_key: str) -> dict[str, FatigueTrack]:
    """The narrator's one-tap removal of a level of one source."""
    track = tracks.get(source_key)
    if track is None or track.levels < 1:
        raise IllegalTransition("no_fatigue_from_source", "No Fatigue from this source.")
    new_tracks = dict(tracks)
    new_tracks[source_key] = _settle(replace(track, levels=track.levels - 1))
    return _clear_critical(new_tracks)


@dataclass(frozen=True)
class ActionEffect:
    source: str
    started: bool = False
    accelerated: bool = False
    faces: tuple[int, ...] = ()
    days: int | None = None
    recovers_at: dt.datetime | None = None


def fatigue_action(
    tracks: Tracks,
    sources: Mapping[str, FatigueSource],
    action: str,
    *,
    now: dt.datetime,
    rng: random.Random,
    vigor: TraitDie,
) -> tuple[dict[str, FatigueTrack], list[ActionEffect]]:
    """A logged action (food, water, warmth, sleep, decontamination, treatment …) starts a recovery.

    Maladie: « les symptômes de la victime disparaissent en 2d6 jours moins la moitié de son dé de
    Vigueur, avec un minimum d'un jour ».
    """
    if action not in ACTIONS:
        raise IllegalTransition("unknown_action", "Unknown recovery action.")
    new_tracks = dict(tracks)
    effects: list[ActionEffect] = []
    for key, track in tracks.items():
        source = sources[key]
        recovery = source.recovery
        if track.levels < 1:
            continue
        if recovery.action == action:
            if recovery.treatment_dice:
                count, sides = parse_dice(recovery.treatment_dice)
                faces = roll_plain(rng, count, sides)
                days = max(1, sum(faces) - vigor.sides // 2)
                at = now + dt.timedelta(days=days)
                new_tracks[key] = replace(track, recovers_at=at)
                effects.append(ActionEffect(key, started=True, faces=faces, days=days, recovers_at=at))
            elif track.recovering_since is None:
                new_tracks[key] = replace(track, recovering_since=now, slow=track.critical)
                effects.append(ActionEffect(key, started=True))
        elif recovery.accelerated_action == action and not track.accelerated:
            new_tracks[key] = replace(track, accelerated=True)
            effects.append(ActionEffect(key, accelerated=True))
    if not effects:
        raise IllegalTransition("nothing_to_recover", "This action starts no recovery for the character's Fatigue.")
    return new_tracks, effects


@dataclass(frozen=True)
class ElapseReport:
    recovered: dict[str, int] = field(default_factory=dict)
    died_of: str | None = None
    woke_up: bool = False
    vigor_rolls: tuple[TraitRoll, ...] = ()

    @property
    def anything(self) -> bool:
        return bool(self.recovered or self.died_of or self.woke_up or self.vigor_rolls)


def _interval(track: FatigueTrack, source: FatigueSource) -> dt.timedelta | None:
    recovery = source.recovery
    minutes = recovery.interval_minutes
    if track.slow and recovery.critical_interval_minutes:
        minutes = recovery.critical_interval_minutes
    elif track.accelerated and recovery.accelerated_interval_minutes:
        minutes = recovery.accelerated_interval_minutes
    return dt.timedelta(minutes=minutes) if minutes else None


def _first_recovery_at(track: FatigueTrack, source: FatigueSource) -> dt.datetime | None:
    """When this track next loses a level, if anything heals it."""
    if track.recovers_at is not None:
        return track.recovers_at
    interval = _interval(track, source)
    if track.recovering_since is not None and interval is not None and not source.recovery.all_at_once:
        return track.recovering_since + interval
    return None


def _settle(track: FatigueTrack) -> FatigueTrack:
    if track.levels > 0:
        return track
    return FatigueTrack(track.source)


def _clear_critical(tracks: dict[str, FatigueTrack]) -> dict[str, FatigueTrack]:
    if total_levels(tracks) >= CRITICAL_LEVEL:
        return tracks
    return {
        k: replace(t, critical=False, deadline=None, next_vigor_roll_at=None) if t.critical else t
        for k, t in tracks.items()
    }


def fatigue_elapse(
    tracks: Tracks,
    sources: Mapping[str, FatigueSource],
    *,
    old: dt.datetime,
    new: dt.datetime,
    roll_vigor: Callable[[], TraitRoll],
) -> tuple[dict[str, FatigueTrack], ElapseReport]:
    """Game time passes from ``old`` to ``new``: critical effects fall due, then levels recover."""
    new_tracks = dict(tracks)
    died_of: str | None = None
    woke_up = False
    rolls: list[TraitRoll] = []
    for key, track in tracks.items():
        if not track.critical:
            continue
        source = sources[key]
        saved_at = _first_recovery_at(track, source)
        kind = source.critical.kind
        if kind == "vigor_roll_every" and track.next_vigor_roll_at is not None:
            # Froid: « un jet de Vigueur par heure. En cas d'échec, le personnage meurt. »
            due = track.next_vigor_roll_at
            every = dt.timedelta(minutes=source.critical.every_minutes or 60)
            while due <= new and (saved_at is None or due < saved_at):
                roll = roll_vigor()
                rolls.append(roll)
                due += every
                if not roll.succeeded:
                    died_of = key
                    break
            new_tracks[key] = replace(track, next_vigor_roll_at=due)
        elif (
            kind in ("death_within", "death_in_rounds")
            and track.deadline is not None
            and track.deadline <= new
            and (saved_at is None or saved_at > track.deadline)
        ):
            died_of = key
        elif kind == "unconscious_for" and track.deadline is not None and track.deadline <= new:
            woke_up = True
            new_tracks[key] = replace(track, deadline=None)
        if died_of:
            break
    if died_of:
        return new_tracks, ElapseReport(died_of=died_of, vigor_rolls=tuple(rolls))
    recovered: dict[str, int] = {}
    for key, track in list(new_tracks.items()):
        if track.levels < 1:
            continue
        source = sources[key]
        gone = 0
        if track.recovers_at is not None:
            if track.recovers_at <= new:
                gone = track.levels
                track = replace(track, levels=0)
        else:
            interval = _interval(track, source)
            if track.recovering_since is not None and interval is not None:
                steps = int((new - track.recovering_since) / interval)
                gone = min(steps, track.levels)
                track = replace(
                    track, levels=track.levels - gone, recovering_since=track.recovering_since + steps * interval
                )
        if gone:
            recovered[key] = gone
            new_tracks[key] = _settle(track)
    new_tracks = _clear_critical(new_tracks)
    return new_tracks, ElapseReport(recovered=recovered, woke_up=woke_up, vigor_rolls=tuple(rolls))
