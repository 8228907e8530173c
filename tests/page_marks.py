"""What differs between two renders of one page whatever it shows, for the tests that compare them.

- The CSRF tokens: Django masks the token afresh for every answer, so two GETs never print the same one (and a random
  token of 64 letters and digits may spell a card's name: tests/frag/test_hot_seat.py).
- The stream position and the time the page was read at (``data-live-after``, ``data-live-since``): every Event moves
  the first, and the second is the clock's.
"""

from __future__ import annotations

import re

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|"X-CSRFToken": "[^"]*"')
PAGE_MARKS = re.compile(r'(csrfmiddlewaretoken" value="|X-CSRFToken": "|data-live-since="|data-live-after=")[^"]*"')


def without_tokens(html: str) -> str:
    """``html`` with each CSRF token written ``TOKEN``."""
    return TOKEN.sub("TOKEN", html)


def without_page_marks(html: str) -> str:
    """``html`` without its CSRF tokens and without the position and time the page was read at."""
    return PAGE_MARKS.sub("", html)
