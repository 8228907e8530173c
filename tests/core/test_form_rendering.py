"""Widgets rendered once per (template, language, data) look exactly as Django draws them."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from core.form_rendering import CachedWidgetRenderer


class Sample(forms.Form):
    name = forms.CharField(label=_("name"), initial="Jim")
    kind = forms.ChoiceField(choices=[("pc", _("Player")), ("npc", _("Narrator"))], initial="npc")
    tags = forms.MultipleChoiceField(choices=[(1, "a"), (2, "b")], widget=forms.CheckboxSelectMultiple, initial=[2])
    private = forms.BooleanField(required=False)
    when = forms.DateField(initial=dt.date(2026, 11, 23))


def _html(form: forms.Form) -> list[str]:
    return [str(form[name]) for name in form.fields]


def test_cached_widgets_are_byte_identical_to_djangos_in_both_languages() -> None:
    cached = CachedWidgetRenderer()
    for language in ("fr", "en", "fr"):
        with translation.override(language):
            plain = _html(Sample(renderer=DjangoTemplates()))
            first = _html(Sample(renderer=cached))
            again = _html(Sample(renderer=cached))
        assert first == plain and again == plain
    with translation.override("en"):
        assert ">Narrator</option>" in str(Sample(renderer=cached)["kind"])
    with translation.override("fr"):
        assert ">Narrateur</option>" in str(Sample(renderer=cached)["kind"])


def test_a_different_value_or_choice_is_a_different_entry() -> None:
    cached = CachedWidgetRenderer()
    one = str(Sample(renderer=cached, initial={"name": "Jim"})["name"])
    other = str(Sample(renderer=cached, initial={"name": "Lisa"})["name"])
    assert 'value="Jim"' in one and 'value="Lisa"' in other
    form = Sample(renderer=cached)
    form.fields["kind"].choices = [("pc", "Secret NPC plan")]
    assert "Secret NPC plan" in str(form["kind"])
    assert "Secret NPC plan" not in str(Sample(renderer=cached)["kind"])


def test_bound_forms_with_errors_render_as_usual() -> None:
    cached = CachedWidgetRenderer()
    form = Sample({"name": "", "kind": "zzz"}, renderer=cached)
    assert not form.is_valid()
    assert str(form) == str(Sample({"name": "", "kind": "zzz"}, renderer=DjangoTemplates()))
