from __future__ import annotations

from django.apps import AppConfig


class FragConfig(AppConfig):
    name = "frag"
    verbose_name = "Frag"

    def ready(self) -> None:
        from frag import (
            archive,
            chronicle_kinds,  # noqa: F401  (how Frag games read in a campaign log)
        )

        archive.register()
