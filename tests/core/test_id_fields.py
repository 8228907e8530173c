"""Ids a request carries, checked before any lookup (core/forms.py): digits only, within a 64-bit column.

A typed id (``abc``, ``1.5``, ``-3``), a non-ASCII digit or thirty digits is a form error or nothing, never a
query SQLite cannot bind (``OverflowError``, a 500); another's row is not a choice.
"""

from __future__ import annotations

import pytest
from django import forms
from django.contrib.auth.models import User

from core.forms import MAX_ID, IdChoiceField, IdField, IdMultipleChoiceField, picked, posted_id, posted_ids

pytestmark = pytest.mark.django_db


def test_an_id_field_takes_ascii_digits_within_the_column_only() -> None:
    field = IdField()
    assert field.clean("42") == 42
    assert field.clean(str(MAX_ID)) == MAX_ID
    for raw in ("abc", "1.5", "-3", "٣", " 4", "4e2"):
        with pytest.raises(forms.ValidationError):
            field.clean(raw)
    with pytest.raises(forms.ValidationError):
        field.clean(str(MAX_ID + 1))
    with pytest.raises(forms.ValidationError):
        field.clean("0")
    assert IdField(required=False).clean("") is None
    assert posted_id(None) is None and posted_id("") is None
    assert posted_id("7") == 7 and posted_id("abc") is None
    assert posted_ids(["4", "9" * 20, "x", "-1", "7"]) == [4, 7]


@pytest.fixture
def users() -> tuple[User, User]:
    return User.objects.create(username="mine"), User.objects.create(username="theirs")


def test_a_choice_by_id_is_a_row_of_the_queryset_and_nothing_else(users: tuple[User, User]) -> None:
    mine, theirs = users
    allowed = User.objects.filter(pk=mine.pk)
    assert picked({"who": str(mine.pk)}, "who", allowed) == mine
    assert picked({"who": str(theirs.pk)}, "who", allowed) is None  # another's row
    for raw in ("abc", "1.5", "-1", "9" * 30, ""):
        assert picked({"who": raw}, "who", allowed) is None
    assert picked({}, "who", allowed) is None


def test_a_choice_field_refuses_thirty_digits_before_the_database(users: tuple[User, User]) -> None:
    field = IdChoiceField(queryset=User.objects.all())
    with pytest.raises(forms.ValidationError) as refused:
        field.clean("9" * 30)
    assert refused.value.code == "invalid_choice"
    assert field.to_python(None) is None


def test_several_ids_each_checked_as_one(users: tuple[User, User]) -> None:
    mine, theirs = users
    field = IdMultipleChoiceField(queryset=User.objects.all())
    assert set(field.clean([str(mine.pk), str(theirs.pk)])) == {mine, theirs}
    for bad in (["9" * 30], [str(mine.pk), "x"], ["-2"]):
        with pytest.raises(forms.ValidationError) as refused:
            field.clean(bad)
        assert refused.value.code == "invalid_pk_value"
    with pytest.raises(forms.ValidationError) as refused:
        field.clean(str(mine.pk))  # not a list: Django's own refusal
    assert refused.value.code == "invalid_list"
