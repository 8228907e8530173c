from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = _("Characters")

    def ready(self) -> None:
        from campaigns import demo, hooks
        from campaigns.cast import Cast, register_cast
        from characters import archive, chronicle_kinds, live, now, settings_sections  # noqa: F401  (event texts, live panels)
        from characters.access import viewable_characters
        from characters.demo import demo_characters, demo_sheets
        from characters.panels import panels_html  # (registers the dashboard's panels as regions)
        from characters.selectors import characters_for_panels, characters_owned
        from characters.services.atouts import run_session_award
        from characters.services.recovery import run_clock_recovery
        from characters.views import sheet  # noqa: F401  (registers the sheet region)

        settings_sections.register()
        archive.register()
        now.register()
        hooks.on_session_close(run_session_award)
        hooks.on_clock_advance(run_clock_recovery)
        demo.register_demo_step(demo_sheets)
        register_cast(
            Cast(
                viewable=viewable_characters,
                for_panels=characters_for_panels,
                panels=panels_html,
                owned=characters_owned,
                demo=demo_characters,
            )
        )
