"""The odds of a split as HTML: the part of a draw panel that the odds endpoint sends on every change of the
split (``conflicts.views.odds``), and that the panel shows when it is drawn (``{% odds_part %}``).

Written in Python rather than as a template because it is the hottest fragment of the site: a player typing
a split asks for it at each keystroke. Django's template engine spent 0.40 ms on it per answer, this
0.09 ms, of an endpoint whose target is 3 ms in all (docs/benchmarks.md). The markup is what the template
``conflicts/partials/odds.html`` printed, byte for byte, with the same catalogue entries and the same
escaping: values (names, numbers) escaped, translated texts not (a template's ``{% translate "…" %}`` of a
literal and the text of ``{% blocktranslate %}`` are its own markup).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from core.per_language import PerLanguage
from core.typography import percent


def _blocktranslated(text: str, **values: Any) -> str:
    """What ``{% blocktranslate %}`` prints: the translated text as it is, its values escaped."""
    return text % {name: conditional_escape(value) for name, value in values.items()}


class _Words:
    """The block's own words in one language, looked up once per process and language: the catalogues do not
    change while it runs, and eight lookups were a sixth of the block's cost."""

    def __init__(self) -> None:
        self.notes = {"drawn": gettext("defence drawn"), "declared": gettext("defence declared")}
        self.unknown = gettext("defence not known yet")
        self.counted = gettext("teammates' declared cards counted: %(n)s")
        self.warning = gettext("place every card")
        self.placed = gettext("Cards placed: %(placed)s of %(total)s")
        self.caption = gettext("Exact chances, over the cards left in the deck")
        self.head = "".join(
            f'<th scope="col">{label}</th>'
            for label in (gettext("On"), "0", gettext("Revers"), gettext("Serious"), gettext("Decisive"))
        )


_words_now = PerLanguage(_Words)


def _row(odds: Any, words: _Words) -> str:
    pending = ""
    if odds.teammates_pending:
        pending = ", " + _blocktranslated(words.counted, n=odds.teammates_pending)
    cells = "".join(f'<td class="nowrap">{conditional_escape(percent(pct))}</td>' for pct in odds.percents)
    return (
        f'\n        <tr data-opponent="{conditional_escape(odds.participant.pk)}">\n'
        f'          <th scope="row">{conditional_escape(odds.participant.character.name)} <span class="muted">'
        f"({conditional_escape(odds.drawn)} ⚔, {words.notes.get(odds.defence_note, words.unknown)}{pending})</span></th>\n"
        f"          {cells}\n"
        f"        </tr>\n      "
    )


def odds_html(participant_id: int, version: int, placed: int, total: int, odds: Iterable[Any]) -> SafeString:
    """The ``#odds-<participant>`` block: the sequence version the split is sent with, the cards placed and,
    for each ``selectors.OpponentOdds``, the exact chances of 0 to 3+ Revers."""
    pk = int(participant_id)
    words = _words_now()
    # A label rather than a sentence: « 1 of 1 cards placed » agreed with neither number, and which one a
    # plural follows differs between French (the cards placed) and English (the cards in all).
    placed_text = _blocktranslated(words.placed, placed=placed, total=total)
    if placed != total:
        placed_text += f' <span class="badge warn">{words.warning}</span>'
    rows = list(odds)
    table = ""
    if rows:
        table = (
            "\n  <table>\n"
            f'    <caption class="muted">{words.caption}</caption>\n'
            f"    <thead><tr>{words.head}</tr></thead>\n"
            f"    <tbody>\n      {''.join(_row(o, words) for o in rows)}\n    </tbody>\n  </table>\n  "
        )
    return mark_safe(  # noqa: S308 - every value above is escaped
        f'\n<div class="odds" id="odds-{pk}" aria-live="polite">\n'
        f'  <input type="hidden" name="version" value="{int(version)}" id="split-version-{pk}">\n'
        f"  <p>{placed_text}</p>\n"
        f"  {table}\n"
        "</div>\n"
    )
