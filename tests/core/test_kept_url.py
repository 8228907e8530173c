"""``{% url %}`` prints what Django's ``reverse`` prints, from a per-process memory of answers, on every template of the
site (a built-in library: core/templatetags/kept_url.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.template import Context, Template
from django.urls import NoReverseMatch, reverse

from core.templatetags.kept_url import KeptURLNode, _reversed


def _render(text: str, **values: Any) -> str:
    return Template(text).render(Context({"a": 3, "b": 41, **values}))


def test_every_template_s_url_tag_is_the_kept_one() -> None:
    template = Template("{% url 'conflicts:panel' a b %}")
    assert any(isinstance(node, KeptURLNode) for node in template.nodelist)


def test_the_same_url_as_reverse_printed_or_kept_in_a_variable() -> None:
    _reversed.cache_clear()
    expected = reverse("conflicts:panel", args=[3, 41]) + "|" + reverse("conflicts:modifiers_form", args=[3, 41])
    for _ in range(2):  # asked, then kept
        assert _render("{% url 'conflicts:panel' a b %}|{% url 'conflicts:modifiers_form' a b %}") == expected
    assert _reversed.cache_info().hits == 2 and _reversed.cache_info().misses == 2
    assert _render("{% url 'conflicts:panel' a b as u %}[{{ u }}]") == "[/conflicts/3/participants/41/]"


def test_an_unknown_name_fails_as_django_s_tag_does() -> None:
    assert _render("{% url 'conflicts:nothing' a as u %}[{{ u }}]") == "[]"
    with pytest.raises(NoReverseMatch):
        _render("{% url 'conflicts:nothing' a %}")


class _Named:
    """A value whose text (what ``reverse`` prints) may change while it stays equal to itself, as a model instance."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Named)

    def __hash__(self) -> int:
        return 1


def test_only_plain_arguments_are_kept() -> None:
    _reversed.cache_clear()
    first, renamed = _Named("7"), _Named("8")
    assert _render("{% url 'conflicts:panel' a x %}", x=first) == "/conflicts/3/participants/7/"
    assert _render("{% url 'conflicts:panel' a x %}", x=renamed) == "/conflicts/3/participants/8/"
    assert _reversed.cache_info().currsize == 0
    # Keyword arguments go through Django's own tag too.
    assert _render("{% url 'conflicts:panel' campaign_id=a participant_id=b %}") == "/conflicts/3/participants/41/"
