from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm):
    email = forms.EmailField(label=_("Email (optional)"), required=False)

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
