from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConflictsConfig(AppConfig):
    name = "conflicts"
    verbose_name = _("Conflicts")

    def ready(self) -> None:
        from campaigns.demo import register_demo_step
        from conflicts import (  # noqa: F401  (register event texts, regions and live fragments)
            archive,
            asked_tests,
            chronicle_kinds,
            decks_region,
            live,
            now,
            regions,
            running_region,
            settings_sections,
        )
        from conflicts.card_svg import SYMBOLS
        from conflicts.demo import demo_sequence
        from conflicts.services.leaving import draw_without_those_out
        from core.sprites import register_symbols
        from states.hooks import on_out_of_action

        settings_sections.register()
        archive.register()
        on_out_of_action(draw_without_those_out)
        now.register()
        asked_tests.register_section()
        register_demo_step(demo_sequence)
        register_symbols("cards", SYMBOLS)
