"""The words of the log's search: folded once in Python, so that SQLite and PostgreSQL match alike.

An event's searched words are those of the payload keys a reader sees in its entry (a note's text, a
title, a name, a goal, a reason), folded: case aside, accents aside (« Révers » and « revers » are one
word), « œ » and « æ » written out. They are stored on the event as it is written (``Event.search_text``,
words joined by single spaces) and indexed by a full-text index of each database (SQLite FTS5,
PostgreSQL GIN over ``to_tsvector('simple', …)``; migration 0005). Neither index has to know French:
both only split on spaces what this module already folded.

A search matches whole words or their beginnings: every word typed must begin a word of the entry
(« rev » finds « Révers », « vers » does not). docs/rules-decisions.md says why.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

# The payload keys that hold words a reader sees in an entry (notes, scenes, sequences, corrections).
SEARCHED_KEYS = ("text", "title", "name", "goal", "reason")
# At most this many words of a search are used: a pasted paragraph would otherwise become a huge query.
MAX_QUERY_WORDS = 8

_WORD = re.compile(r"[^\W_]+")  # letters and digits: what both indexes keep of a word
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})


def fold(text: str) -> str:
    """``text`` with case and accents aside: « Œuvre Révèle » → « oeuvre revele »."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return bare.translate(_LIGATURES)


def words(text: str) -> list[str]:
    """The folded words of ``text``, in order."""
    return _WORD.findall(fold(text))


def event_search_text(payload: Mapping[str, Any]) -> str:
    """What the search indexes of an event: the folded words of its searched payload keys."""
    found: list[str] = []
    for key in SEARCHED_KEYS:
        value = payload.get(key)
        if isinstance(value, str):
            found.extend(words(value))
    return " ".join(found)


def query_words(query: str) -> list[str]:
    """The words of a typed search, folded, once each, at most ``MAX_QUERY_WORDS``."""
    return list(dict.fromkeys(words(query)))[:MAX_QUERY_WORDS]


def name_matches(name: str, wanted: list[str]) -> bool:
    """Whether every wanted word begins a word of ``name`` (a character's name, matched as the entries are)."""
    have = words(name)
    return bool(wanted) and all(any(word.startswith(w) for word in have) for w in wanted)


def fts5_query(wanted: list[str]) -> str:
    """An FTS5 MATCH expression: every word as a quoted prefix (the words are letters and digits only)."""
    return " ".join(f'"{w}"*' for w in wanted)


def tsquery(wanted: list[str]) -> str:
    """A PostgreSQL ``to_tsquery`` text: every word as a prefix, all of them required."""
    return " & ".join(f"'{w}':*" for w in wanted)
