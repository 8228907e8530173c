"""A Sequence's story, told in order as the log tells it: each line a region (``core.regions``), kept by its event.

The story is append-only: an event of a Sequence is never changed, and its line reads nothing but the event (its
payload and actor), the reader's language and the names the campaign's ``log_epoch`` stands for (renames bump it).
So a line is kept under that declaration, as a log entry is (``campaigns.entry_region``), and the board
(``conflicts.regions.BOARD``, which names the Sequence, its participants and the ``log_epoch``) nests the lines
(``{% regions "sequence-story-line" … %}``): after a draw the board is rendered anew around the lines kept before,
and only the new event is told. The story's one query reads each line's payload as text: only a line not kept yet
is decoded and made an event. Reading and telling every line again cost half of the narrator's page after a draw,
and grew with every draw of the Sequence.

Which lines a member reads is chosen before any is looked up (``EventQuerySet.visible_to``): a line is the same
bytes for every reader who may read it, so its viewer is nobody in particular, except for a kind that carries parts
(a settle's Revers, each with its sheet's visibility: an NPC's wounds are the narrator's). Such a line is told as its
reader may read it (``campaigns.redaction.told_to``) and kept for the readers who read it alike
(``campaigns.redaction.reader_apart``: the narrators, each player).

The board tells the **last** ``ON_BOARD`` lines told (each reader reads those of them they may: one read for every
reader of a live draw), with a link to the whole story (its own page, ``conflicts.story_views.story``) once there are
more. Every draw renders the board's foot anew, on the page and in the
push to every screen: telling the whole story there made each draw cost more, and each message weigh more, than the one
before (each draw adds a line, and the foot read, keyed and sent them all). The last lines are read newest first down
the campaign's recent-events index, so a long Sequence reads no more than a short one. The first line (the Sequence
begins) is everyone's: whoever may open the board reads at least one earlier line when the link shows, so the link
tells nobody of a line they may not read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User
from django.db.models import QuerySet, Subquery, TextField
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from campaigns.chronicle import describe
from campaigns.models import Event, Visibility
from campaigns.redaction import has_parts, private_readers, readable, reader_apart, told_to
from conflicts.models import Sequence
from core.prepared import PreparedRead
from core.regions import Depends, Region, pass_fact, register

if TYPE_CHECKING:
    from campaigns.models import Membership

STORY_KINDS = ("sequence.created", "sequence.joined", "sequence.declared", "sequence.drew", "sequence.npcs_drew",
               "sequence.resolved", "sequence.atout", "sequence.settled", "sequence.cut", "sequence.outdistanced",
               "sequence.left", "sequence.ended")  # fmt: skip

Row = tuple[int, str, str, "int | None", "str | None", str]  # pk, created (as stored), kind, actor, its name, payload

ON_BOARD = 20
"""How many of its last lines a Sequence's board tells (about two rounds of a table of eight); the story's own page
tells them all."""


@dataclass
class Story:
    """The lines of one Sequence that one member may read, in one query: each event's id, time, kind, actor and
    payload as text. An event is made (its payload decoded) only for a line not kept yet (``event``). ``whole``: every
    line (the story's page), else the board's last ``ON_BOARD``."""

    sequence: Sequence
    membership: Membership
    whole: bool = False
    _rows: dict[int, Row] | None = None

    @property
    def rows(self) -> dict[int, Row]:
        if self._rows is None:
            # Read once per render pass for every reader (the twenty pages a live draw is rendered for), then kept to
            # what this reader may read (``Event.objects.visible_to``'s rule: ``campaigns.redaction.readable``).
            told = told_rows(self.sequence, whole=self.whole)
            self._rows = {row[0]: row[:6] for row in told.rows if readable(row[6], row[7], self.membership)}
        return self._rows

    @property
    def earlier(self) -> bool:
        """Whether the story began before the lines told here (the board then links to the whole story)."""
        return told_rows(self.sequence, whole=self.whole).earlier

    def read_apart(self) -> frozenset[int]:
        """The lines this reader reads differently from a player reading only what every player may: a private
        line addressed to them, or a line with a part addressed to them (a settle's Revers of the NPC they run).
        Players with equal sets read the board's lines alike (``conflicts.regions``: the board's readers alike)."""
        if self.membership.is_narrator:
            return frozenset()
        return private_lines(self.sequence, whole=self.whole).get(int(self.membership.user_id), frozenset())

    @property
    def lines(self) -> list[StoryLine]:
        """What the board nests, one region each."""
        return [StoryLine(pk, row[1], self) for pk, row in self.rows.items()]

    def __bool__(self) -> bool:
        return bool(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[str]:
        """The lines' text, for code that reads the story rather than show it."""
        return iter([describe(told_to(self.event(pk), self.membership)) for pk in self.rows])

    def event(self, pk: int) -> Event:
        """The event of line ``pk`` as a describer reads it: its kind, payload and actor (a describer reads
        nothing else; any other column would be read on first use, as Django reads a deferred field)."""
        _pk, _created, kind, actor_id, actor_name, payload = self.rows[pk]
        known = {"id": pk, "campaign_id": self.sequence.campaign_id, "kind": kind,
                 "actor_id": actor_id, "payload": json.loads(payload)}  # fmt: skip
        # ``from_db`` takes the values in the model's order of fields.
        names = [f.attname for f in Event._meta.concrete_fields if f.attname in known]
        event = Event.from_db(Event.objects.db, names, [known[name] for name in names])
        if actor_id is not None:
            actor = User.from_db(Event.objects.db, ["id", "username"], [actor_id, actor_name])
            Event.actor.field.set_cached_value(event, actor)
        return event


@dataclass(frozen=True)
class StoryLine:
    """One line of a story: its event (with its creation time: SQLite hands a deleted row's id out again)."""

    pk: int
    created: str
    story: Story


def line_depends(line: StoryLine, _membership: Any = None, _request: Any = None) -> Depends:
    """A line's declaration (see the module's docstring): its event, the names the ``log_epoch`` stands for, and who
    reads it alike (everyone, but for a kind with parts)."""
    story = line.story
    sequence = story.sequence
    return Depends(
        campaign_id=int(sequence.campaign_id),
        subjects=frozenset(),
        rows=(line.pk, line.created, sequence.campaign.log_epoch),
        viewer=reader_apart(story.rows[line.pk][2], story.membership),
    )


def _line_context(line: StoryLine, _membership: Any, _request: Any) -> dict[str, Any]:
    # As this member may read it: a settle's parts (campaigns.redaction), an NPC's wounds among them.
    return {"line": describe(told_to(line.story.event(line.pk), line.story.membership))}


STORY_LINE = register(
    Region(
        name="sequence-story-line",
        template="conflicts/partials/story_line.html",
        load=lambda _pk, _membership: None,  # told inside its board only
        context=_line_context,
        depends=line_depends,
    )
)


FullRow = tuple[int, str, str, "int | None", "str | None", str, str, "int | None"]  # a Row, its visibility, recipient


@dataclass(frozen=True)
class Told:
    """The lines of a story read for a board (its last ``ON_BOARD``) or for its page (all), whoever may read them."""

    rows: tuple[FullRow, ...]
    earlier: bool  # lines before these exist (the board's link to the whole story)


def told_rows(sequence: Sequence, *, whole: bool = False) -> Told:
    """The lines of ``sequence``'s story (``whole``: all of them, else the board's last ``ON_BOARD``), with their
    visibility and recipient, in one query per render pass (``core.regions.pass_fact``)."""
    told: Told = pass_fact(("sequence story", int(sequence.pk), whole), lambda: _read_rows(sequence, whole=whole))
    return told


def _told(campaign_id: int, sequence_id: int, sequence_key: str, *, newest_first: bool) -> QuerySet[Event, FullRow]:
    """The story's lines, with what ``Told`` holds of each (see ``_read_rows``): its SQL compiled once per thread."""
    return (
        Event.objects.filter(campaign_id=campaign_id)
        # A sequence's events all come after its creation: the campaign's recent-events index reads only those,
        # rather than every sequence event of the campaign's history (the creation read in the same statement).
        .filter(
            created_at__gte=Subquery(Sequence.objects.filter(pk=sequence_id).order_by().values("created_at")[:1]),
            kind__in=STORY_KINDS,  # the query's own parameters, kept as they are (``core.prepared``)
        )
        # The Sequence the payload names, compared as text: one comparison, with the id as its parameter, on either
        # database (a JSON value compared as JSON takes a parameter each database adapts its own way).
        .alias(told_sequence=Cast(KeyTextTransform("sequence", "payload"), TextField()))
        .filter(told_sequence=sequence_key)
        # The payload and the time as the database holds them: decoding every line's, kept or not, was most of the
        # read. The time only tells this event from another that once had its id.
        .annotate(payload_text=Cast("payload", TextField()), created_text=Cast("created_at", TextField()))
        .values_list(
            "pk", "created_text", "kind", "actor_id", "actor__username", "payload_text", "visibility", "recipient_id"
        )
        .order_by(*(("-created_at", "-pk") if newest_first else ("created_at", "pk")))
    )


# Built by Django, compiled once: the query with its JSON key, its subquery and its casts cost the ORM about ten
# times what the database spends running it (1.2-1.7 ms against 0.12 ms on SQLite), at every live draw's pass.
_whole_story = PreparedRead(lambda *args: _told(*args, newest_first=False))
_last_lines = PreparedRead(lambda *args: _told(*args, newest_first=True)[: ON_BOARD + 1])


def _read_rows(sequence: Sequence, *, whole: bool) -> Told:
    args = (int(sequence.campaign_id), int(sequence.pk), str(int(sequence.pk)))
    if whole:
        return Told(tuple(_whole_story(*args)), earlier=False)
    # Newest first down the campaign's recent-events index, one more than the board tells: whether the story goes
    # further back, without counting it.
    newest = _last_lines(*args)
    return Told(tuple(reversed(newest[:ON_BOARD])), earlier=len(newest) > ON_BOARD)


def private_lines(sequence: Sequence, *, whole: bool = False) -> dict[int, frozenset[int]]:
    """Each player's lines read apart among those told (``whole``: all, else the board's; ``Story.read_apart``), from
    the pass's one read of them."""

    def load() -> dict[int, frozenset[int]]:
        apart: dict[int, set[int]] = {}
        for pk, _created, kind, _actor, _name, payload, visibility, recipient in told_rows(sequence, whole=whole).rows:
            readers = private_readers(json.loads(payload)) if has_parts(kind) else set()  # given a part apart
            if visibility == Visibility.PLAYER and recipient is not None:
                readers.add(int(recipient))  # a line only they read
            for reader in readers:
                apart.setdefault(reader, set()).add(pk)
        return {user: frozenset(lines) for user, lines in apart.items()}

    found: dict[int, frozenset[int]] = pass_fact(("sequence story apart", int(sequence.pk), whole), load)
    return found


def sequence_story(sequence: Sequence, membership: Membership, *, whole: bool = False) -> Story:
    """The story of ``sequence`` as ``membership`` may read it: the board's last lines, or ``whole``."""
    return Story(sequence, membership, whole=whole)
