"""Regions of an HTML page found by id, and live fragments applied to a page as htmx applies them: enough of a
DOM, in plain Python, for the tests that compare a page with its live messages to a fresh one
(tests/campaigns/test_one_truth.py, tests/characters/test_stale_screens.py)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from tests.page_marks import TOKEN

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
OOB = re.compile(r'\s+hx-swap-oob="[^"]*"')


class _Spans(HTMLParser):
    """The source span of every element that carries an id, and of every top-level element."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self.html = html
        self.lines = [0]
        for line in html.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.stack: list[tuple[str, int, dict[str, str | None]]] = []
        self.ids: dict[str, tuple[int, int]] = {}
        self.top: list[tuple[int, int, dict[str, str | None]]] = []
        self.feed(html)
        self.close()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def _closed(self, start: int, end: int, attrs: dict[str, str | None]) -> None:
        element_id = attrs.get("id")
        if element_id and element_id not in self.ids:
            self.ids[element_id] = (start, end)
        if not self.stack:
            self.top.append((start, end, attrs))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        if tag in VOID:
            end = start + len(self.get_starttag_text() or "")
            self._closed(start, end, dict(attrs))
            return
        self.stack.append((tag, start, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        self._closed(start, start + len(self.get_starttag_text() or ""), dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        end = self.html.index(">", self._offset()) + 1
        while self.stack:
            open_tag, start, attrs = self.stack.pop()
            if open_tag == tag:
                self._closed(start, end, attrs)
                return


def element(html: str, element_id: str) -> str | None:
    """The outer HTML of the element with ``element_id``, CSRF tokens and oob markers blanked."""
    span = _Spans(html).ids.get(element_id)
    if span is None:
        return None
    return OOB.sub("", TOKEN.sub("TOKEN", html[span[0] : span[1]]))


def apply_fragments(page: str, message: str) -> str:
    """``page`` with a live message's out-of-band swaps applied (``hx-swap-oob="true"`` or ``outerHTML``: the element
    with the same id is replaced; ``beforeend:#x``: appended inside ``#x``; ``afterbegin:#x``: put first inside ``#x``; ``innerHTML:#x``: put inside ``#x`` in
    place of what it held; ``delete``: removed)."""
    for start, end, attrs in _Spans(message).top:
        swap, piece = attrs.get("hx-swap-oob"), message[start:end]
        if not swap:
            continue
        spans = _Spans(page).ids
        if swap in ("true", "outerHTML") and attrs.get("id") in spans:
            at = spans[str(attrs["id"])]
            page = page[: at[0]] + OOB.sub("", piece, count=1) + page[at[1] :]
        elif swap.startswith("innerHTML:#") and swap[len("innerHTML:#") :] in spans:
            inner = piece[piece.index(">") + 1 : piece.rindex("<")]
            at = spans[swap[len("innerHTML:#") :]]
            opened, closed = page.index(">", at[0]) + 1, page.rindex("<", 0, at[1])
            page = page[:opened] + inner + page[closed:]
        elif swap.startswith("afterbegin:#") and swap[len("afterbegin:#") :] in spans:
            inner = piece[piece.index(">") + 1 : piece.rindex("<")]
            opened = page.index(">", spans[swap[len("afterbegin:#") :]][0]) + 1
            page = page[:opened] + inner + page[opened:]
        elif swap.startswith("beforeend:#") and swap[len("beforeend:#") :] in spans:
            inner = piece[piece.index(">") + 1 : piece.rindex("<")]
            close = spans[swap[len("beforeend:#") :]][1]
            close = page.rindex("<", 0, close)
            page = page[:close] + inner + page[close:]
        elif swap == "delete" and attrs.get("id") in spans:
            at = spans[str(attrs["id"])]
            page = page[: at[0]] + page[at[1] :]
    return page


def ids(html: str, prefix: str) -> list[str]:
    """The ids of the elements of ``html`` that begin with ``prefix`` (``event-``: the log entries), in order."""
    found = sorted((span, element_id) for element_id, span in _Spans(html).ids.items() if element_id.startswith(prefix))
    return [element_id for _span, element_id in found]
