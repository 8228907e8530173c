"""``{% url_kept %}`` prints what ``{% url %}`` prints, from a per-process memory of answers."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import NoReverseMatch


def _render(text: str) -> str:
    return Template("{% load tablee %}" + text).render(Context({"a": 3, "b": 41}))


def test_the_same_url_as_the_url_tag_printed_or_kept_in_a_variable() -> None:
    plain = _render("{% url 'conflicts:panel' a b %}|{% url 'conflicts:modifiers_form' a b %}")
    assert plain == "/conflicts/3/participants/41/|/conflicts/3/participants/41/modifiers/form/"
    for _ in range(2):  # asked, then kept
        assert _render("{% url_kept 'conflicts:panel' a b %}|{% url_kept 'conflicts:modifiers_form' a b %}") == plain
    assert _render("{% url_kept 'conflicts:panel' a b as u %}[{{ u }}]") == "[/conflicts/3/participants/41/]"


def test_an_unknown_name_fails_as_the_url_tag_does() -> None:
    assert _render("{% url_kept 'conflicts:nothing' a as u %}[{{ u }}]") == "[]"
    with pytest.raises(NoReverseMatch):
        _render("{% url_kept 'conflicts:nothing' a %}")
