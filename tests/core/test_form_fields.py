"""A form's fields filled in __init__ are reached by their kind; a renamed or retyped field fails loudly."""

from __future__ import annotations

import pytest
from django import forms

from core.form_fields import choice_field, model_choice_field


class Sample(forms.Form):
    kind = forms.TypedChoiceField(coerce=int)
    text = forms.CharField()


def test_a_choice_field_is_returned_to_fill() -> None:
    form = Sample()
    choice_field(form, "kind").choices = [(1, "one")]
    assert list(form.fields["kind"].choices) == [(1, "one")]


def test_a_field_of_another_kind_is_refused() -> None:
    with pytest.raises(TypeError, match="Sample.text is not a ChoiceField"):
        choice_field(Sample(), "text")
    with pytest.raises(TypeError, match="Sample.kind is not a ModelChoiceField"):
        model_choice_field(Sample(), "kind")
