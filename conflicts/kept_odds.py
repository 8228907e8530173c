"""The split-odds answer kept until the table changes, with an ETag.

The odds of a split are a function of the split typed in, the participants (their traits, Revers, splits
declared and cards drawn), the decks' state and the table's settings. Each of those changes only through
a use case, which appends one Event and so moves the campaign's stream head (``campaigns.kept``). The
answer is kept under (head, the member, the participant, the split posted, language, time zone): a
keystroke that repeats a split already seen costs the membership lookup and a cache read.

Rights: only a rendered answer is kept, so the first answer for a key went through the view's check that
this member controls this participant; the member's row (role) and the head are in the key, so a change
of either checks again. The ETag is the key's digest: a GET whose ``If-None-Match`` names it gets a 304.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.utils.cache import patch_cache_control
from django.utils.safestring import SafeString

from campaigns.kept import table_head
from campaigns.models import Membership
from core.fragment_cache import kept, key_of


def split_posted(data: QueryDict) -> list[tuple[str, list[str]]]:
    """The fields of a split as sent, in a fixed order (the CSRF token is no part of it)."""
    return sorted((name, data.getlist(name)) for name in data if name != "csrfmiddlewaretoken")


def odds_response(
    request: HttpRequest, membership: Membership, participant_id: int, render: Callable[[QueryDict], SafeString | str]
) -> HttpResponse:
    """``render(data)`` (the odds partial for the split in ``data``) once per state of the table, with an ETag."""
    data = request.GET if request.method == "GET" else request.POST
    key = ("odds", table_head(membership), membership, participant_id, split_posted(data))
    etag = f'"{key_of("odds", key).rsplit(":", 1)[-1][:40]}"'
    if request.method == "GET" and etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(kept("odds", key, lambda _token: str(render(data)), None))
    response["ETag"] = etag
    # Revalidated on each use: the browser keeps the answer and asks with If-None-Match (htmx's GET).
    patch_cache_control(response, private=True, no_cache=True)
    return response
