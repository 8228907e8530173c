"""Forms every app shares."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet

# The largest id a column holds: ids are BigAutoField (signed 64 bits) on SQLite as on PostgreSQL. SQLite
# cannot even bind a larger Python int (OverflowError, a 500) where PostgreSQL would only find no row.
MAX_ID = 2**63 - 1


class IdField(forms.IntegerField):
    """A row id a request carries that is not a choice among rows (a list of ids, a service's argument):
    digits only, between 1 and :data:`MAX_ID`, so it can reach any lookup."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        if value not in self.empty_values and not (isinstance(value, str) and value.isascii() and value.isdigit()):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        number: int | None = super().to_python(value)
        return number


def posted_id(raw: Any) -> int | None:
    """``raw`` as a row id within the column's range, else None (a typed, negative or 20-digit id)."""
    try:
        value: int | None = IdField(required=False).clean(raw)
    except forms.ValidationError:
        return None
    return value


def posted_ids(values: Any) -> list[int]:
    """The row ids among ``values`` (a ``getlist``), each bounded as :func:`posted_id`; the others are dropped."""
    ids = (posted_id(value) for value in values)
    return [value for value in ids if value is not None]


class IdChoiceField(forms.ModelChoiceField[Any]):
    """A row by its id: digits only, at most 18 of them (every id fits a 64-bit column), before any lookup.

    Django's own field lets thirty digits reach the database, which SQLite cannot bind (``OverflowError``)."""

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        raw = str(value)
        if not raw.isdigit() or len(raw) > 18:
            raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(raw)


class IdMultipleChoiceField(forms.ModelMultipleChoiceField[Any]):
    """Several rows by id, each checked as :class:`IdChoiceField` checks one."""

    def clean(self, value: Any) -> Any:
        for raw in value if isinstance(value, list | tuple) else ():
            if not str(raw).isdigit() or len(str(raw)) > 18:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": raw}
                )
        return super().clean(value)


class PickForm(forms.Form):
    """One row named by a posted id, among those ``queryset`` allows: an item to remove, a Revers to heal, a
    deck to reshuffle. A typed id (``abc``, ``1.5``, thirty digits) or another's row is a form error, where a
    bare ``get_object_or_404(pk=request.POST[...])`` raised ``ValueError`` or ``OverflowError`` (a 500)."""

    def __init__(self, data: Any, *, field: str, queryset: QuerySet[Any]) -> None:
        super().__init__(data)
        self.fields[field] = IdChoiceField(queryset=queryset)


def picked(data: Any, field: str, queryset: QuerySet[Any]) -> Any:
    """The row ``data[field]`` names within ``queryset``, or None."""
    form = PickForm(data, field=field, queryset=queryset)
    return form.cleaned_data[field] if form.is_valid() else None
