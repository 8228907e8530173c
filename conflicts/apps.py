from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConflictsConfig(AppConfig):
    name = "conflicts"
    verbose_name = _("Conflicts")

    def ready(self) -> None:
        from campaigns.demo import register_demo_step
        from conflicts import chronicle_kinds, live, now, settings_sections  # noqa: F401  (register event texts and live fragments)
        from conflicts.demo import demo_sequence

        settings_sections.register()
        now.register()
        register_demo_step(demo_sequence)
