"""The fuzz suite's tools: the forms harvested from the pages, the hostile values, a one-query fingerprint.

Kept apart from ``test_fuzz.py`` so the test module reads as the claims it checks.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from django import forms
from django.apps import apps
from django.db import connection
from django.urls import Resolver404, resolve

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "campaigns", "characters", "conflicts", "core", "frag", "states", "tragic")

# What an attacker or a careless user posts: non-numbers, numbers out of every column's range, NUL bytes,
# long strings, a `next` that is no path, JSON nested past any limit, markup, odd Unicode.
HOSTILE: tuple[str, ...] = (
    "",
    " ",
    "abc",
    "-1",
    "0",
    "1.5",
    "1e3",
    "2147483648",
    "-2147483649",
    "32768",
    "9" * 30,
    "NaN",
    "\x00",
    "a\x00b",
    "x" * 5000,
    "é" * 300,
    "\u202e\ufeff",
    "<script>alert(1)</script>",
    "//evil.example/x",
    "javascript:alert(1)",
    "campaigns:list",
    "[" * 5000 + "]" * 5000,
    '{"a":' * 3000 + "1" + "}" * 3000,
    "{not json",
    "null",
    "[]",
    "on",
    "true",
)

# Names posted without a form on any page (the game action endpoints, links with a query).
EXTRA_NAMES = ("action", "choice", "seat", "version", "next", "return", "from", "page", "step", "mode", "play",
               "watch", "new", "q", "fmt", "csrfmiddlewaretoken")  # fmt: skip

# Keys of a forged game action: both engines' move vocabularies and their arguments.
ACTION_KEYS = ("kind", "type", "player", "card", "cards", "to", "path", "target", "weapon", "pile", "blockers",
               "split", "pay", "traits", "skills", "choice", "index", "seat", "x", "y")  # fmt: skip
ACTION_KINDS = ("play", "block", "attack", "pass", "end_turn", "move", "roll", "discard", "mulligan", "keep",
                "choose_traits", "choose_skills", "react", "search", "jump", "place", "take_weapon", "no_such_move")  # fmt: skip


@dataclass(frozen=True)
class HarvestedForm:
    """A form as a page draws it: where it posts and the values a browser would send untouched."""

    path: str
    method: str
    fields: tuple[tuple[str, str], ...]


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, Any]] = []
        self._form: dict[str, Any] | None = None
        self._select: str | None = None
        self._textarea: str | None = None
        self._selected: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._form = {"action": a.get("hx-post") or a.get("action", ""), "method": a.get("method", "get").lower(),
                          "fields": []}  # fmt: skip
            if a.get("hx-post"):
                self._form["method"] = "post"
            self.forms.append(self._form)
            return
        if self._form is None:
            return
        if tag == "input" and a.get("name"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self._form["fields"].append((a["name"], a.get("value", "on" if a.get("type") == "checkbox" else "")))
        elif tag == "select" and a.get("name"):
            self._select, self._selected = a["name"], None
        elif tag == "option" and self._select is not None and (self._selected is None or "selected" in a):
            self._selected = a.get("value", "")
        elif tag == "textarea" and a.get("name"):
            self._textarea = a["name"]
            self._form["fields"].append((a["name"], ""))
        elif tag == "button" and a.get("name"):
            self._form["fields"].append((a["name"], a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None and self._form is not None:
            self._form["fields"].append((self._select, self._selected or ""))
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea and self._form is not None and self._form["fields"]:
            name, value = self._form["fields"][-1]
            self._form["fields"][-1] = (name, value + data)


def harvest(html: str, page_path: str) -> list[HarvestedForm]:
    parser = _FormParser()
    parser.feed(html)
    found = []
    for form in parser.forms:
        path = (form["action"] or page_path).split("#")[0].split("?")[0]
        if path.startswith("/"):
            found.append(HarvestedForm(path, form["method"], tuple(form["fields"])))
    return found


def url_name_of(path: str) -> str | None:
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.view_name


def by_url_name(forms_found: list[HarvestedForm]) -> dict[str, list[HarvestedForm]]:
    result: dict[str, set[HarvestedForm]] = defaultdict(set)
    for form in forms_found:
        name = url_name_of(form.path)
        if name is not None:
            result[name].add(form)
    return {name: sorted(found, key=lambda f: (f.path, f.fields)) for name, found in result.items()}


def form_field_names() -> set[str]:
    """Every field name of every Django form of the project's apps, and every name a view reads by hand."""
    names: set[str] = set(EXTRA_NAMES)
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            names.update(re.findall(r"(?:POST|GET)(?:\.get|\.getlist)?[\(\[]\"(\w+)\"", text))
            names.update(re.findall(r"p\(r, \"(\w+)\"\)", text))
    for form_class in _form_classes():
        names.update(getattr(form_class, "base_fields", {}))
    return names


def _form_classes() -> list[type[forms.BaseForm]]:
    import importlib
    import inspect

    found = []
    for app in APPS:
        for path in (ROOT / app).rglob("forms*.py"):
            module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
            found += [c for _n, c in inspect.getmembers(module, inspect.isclass) if issubclass(c, forms.BaseForm)]
    return found


def forged_action(tree: Any) -> str:
    return json.dumps(tree)


def fingerprint_sql() -> str:
    """One query: every table's row count and the sum of its versions (or its latest change)."""
    parts = []
    for model in apps.get_models():
        if model._meta.app_label in ("sessions", "admin", "contenttypes", "auth", "axes"):
            continue
        table = connection.ops.quote_name(model._meta.db_table)
        parts.append(f"(SELECT COUNT(*) FROM {table})")
        fields = {f.name: f for f in model._meta.concrete_fields}
        if "version" in fields:
            column = connection.ops.quote_name(fields["version"].column)
            parts.append(f"(SELECT COALESCE(SUM({column}), 0) FROM {table})")
        elif "updated_at" in fields:
            column = connection.ops.quote_name(fields["updated_at"].column)
            parts.append(f"(SELECT MAX({column}) FROM {table})")
        if model._meta.pk is not None and model._meta.pk.get_internal_type() in ("AutoField", "BigAutoField"):
            parts.append(f"(SELECT MAX({connection.ops.quote_name(model._meta.pk.column)}) FROM {table})")
    return "SELECT " + ", ".join(parts)


def fingerprint(sql: str) -> tuple[Any, ...]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return tuple(cursor.fetchone())
