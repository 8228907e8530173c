from __future__ import annotations

from django.apps import AppConfig


class FragConfig(AppConfig):
    name = "frag"
    verbose_name = "Frag"
