"""Markdown written by players and narrators, rendered to HTML that cannot carry scripts."""

from __future__ import annotations

import threading
from functools import lru_cache

import markdown as md
import nh3

_ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4", "h5", "h6",
    "hr", "i", "li", "ol", "p", "pre", "strong", "sub", "sup", "table", "tbody", "td", "th",
    "thead", "tr", "ul",
}  # fmt: skip

# Building a Markdown converter costs more than converting a note, so each thread keeps one.
_local = threading.local()


def _converter() -> md.Markdown:
    converter = getattr(_local, "converter", None)
    if converter is None:
        converter = md.Markdown(extensions=["extra", "sane_lists"], output_format="html")
        _local.converter = converter
    return converter


@lru_cache(maxsize=4096)
def render_markdown(text: str) -> str:
    """Markdown to sanitised HTML: no raw HTML survives except the safe formatting tags."""
    html = _converter().reset().convert(text)
    return nh3.clean(
        html,
        tags=_ALLOWED_TAGS,
        attributes={"a": {"href", "title"}, "abbr": {"title"}, "td": {"align"}, "th": {"align"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
