from __future__ import annotations

from django.apps import AppConfig


class TragicConfig(AppConfig):
    name = "tragic"
    verbose_name = "TRAGIC"

    def ready(self) -> None:
        from tragic import (
            archive,
            chronicle_kinds,  # noqa: F401  (how TRAGIC events read in a campaign log)
        )

        archive.register()
