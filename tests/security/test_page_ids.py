"""Every page's markup holds together for assistive technology (issue 28): no id twice on a page (the sheet had
``id_justification`` and ``id_name`` twice, so the raise form's justification had no label), every
``<label for>`` names a field of the page, and no table header is empty. Every GET page of the URL inventory
(tests/security/test_inventory.py), for the narrator and for a player, in French."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser
from typing import Any

import pytest

from tests.security.test_inventory import URLS, _privileged, _url

pytestmark = pytest.mark.django_db

SKIPPED = ("conflicts:sheet_roll_dialog", "campaigns:public_log", "tragic:invitation", "tragic:replay", "favicon")


class _Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.label_for: list[str] = []
        self.headers: list[str] = []  # the text of each <th>, attributes that name it included
        self._th: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(str(values["id"]))
        if tag == "label" and values.get("for"):
            self.label_for.append(str(values["for"]))
        if tag == "th":
            self._th = [str(values.get("aria-label") or ""), str(values.get("title") or "")]
        elif self._th is not None:
            # An image or an icon with a name names the header too.
            self._th.append(str(values.get("aria-label") or values.get("alt") or ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "th" and self._th is not None:
            self.headers.append("".join(self._th).strip())
            self._th = None

    def handle_data(self, data: str) -> None:
        if self._th is not None:
            self._th.append(data)


def _problems(html: str) -> list[str]:
    markup = _Markup()
    markup.feed(html)
    problems = [f"id {i!r} ×{n}" for i, n in Counter(markup.ids).items() if n > 1]
    problems += [f"label for {f!r}: no such id" for f in markup.label_for if f not in markup.ids]
    problems += ["an empty table header" for h in markup.headers if not h]
    return problems


def _pages(world: Any) -> list[tuple[str, Any]]:
    pages = []
    for name, spec in URLS.items():
        if spec.post_only or name in SKIPPED or name == "campaigns:invitation":
            continue
        pages.append((name, _privileged(world, spec) if spec.scope != "public" else None))
        if spec.scope == "campaign" and not spec.narrator:
            pages.append((name, world.alice))  # a player's sheet, home and log differ from the narrator's
    return pages


@pytest.mark.slow  # every page twice: about 11 s at load 7
def test_no_page_repeats_an_id_names_a_missing_field_or_leaves_a_header_empty(client, world):
    problems = []
    for name, user in _pages(world):
        world.login(client, user)
        response = client.get(_url(world, name), HTTP_ACCEPT_LANGUAGE="fr")
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        problems += [f"{name} ({user}): {p}" for p in _problems(response.content.decode())]
    problems = sorted(set(problems))
    print("\n".join(problems))
    assert problems == []


def test_the_checker_sees_what_the_issue_saw() -> None:
    page = '<input id="id_name"><input id="id_name"><label for="id_x">x</label><table><tr><th></th></tr></table>'
    assert _problems(page) == ["id 'id_name' ×2", "label for 'id_x': no such id", "an empty table header"]
    assert _problems('<table><tr><th><span class="sr-only">Roll</span></th><th aria-label="x"></th></tr></table>') == []
