"""Forms of the TRAGIC pages: they validate input, the services act."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tragic.models import CopyMode


class DeckCreateForm(forms.Form):
    """A new deck's name and copy mode. Django's ``CharField`` refuses a NUL byte with a translated message:
    the model's ``full_clean`` did not, and PostgreSQL then refused the row (a ``DataError``, a 500)."""

    name = forms.CharField(label=_("Name"), max_length=80, required=False)
    copy_mode = forms.ChoiceField(label=_("Copy mode"), choices=CopyMode.choices, required=False)

    def clean_copy_mode(self) -> str:
        return self.cleaned_data.get("copy_mode") or CopyMode.QUAD
