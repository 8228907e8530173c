from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatesConfig(AppConfig):
    """Savage-style states: Shaken, wounds, fatigue, situations, trait rolls and the round tracker."""

    name = "states"
    verbose_name = _("Savage-style states")

    def ready(self) -> None:
        from campaigns import demo, hooks
        from states import archive, chronicle, now, regions, settings_sections  # noqa: F401  (event texts, regions)
        from states.demo import savage_demo_step
        from states.services.clock import savage_clock_advance

        settings_sections.register()
        archive.register()
        now.register()
        hooks.on_clock_advance(savage_clock_advance)
        demo.register_demo_step(savage_demo_step)
