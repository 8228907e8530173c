from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm[User]):
    email = forms.EmailField(label=_("Email (optional)"), required=False)

    # UserCreationForm.Meta's, spelled out (django-stubs does not declare it), with the email.
    class Meta:
        model = User
        fields = ("username", "email")
        field_classes = {"username": UsernameField}
