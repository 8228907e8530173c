"""Numbers, percentages, quotation marks, signs and dates per language (issue 28: « 1.7 % » on a French page,
« 62 % », « » and "11/28/2026 5:36 p.m." on English ones, « [blessures -1] »)."""

from __future__ import annotations

import datetime as dt

from django.template import Context, Template
from django.utils import formats, translation

from conflicts.chronicle_kinds import _modifiers
from core import typography


def test_percentages_follow_the_language() -> None:
    with translation.override("fr"):
        assert typography.percent("1.7") == "1,7\u00a0%"
        assert typography.chance(0.617, 1) == "61,7\u00a0%"
    with translation.override("en"):
        assert typography.percent("1.7") == "1.7%"
        assert typography.percent(62) == "62%"


def test_quotes_follow_the_language_and_escape_the_value() -> None:
    template = Template("{% load typography %}{{ text|quoted }}")
    with translation.override("fr"):
        assert template.render(Context({"text": "Jim & co"})) == "« Jim &amp; co »"
    with translation.override("en"):
        assert template.render(Context({"text": "Jim"})) == "“Jim”"


def test_a_negative_modifier_has_a_real_minus_sign() -> None:
    assert typography.signed(-1) == "\u22121" and typography.signed(2) == "+2"
    assert typography.minus("[wounds -1], 2026-11-28") == "[wounds \u22121], 2026-11-28"
    with translation.override("fr"):
        assert "-" not in _modifiers([["revers", -1, ""], ["help", 1, "Lisa"]])


def test_english_dates_read_the_british_way() -> None:
    moment = dt.datetime(2026, 11, 28, 17, 36)
    with translation.override("en"):
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "28 Nov 2026 17:36"
        assert formats.date_format(moment.date(), "SHORT_DATE_FORMAT") == "28 Nov 2026"
    with translation.override("fr"):
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "28/11/2026 17:36"


def test_a_justification_in_the_log_is_quoted_the_readers_way() -> None:
    from campaigns.chronicle import describe
    from campaigns.models import Event

    event = Event(kind="character.atout_spent", payload={"character": "Jim", "amount": 1, "use": "help_other",
                                                         "justification": "la chasse"})  # fmt: skip
    with translation.override("en"):
        assert describe(event).endswith("“la chasse”")
    with translation.override("fr"):
        assert describe(event).endswith("« la chasse »")
