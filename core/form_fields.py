"""Typed access to a form's fields where a form fills them in ``__init__`` (choices, a queryset).

``form.fields[name]`` is a plain ``Field`` to the type checker; these say which kind it is, and fail
loudly if a field is renamed or retyped instead of setting an attribute that no widget reads.
"""

from __future__ import annotations

from typing import Any

from django import forms


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's choice field ``name``, whose choices the form sets when it is built."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{type(form).__name__}.{name} is not a ChoiceField")
    return field


def model_choice_field(form: forms.BaseForm, name: str) -> forms.ModelChoiceField[Any]:
    """The form's model choice field ``name`` (single or multiple), whose queryset the form sets."""
    field = form.fields[name]
    if not isinstance(field, forms.ModelChoiceField):
        raise TypeError(f"{type(form).__name__}.{name} is not a ModelChoiceField")
    return field
