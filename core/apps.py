from __future__ import annotations

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Tablée"

    def ready(self) -> None:
        from django.urls import register_converter

        from core import checks  # noqa: F401  (registers the production checks)
        from core.converters import IdConverter, TokenConverter

        register_converter(IdConverter, "id")
        register_converter(TokenConverter, "token")
