"""The Jinja2 environment of the template-engine comparison (``bench/template_engines.py``): the hot regions' ports
in ``bench/jinja2/``, with the site's own filters and tags as plain functions. Bench only, not shipped."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext
from jinja2 import Environment

from characters.templatetags import character_sheet
from conflicts.templatetags import conflicts_tags
from core.templatetags import typography


def _url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def _sheet_roll_memory(request: Any, character: Any) -> Any:
    # conflicts_tags.sheet_roll_memory reads the request from the template's context: the same, given it.
    return conflicts_tags.sheet_roll_memory({"request": request}, character)


def environment(**options: Any) -> Environment:
    env = Environment(**options)  # noqa: S701 - django.template.backends.jinja2 turns autoescape on
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]  # jinja2.ext.i18n
    env.globals.update(
        url=_url,
        get_language=get_language,
        playing_card=conflicts_tags.playing_card,
        sheet_roll_memory=_sheet_roll_memory,
        roll_standing=conflicts_tags.roll_standing,
        roll_chance=conflicts_tags.roll_chance,
    )
    env.filters.update(
        rank=character_sheet.rank,
        conflict_rank=conflicts_tags.rank,
        severity=character_sheet.severity,
        severity_of=conflicts_tags.severity,
        revers_domain=character_sheet.revers_domain,
        healing_name=character_sheet.healing_name,
        telekinesis_reach=character_sheet.telekinesis_reach,
        signed=conflicts_tags.signed,
        chip_label=conflicts_tags.chip_label,
        pct=typography.pct,
    )
    return env
