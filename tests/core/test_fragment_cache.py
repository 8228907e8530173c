"""The key of a kept fragment (core/fragment_cache.py): every value a template can show is in it, nothing else is.

A kept fragment is only served to a reader whose own rendering would be the same bytes, so the key must tell apart
what prints differently (a safe string from a plain one, a row with another related row loaded, a form with other
choices) and refuse what it cannot see (a bound form, an unknown object). The CSRF token is never kept.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable

import pytest
from django import forms
from django.contrib.auth.models import Group, Permission, User
from django.core.cache import caches
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from core.fragment_cache import (
    CSRF_INPUT,
    CSRF_MARKER,
    Unkeyable,
    fingerprint,
    kept,
    kept_at,
    key_of,
    token_input,
    with_token,
)

TEMPLATE = "characters/partials/panel.html"


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Chip:
    label: str
    count: int


class Pick(forms.Form):
    colour = forms.ChoiceField(choices=[("r", "Red"), ("b", "Blue")])
    note = forms.CharField(required=False)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    caches["fragments"].clear()


def test_a_safe_string_and_a_plain_one_are_two_keys() -> None:
    # « <b> » prints as a tag from one and escaped from the other.
    assert fingerprint(mark_safe("<b>")) != fingerprint("<b>")  # noqa: S308
    assert fingerprint("<b>") == ("str", "<b>")


def test_plain_values_enums_lazy_strings_sets_and_dataclasses_are_read_field_by_field() -> None:
    assert fingerprint(3) == 3 and fingerprint(None) is None
    assert fingerprint(Colour.RED) == ("enum", "Colour", "red")
    with translation.override("fr"):
        french = fingerprint(gettext_lazy("Wounds"))
    with translation.override("en"):
        english = fingerprint(gettext_lazy("Wounds"))
    assert english == ("str", "Wounds") and french != english  # a lazy string in the active language
    assert fingerprint({1, "a"}) == fingerprint({"a", 1})  # a set's order is no difference
    assert fingerprint(Chip("Atout", 1)) != fingerprint(Chip("Atout", 2))
    assert fingerprint({"k": [1, (2,)]}) == ("map", ((("str", "k"), ("seq", (1, ("seq", (2,))))),))


def test_a_value_the_key_cannot_see_is_refused() -> None:
    with pytest.raises(Unkeyable):
        fingerprint(object())
    deep: list[object] = []
    for _ in range(30):
        deep = [deep]
    with pytest.raises(Unkeyable, match="too deep"):
        fingerprint(deep)


@pytest.mark.django_db
def test_a_row_brings_its_columns_and_the_related_rows_loaded_with_it() -> None:
    plain = Permission.objects.order_by("pk").first()
    joined = Permission.objects.select_related("content_type").order_by("pk").first()
    assert plain is not None and joined is not None
    assert fingerprint(plain) != fingerprint(joined)  # the template can read the content type without a query
    assert ("content_type", fingerprint(joined.content_type)) in fingerprint(joined)[3]
    group = Group.objects.create(name="Narrateurs")
    group.permissions.add(plain)
    fetched = Group.objects.prefetch_related("permissions").get(pk=group.pk)
    assert fingerprint(fetched)[4] == (("permissions", fingerprint([plain])),)
    user = User(username="jim")
    assert fingerprint([user, user])[1][1] == ("again", "auth.User", None)  # met again: already in the key


def test_an_unbound_form_is_keyed_by_its_fields_and_choices_and_a_bound_one_is_refused() -> None:
    form = fingerprint(Pick())
    assert form[0] == "form" and "Blue" in repr(form)
    other = Pick()
    other.fields["colour"].choices = [("r", "Red")]
    assert fingerprint(other) != form
    assert fingerprint(Pick(initial={"note": "x"})) != form
    with pytest.raises(Unkeyable, match="bound form"):
        fingerprint(Pick(data={"colour": "r"}))


def test_the_key_holds_the_language_and_the_parts() -> None:
    with translation.override("fr"):
        french = key_of("panel", {"n": 1}, TEMPLATE)
        assert key_of("panel", {"n": 1}, TEMPLATE) == french
        assert key_of("panel", {"n": 2}, TEMPLATE) != french
    with translation.override("en"):
        assert key_of("panel", {"n": 1}, TEMPLATE) != french
    assert french.startswith("fragment:") and ":panel:" in french


def test_the_csrf_token_is_put_back_for_each_reader() -> None:
    assert token_input(None) == "" and token_input("NOTPROVIDED") == ""
    assert token_input("t<1") == '<input type="hidden" name="csrfmiddlewaretoken" value="t&lt;1">'
    html = f"<form>{CSRF_INPUT}</form><script>token='{CSRF_MARKER}'</script>"
    assert with_token(html, "abc") == (
        '<form><input type="hidden" name="csrfmiddlewaretoken" value="abc"></form><script>token=\'abc\'</script>'
    )
    assert with_token(html, None) == "<form></form><script>token=''</script>"
    assert with_token("<p>plain</p>", "abc") == "<p>plain</p>"
    # A live pass renders for every page with the marker, each socket putting its own token in afterwards: the marker
    # as the token leaves the fragment as it was kept, the same bytes as putting it in again would give.
    assert with_token(html, CSRF_MARKER) == html
    assert token_input(CSRF_MARKER) == CSRF_INPUT
    assert str(with_token(html, "a&b")).count("a&amp;b") == 2


def test_a_page_masks_its_token_once_and_again_after_the_secret_changes(rf) -> None:  # type: ignore[no-untyped-def]
    """One masked token for the whole answer, as ``{% csrf_token %}`` prints it (each ``get_token`` masks the secret
    afresh with 32 random characters); a rotated secret (a sign-in) is masked again."""
    from django.middleware.csrf import _unmask_cipher_token, rotate_token  # type: ignore[attr-defined]  # Django's own

    from core.fragment_cache import page_token

    request = rf.get("/")
    first = page_token(request)
    assert page_token(request) == first and len(first) == 64
    secret = request.META["CSRF_COOKIE"]
    assert _unmask_cipher_token(first) == secret
    rotate_token(request)
    again = page_token(request)
    assert again != first and _unmask_cipher_token(again) == request.META["CSRF_COOKIE"] != secret


def _counting() -> tuple[list[str | None], Callable[[str | None], str]]:
    calls: list[str | None] = []

    def render(token: str | None) -> str:
        calls.append(token)
        return f"<p>{len(calls)}</p>{token_input(token)}"

    return calls, render


def test_a_fragment_is_rendered_once_per_key_and_served_with_each_readers_token() -> None:
    calls, render = _counting()
    first = kept("panel", {"n": 1}, render, "alice", template=TEMPLATE)
    second = kept("panel", {"n": 1}, render, "bob", template=TEMPLATE)
    assert calls == [CSRF_MARKER]  # rendered once, with the marker, never with a reader's token
    assert 'value="alice"' in first and 'value="bob"' in second and "alice" not in second
    kept("panel", {"n": 2}, render, "bob", template=TEMPLATE)
    assert len(calls) == 2


def test_an_unkeyable_context_or_a_cache_turned_off_renders_every_time(settings) -> None:  # type: ignore[no-untyped-def]
    calls, render = _counting()
    kept("form", {"form": Pick(data={})}, render, "t", template=TEMPLATE)
    kept("form", {"form": Pick(data={})}, render, "t", template=TEMPLATE)
    assert calls == ["t", "t"]
    settings.FRAGMENT_CACHE = False
    kept("panel", {"n": 1}, render, "u", template=TEMPLATE)
    assert kept_at("any-key", render, "v") == '<p>4</p><input type="hidden" name="csrfmiddlewaretoken" value="v">'
    assert calls == ["t", "t", "u", "v"]
