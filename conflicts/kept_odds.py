"""The split-odds answer kept until the table changes, with an ETag, and what it is computed from.

The odds of a split are a function of the split typed in, the participants (their traits, Revers, state
cards, splits declared and cards drawn), the decks' state and the table's settings. Each of those changes
only through a use case, which appends one Event and so moves the campaign's stream head
(``campaigns.kept``). Two things are kept under (head, the member, the participant, language, time zone):

- **the inputs** (``OddsInputs``): the participants, the decks, the table's settings and the participant's
  card budget (which no split changes). A split not seen yet is computed from them in
  memory: no query beyond the membership lookup that reads the head.
- **the answer**, per split sent (``odds_response``): a keystroke that repeats a split already seen costs
  the membership lookup and a cache read.

Rights: the inputs are built only after the view's check that this member controls this participant, and
every request checks it again on them; the member's row (role) and the head are in both keys, so a change
of either reads everything again. The ETag is the answer key's digest: a GET whose ``If-None-Match`` names
it gets a 304.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language

from campaigns.kept import table_head
from campaigns.models import Campaign, Membership
from conflicts.models import Participant, Sequence
from conflicts.rules.budget import Budget
from conflicts.rules.deck import DeckState
from conflicts.selectors import Address
from conflicts.services.changes import controls
from core.fragment_cache import enabled, kept_at


@dataclass
class OddsInputs:
    """Everything the odds of one participant's splits read, as the table stands."""

    sequence: Sequence  # with its campaign and the campaign's table settings (``decks.table_settings``)
    everyone: list[Participant]  # its participants, characters and owners loaded
    me: Participant  # one of ``everyone``
    states: dict[Address, DeckState]  # the decks as they stand
    budget: Budget  # the participant's cards to place: no split changes it
    to_place: int | None = None  # of those, the cards that can go somewhere (Shaken: those that can defend)


_MEMBER_FIELDS = [f.attname for f in Membership._meta.concrete_fields]
_CAMPAIGN_FIELDS = [f.attname for f in Campaign._meta.concrete_fields]
# Bump when odds_html's markup changes: a shared fragments cache would otherwise serve the old one.
MARKUP_VERSION = 1


def _digest(facts: object) -> str:
    return hashlib.blake2b(repr(facts).encode(), digest_size=20).hexdigest()


def _table_key(membership: Membership, participant_id: int) -> str:
    """The state of the table for this member's odds of this participant: the stream head, the member's row
    and the campaign's row (its options change without an Event), the language and the time zone. Read from
    the columns themselves: walking the rows with ``core.fragment_cache.fingerprint`` cost a tenth of the
    answer."""
    campaign = membership.campaign
    return "odds-table:" + _digest(
        (
            MARKUP_VERSION, get_language(), timezone.get_current_timezone_name(), table_head(membership),
            [getattr(membership, name) for name in _MEMBER_FIELDS], [getattr(campaign, name) for name in _CAMPAIGN_FIELDS],
            int(participant_id),
        )
    )  # fmt: skip


def split_sent(data: QueryDict) -> list[tuple[str, list[str]]]:
    """The fields of a split as sent, in a fixed order (the CSRF token is no part of it)."""
    return sorted((name, data.getlist(name)) for name in data if name != "csrfmiddlewaretoken")


# The inputs are kept as objects in this process, not in the fragments cache, which would pickle them: the copy
# cost more than the odds themselves (0.14 ms). They are only read (split_odds and odds_html change nothing).
KEPT_INPUTS = 256
_inputs_kept: OrderedDict[str, OddsInputs] = OrderedDict()
_inputs_lock = threading.Lock()


def _inputs(membership: Membership, table_key: str, load: Callable[[], OddsInputs]) -> OddsInputs:
    """``load()`` (which checks the rights), kept under ``table_key``; 404 unless this member controls it."""
    with _inputs_lock:
        inputs = _inputs_kept.get(table_key) if enabled() else None
        if inputs is not None:
            _inputs_kept.move_to_end(table_key)
    if inputs is None:
        inputs = load()
        if enabled():
            with _inputs_lock:
                _inputs_kept[table_key] = inputs
                while len(_inputs_kept) > KEPT_INPUTS:
                    _inputs_kept.popitem(last=False)
    if not controls(membership, inputs.me):
        raise Http404
    return inputs


def forget_odds_inputs() -> None:
    """Drop every kept input (tests, whose rolled-back rows hand their ids and stream positions out again)."""
    with _inputs_lock:
        _inputs_kept.clear()


def odds_response(
    request: HttpRequest,
    membership: Membership,
    participant_id: int,
    load: Callable[[], OddsInputs],
    render: Callable[[OddsInputs, QueryDict], str],
) -> HttpResponse:
    """``render(inputs, data)``, the odds partial for the split in ``data``, once per state of the table and
    split, from ``load()``'s inputs kept once per state of the table; with an ETag."""
    data = request.GET if request.method == "GET" else request.POST
    table_key = _table_key(membership, participant_id)
    key = "odds:" + _digest((table_key, split_sent(data)))
    etag = f'"{key.rsplit(":", 1)[-1][:40]}"'
    if request.method == "GET" and etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(kept_at(key, lambda _token: render(_inputs(membership, table_key, load), data), None))
    response["ETag"] = etag
    # Revalidated on each use: the browser keeps the answer and asks with If-None-Match (htmx's GET).
    patch_cache_control(response, private=True, no_cache=True)
    return response
