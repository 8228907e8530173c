"""What each Event changed, named as subjects: the one place that says it, per event kind.

An Event touches:

- ``character:<id>`` and ``states:<id>`` for every character it names (its ``characters``, and the ids its
  payload carries: ``character_id``, ``from_id`` for a Revers taken from another, ``atout.character_id`` for
  the Atouts that paid a Test's follow-up), and ``characters:<campaign>`` when it names any (what reads every
  character of the campaign depends on that one). A split declared or a hand dealt (``CARDS_ONLY``) names its
  drawer for the log but changes their cards, not their character: it touches these only when the draw spent a use
  of a power's boost (its hand's ``boost``) or put the result on the table (``outcome``). A hand dealt touches its
  drawer's ``turn:<id>`` and the campaign's ``turns:<campaign>`` instead (whose draws are still waited for), so a
  draw in one Sequence leaves the drawer's rows in the others, their sheet and their panel alone;
- ``sequence:<id>`` for the Sequence its payload names (``sequence``: every event of a Sequence's use cases,
  ``conflicts.services.changes._append``), on which the Sequence's board depends; ``draw:<id>`` when it changes
  the draw as a whole (``DRAW_CHANGED``, or a result put on the table or changed: its payload's ``outcome``) and
  ``drew:<participant>`` for each participant whose own cards it changed (``own_cards``): a participant's row and
  draw panel depend on those two, so a draw renders its drawer's row again and finds the others kept;
- ``traits:<id>`` for those characters too (what a sheet's trait rows read: the traits and their ranks, the
  states, the Revers, a power's boost), unless its kind only moves Atouts (``ATOUTS_ONLY``: a gain, a refund, a
  spending that raises no trait), which change the sheet's counters and ledger and nothing its trait rows show;
- the campaign-wide subjects its kind declares below (``settings:<campaign>`` for a settings change, …), and
  ``asks:<campaign>`` for a Test that answers one the narrator asked (its payload's ``asked``);
- ``log:<campaign>``, always: every Event is a new entry of the log;
- ``table:<campaign>`` (``core.regions.TABLE``) when its kind is not declared below: every region of the
  campaign then renders anew. A new kind is correct before anyone declares it, and precise once declared.

``event_append`` writes each touched subject's version (the Event's stream position) in the Event's
transaction; ``versions`` reads them back for the kept-fragment service (``core.kept_regions``), and the live
layer asks ``subjects_of`` which open regions an Event changed (``campaigns.live_regions``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaigns.models import SubjectVersion
from campaigns.redaction import PARTS
from core.prepared import PreparedRead
from core.regions import TABLE, forget_versions, subject

CHARACTER = "character"
CHARACTERS = "characters"  # any character of the campaign
STATES = "states"
SETTINGS = "settings"  # the table's settings: campaign, character options, trait list, states, decks
CAST = "cast"  # who is in the campaign: a character created or handed to a player
SESSION = "session"
MEMBERS = "members"
FEED = "feed"  # the log alone
LOG = "log"  # every Event: each adds an entry to the log (the campaign pages' feeds read the newest)
REVERS = "revers"  # any character's active Revers (the « take a Revers in another's place » lists read them)
SEQUENCES = "sequences"  # the campaign's Sequences (the « Sequences under way » card)
DECKS = "decks"  # the cards of the campaign's decks: in the pile, on the table, discarded (a Sequence page's decks)
DRAW = "draw"  # one Sequence's draw as a whole: opened, joined, resolved, cut short, ended (every draw panel of it)
DREW = "drew"  # one participant's own cards: the split declared, the cards drawn, an Atout on them (their panel, row)
SEQUENCE = "sequence"  # one Sequence: every Event of it (its board; its rows follow ``draw`` and ``drew``)
ASKS = "asks"  # the Tests the narrator asked and still waits for (conflicts.asked_tests)
TRAITS = "traits"  # what one character's trait rows read: a narrower ``character`` (characters.trait_rows)
ROUND = "round"  # the campaign's round tracker: who is in the fight, their cards, whose turn (states.regions)
TURN = "turn"  # one character's turn to draw: whether it is still waited for in the Sequences under way
TURNS = "turns"  # anyone's turn to draw in the campaign (a narrator waits on every character's draw)

# Kinds that change a character's Atouts and ledger only (characters/services/atouts.py): they leave ``traits:<id>``
# alone. A spending that raises a trait says so in its payload (``trait``) and touches it.
ATOUTS_ONLY = frozenset({"character.atout_gained", "character.atout_refunded", "character.atout_spent"})

# Kinds that change a participant's cards and nothing of the characters they name (``subjects_of``): a split declared,
# a hand dealt, the narrator's tap dealing every NPC's. Their Events name the drawers for the log.
CARDS_ONLY = frozenset({"sequence.split", "sequence.drew", "sequence.npcs_drew"})
DEALS = frozenset({"sequence.drew", "sequence.npcs_drew"})  # a hand dealt: its drawer is no longer waited for

# Kinds that change every draw panel of the Sequence they name (``draw:<sequence>``): the next draw opened after the
# Revers are recorded, a participant joining or leaving, the draw cut short, declared or resolved, a participant
# outdistanced, the Sequence ended. A draw changes its drawer's panel (``drew:<participant>``), and every panel when it
# puts the result on the table (``outcome``).
DRAW_CHANGED = frozenset({"sequence.settled", "sequence.joined", "sequence.cut", "sequence.resolved",
                          "sequence.declared", "sequence.outdistanced", "sequence.left", "sequence.ended"})  # fmt: skip

# Kind prefixes (the longest that matches wins) and the campaign-wide subjects they touch, besides the characters
# they name.
DECLARED: dict[str, tuple[str, ...]] = {
    "character.": (),
    "character.created": (CAST,),
    "character.ally_handed": (CAST,),
    "character.updated": (CAST,),  # a rename: the other sheets' lists name it
    "character.rules_changed": (SETTINGS,),
    # The kinds whose use cases write Revers rows (characters/services/revers.py, recovery.py, powers.py).
    "character.revers_": (REVERS,),
    "character.first_aid": (REVERS,),
    "character.healing_cycle": (REVERS,),
    "character.regeneration_cycle": (REVERS,),
    "savage.revers_wounds": (REVERS,),
    "trait_list.changed": (SETTINGS,),
    "savage.": (),
    "savage.round_": (ROUND,),  # the round tracker's own Events (states/services/rounds.py)
    "savage.settings_changed": (SETTINGS,),
    "table.settings_changed": (SETTINGS,),
    "campaign.settings_changed": (SETTINGS,),
    "test.": (),
    "test.ask": (ASKS,),  # test.asked, test.ask_withdrawn; the Test that answers one carries ``asked`` (below)
    # A Sequence's events name its participants' characters (conflicts.services.changes._append); what they change
    # on a sheet (Revers, states, Atouts) comes with its own event or with those characters' subjects.
    "sequence.": (SEQUENCES,),
    # A draw that leaves others still to draw changes its drawer's characters (named), its Sequence (named) and the
    # decks it dealt from, not the list of Sequences under way: their titles and phases stay. The last draw, which
    # puts the result on the table (``outcome`` in its payload), moves the Sequence's phase and touches it
    # (``subjects_of``).
    "sequence.drew": (DECKS,),
    "sequence.npcs_drew": (DECKS,),  # the narrator's tap: every NPC's hand in one Event, as many draws would
    # What deals, discards or gathers cards: an Atout's card changed or drawn, the discard after settling or
    # resolving, a participant leaving or the Sequence ending with cards on the table, a reshuffle.
    "sequence.atout": (SEQUENCES, DECKS),
    # Settling also writes the draw's Revers on the sheets, as parts of its one Event (a Revers or wounds): what the
    # parts touch (the Revers lists) comes with them (``subjects_of``).
    "sequence.settled": (SEQUENCES, DECKS),
    "sequence.resolved": (SEQUENCES, DECKS),
    "sequence.left": (SEQUENCES, DECKS),
    "sequence.ended": (SEQUENCES, DECKS),
    "deck.": (DECKS,),
    "conflict.simple": (),
    "note": (FEED,),
    # A correction strikes out the entry it corrects: the entry's declaration reads its corrections as rows.
    "correction": (FEED,),
    "scene.created": (FEED,),
    "invitation.": (MEMBERS,),
    "member.": (MEMBERS,),
    "session.": (SESSION,),
}


def _declared(kind: str) -> tuple[str, ...] | None:
    matches = [prefix for prefix in DECLARED if kind.startswith(prefix)]
    return DECLARED[max(matches, key=len)] if matches else None


def named_characters(payload: Mapping[str, Any], character_ids: Iterable[int]) -> set[int]:
    """The characters an Event names: those linked to it and the ids its payload carries."""
    found = {int(pk) for pk in character_ids}
    for key in ("character_id", "from_id"):
        value = payload.get(key)
        if isinstance(value, int):
            found.add(value)
    atout = payload.get("atout")
    if isinstance(atout, Mapping) and isinstance(atout.get("character_id"), int):
        found.add(atout["character_id"])
    return found


def changes_characters(kind: str, payload: Mapping[str, Any]) -> bool:
    """Whether an Event of a ``CARDS_ONLY`` kind changed the characters it names: a draw that spent a use of a power's
    boost (« pour un nombre de tirages égal à la valeur du Domaine psychique Conscience », appendix 1: each draw on
    the boosted trait uses one, and the uses left are on the sheet and in the budget: ``characters.boosts``), for the
    drawer's hand or any of the narrator's tap (``boost``), or that put the result on the table (``outcome``)."""
    if "outcome" in payload:
        return True
    hands = payload.get("hands") if kind == "sequence.npcs_drew" else [payload]
    return any(isinstance(hand, Mapping) and hand.get("boost") is True for hand in hands or [])


def named_sequence(payload: Mapping[str, Any]) -> int | None:
    """The Sequence an Event names (its payload's ``sequence``), if any."""
    value = payload.get("sequence")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def own_cards(kind: str, payload: Mapping[str, Any]) -> set[int]:
    """The participants whose own cards an Event changed: a draw's (``participant``), every NPC's of the narrator's
    tap (``sequence.npcs_drew``: each of its ``hands`` as its own ``sequence.drew`` would say it), a split declared
    (``sequence.split``), and an Atout's spender and the teammate or opponent it names (``sequence.atout``:
    ``participant``, ``target_participant``: a card bought or countered, a help card, a Revers taken over)."""
    if kind == "sequence.npcs_drew":
        hands = [hand for hand in payload.get("hands", []) if isinstance(hand, Mapping)]
        found = [hand.get("participant") for hand in hands]
    elif kind in ("sequence.drew", "sequence.split"):
        found = [payload.get("participant")]
    elif kind == "sequence.atout":
        found = [payload.get("participant"), payload.get("target_participant")]
    else:
        return set()
    return {pk for pk in found if isinstance(pk, int) and not isinstance(pk, bool)}


def subjects_of(
    kind: str, campaign_id: int, payload: Mapping[str, Any], character_ids: Iterable[int]
) -> frozenset[str]:
    """The subjects an Event of ``kind`` touches (see the module's docstring)."""
    touched = set()
    traits = kind not in ATOUTS_ONLY or bool(payload.get("trait"))
    named = named_characters(payload, character_ids)
    if kind in DEALS:
        touched |= {subject(TURN, pk) for pk in named} | {subject(TURNS, campaign_id)}
    if kind in CARDS_ONLY and not changes_characters(kind, payload):
        named = set()
    for pk in named:
        touched |= {subject(CHARACTER, pk), subject(STATES, pk), subject(CHARACTERS, campaign_id)}
        if traits:
            touched.add(subject(TRAITS, pk))
    sequence_id = named_sequence(payload)
    if sequence_id is not None:
        touched.add(subject(SEQUENCE, sequence_id))
    declared = _declared(kind)
    scopes = (TABLE,) if declared is None else declared
    touched |= {subject(scope, campaign_id) for scope in (*scopes, LOG)}
    touched |= {subject(DREW, pk) for pk in own_cards(kind, payload)}
    if kind in DEALS and "outcome" in payload:
        touched.add(subject(SEQUENCES, campaign_id))  # the draw's result is on the table: the phase moved
    # A result put on the table (the last draw) or changed (an Atout drawing a card again or turning one): every
    # panel and row shows what each participant takes.
    if sequence_id is not None and (kind in DRAW_CHANGED or "outcome" in payload):
        touched.add(subject(DRAW, sequence_id))
    if payload.get("asked"):
        touched.add(subject(ASKS, campaign_id))  # the roll answered a Test asked: the asks waiting changed
    # An Event carrying parts (``campaigns.redaction``: a settle's Revers, a hazardous Test's) touches what each part's
    # Event would have touched: a Revers written is in every « take a Revers in another's place » list.
    parts = payload.get(PARTS)
    for part in parts if isinstance(parts, list) else []:
        if isinstance(part, Mapping) and isinstance(part.get("kind"), str):
            part_scopes = _declared(part["kind"])
            touched |= {subject(scope, campaign_id) for scope in ((TABLE,) if part_scopes is None else part_scopes)}
    return frozenset(touched)


def write_versions(campaign_id: int, touched: frozenset[str], position: int) -> None:
    """Every touched subject's version becomes ``position`` (one statement, in the Event's transaction)."""
    rows = [SubjectVersion(campaign_id=campaign_id, subject=name, position=position) for name in sorted(touched)]
    SubjectVersion.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["subject"], update_fields=["position"]
    )
    forget_versions()  # a render pass under way reads them again (core.regions.version_pass)


def versions(subjects: frozenset[str]) -> dict[str, int]:
    """The versions of ``subjects`` (absent: never touched since versions began, 0)."""
    return dict(SubjectVersion.objects.filter(subject__in=sorted(subjects)).values_list("subject", "position"))


def campaign_versions(campaign_id: int) -> dict[str, int]:
    """Every subject version of the campaign, in one query: a render pass reads them once for all its regions
    (a campaign holds two per character and a few campaign-wide ones)."""
    return dict(_campaign_versions(int(campaign_id)))


# Read by every page whose stream moved since its regions were kept: compiled once (``core.prepared``).
_campaign_versions = PreparedRead(
    lambda campaign_id: (
        SubjectVersion.objects.filter(campaign_id=campaign_id).order_by().values_list("subject", "position")
    )
)
