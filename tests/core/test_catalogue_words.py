"""The catalogue lint (issue 28): every word a page shows, read from the catalogues and the card texts.

It fails on:
- a plural left to chance: « (s) » in any text (« carte(s) », « chance(s) »), and a counted word outside
  ``ngettext`` (« dépense 1 Atouts », « 1 of 1 cards placed »);
- a raw code shown to a reader (« bot (heuristic) », « Faction : confrerie », « carte ally »);
- one term translated two ways within a language, as ``locale/terms.toml`` decides it ("Vigour" and "Vigor",
  « Streamlined » and « Simplifiée »);
- quotation marks of the other language (« » on an English page, “ ” on a French one);
- a ``{% translate "…" %}`` whose text no catalogue holds (its English would show on a French page).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(p for p in ROOT.glob("**/locale/fr/LC_MESSAGES/django.po") if ".venv" not in p.parts)
TEMPLATES = sorted(p for p in ROOT.glob("**/templates/**/*.html") if ".venv" not in p.parts)
TERMS = tomllib.loads((ROOT / "locale" / "terms.toml").read_text(encoding="utf-8"))["term"]

# Placeholders that hold a count: the word after them agrees with it, so the entry must be a plural one.
COUNTS = (
    "n|amount|count|spent|refund|cost|maximum|turns|hours|days|rounds|cycles|healed|points|used|frags|"
    "down_to|mp|left|total|lost|size|have|kept|limit|cards|placed"
)
COUNTED = re.compile(rf"%\((?:{COUNTS})\)[sd] (?:[a-zé]+ )?([A-Za-zÀ-ÿ]+[sx])\b")
# Words that do not change with their number.
INVARIABLE = {"Revers", "fois"}


def _entries() -> Iterator[tuple[str, polib.POEntry]]:
    for path in CATALOGUES:
        for entry in polib.pofile(str(path)):
            if not entry.obsolete:
                yield str(path.relative_to(ROOT)), entry


def _english(entry: polib.POEntry) -> list[str]:
    return [entry.msgid, *([entry.msgid_plural] if entry.msgid_plural else [])]


def _french(entry: polib.POEntry) -> list[str]:
    return [entry.msgstr, *entry.msgstr_plural.values()] if entry.msgid_plural else [entry.msgstr]


def _word(text: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(text) + r"(?![\w-])", re.IGNORECASE)


def _card_texts() -> Iterator[tuple[str, str, str]]:
    from tragic.engine.card_files import default_pool

    for card in default_pool().cards.values():
        yield card.id, "fr", card.text
        yield card.id, "en", card.text_en


def test_no_text_leaves_its_plural_to_a_bracket() -> None:
    """« carte(s) », « chance(s) », « place(s) prise(s) »: a plural says one thing or the other."""
    bracket = re.compile(r"\w\(s\)")  # not a placeholder named s: « %(s)s SPECIAL »
    found = [(where, text) for where, e in _entries() for text in _english(e) + _french(e) if bracket.search(text)]
    found += [(card, text) for card, _language, text in _card_texts() if bracket.search(text)]
    assert found == []


def test_a_counted_word_goes_through_ngettext() -> None:
    """« dépense 1 Atouts »: a count followed by a plural word is a plural entry (``ngettext``)."""
    found = []
    for where, entry in _entries():
        if entry.msgid_plural:
            continue
        words = [m.group(1) for text in (entry.msgid, entry.msgstr) for m in COUNTED.finditer(text)]
        if [w for w in words if w not in INVARIABLE]:
            found.append((where, entry.msgid))
    assert found == []


def test_the_lint_catches_what_the_issue_saw() -> None:
    """The checks above fail on the lines a played evening showed (they are not vacuous)."""
    assert COUNTED.search("%(name)s spends %(amount)s Atouts: %(trait)s rises from %(old)s to %(new)s.")
    assert COUNTED.search("%(placed)s of %(total)s cards placed")
    assert not COUNTED.search("%(name)s spends %(amount)s Atout: %(use)s.")
    assert _raw_codes("Allié 3/1. Faction : confrerie.") and _raw_codes("Cherchez 1 carte ally")
    assert _raw_codes("bot (heuristic)") and not _raw_codes("Allié 3/1. Faction : Confrérie.")


def _raw_codes(text: str) -> list[str]:
    from tragic.engine.cards import FACTIONS

    codes = [f for f in FACTIONS if re.search(rf"\b{f}\b", text)]  # the names are capitalised
    codes += re.findall(r"\b(?:carte|cartes|cards?) (?:ally|special|item)\b", text)
    codes += re.findall(r"\bbot (?:\d+ )?\((?:heuristic|random|search)\)", text)
    return codes


def test_card_texts_show_names_not_codes() -> None:
    """« Faction : confrerie », « Cherchez 1 carte(s) ally »: a card's text names factions and card kinds."""
    assert [(card, text) for card, _language, text in _card_texts() if _raw_codes(text)] == []


def test_tragic_bots_are_named_not_coded_wherever_a_game_names_its_players() -> None:
    from django.utils import translation

    from campaigns.chronicle import describe
    from campaigns.models import Event
    from tragic.presenters import player_names

    stored = ["Lisa", "bot (heuristic)", "bot 2 (search)"]
    for language, bot in (("fr", "Bot (tacticien)"), ("en", "Bot (tactician)")):
        with translation.override(language):
            assert player_names(stored)[:2] == ["Lisa", bot]
            assert player_names(stored)[2].endswith(" 2") and "(search)" not in player_names(stored)[2]
            line = describe(Event(kind="tragic.game_started", payload={"game": 1, "players": stored}))
            assert not _raw_codes(line), line


def test_no_snake_case_code_in_a_french_text() -> None:
    """A code such as ``power_domain`` in a French text is a raw code (the help on the traits' TOML format
    names its keys on purpose)."""
    code = re.compile(r"(?<![%(\w{])\b[a-z]+_[a-z_]+\b(?![)\w])")
    found = []
    for where, entry in _entries():
        for text in _french(entry):
            bare = re.sub(r"<[^>]+>", "", re.sub(r"%\(\w+\)[sd]", "", text))
            if code.search(bare) and "[[trait]]" not in text:
                found.append((where, text))
    assert found == []


@pytest.mark.parametrize("term", TERMS, ids=lambda t: t["en"])
def test_one_term_one_translation(term: dict[str, object]) -> None:
    """``locale/terms.toml`` decides: an English text naming the term names its one French translation, and
    neither language uses the spellings it forbids."""
    forms = [str(term["fr"]), *term.get("fr_forms", [])]
    wrong = []
    for where, entry in _entries():
        english, french = _english(entry), [t for t in _french(entry) if t]
        named = any(_word(str(term["en"])).search(t) for t in english)
        if named and not all(any(_word(form).search(t) for form in forms) for t in french):
            wrong.append((where, entry.msgid))
        for spelling in term.get("en_not", []):
            if any(re.search(rf"\b{spelling}\b", t) for t in english):
                wrong.append((where, entry.msgid))
        for spelling in term.get("fr_not", []):
            if any(_word(spelling).search(t) for t in french):
                wrong.append((where, entry.msgid))
    assert wrong == []


def test_each_language_quotes_its_own_way() -> None:
    """English pages read “ ”, French pages « » (``{{ x|quoted }}`` for a quoted value)."""
    found = [(w, e.msgid) for w, e in _entries() if any("«" in t or "»" in t for t in _english(e))]
    found += [(w, e.msgid) for w, e in _entries() if any("“" in t or "”" in t for t in _french(e))]
    assert found == []


TRANSLATE = re.compile(r"""{%\s*translate\s+"([^"]*)"(?:\s+context\s+"([^"]*)")?""")
TEMPLATE_TEXT = re.compile(
    # A comment block before the generic tag, or ``{% comment %}`` alone would match and its text be read.
    r"{%\s*blocktranslate.*?{%\s*endblocktranslate\s*%}|{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{%.*?%}|{{.*?}}|{#.*?#}",
    re.S,
)


def test_every_translated_template_text_is_in_a_catalogue() -> None:
    """A ``{% translate "…" %}`` missing from every catalogue shows its English on a French page."""
    known = {(e.msgctxt or None, e.msgid) for _where, e in _entries()}
    known |= {(None, "Tablée")}
    missing = []
    for path in TEMPLATES:
        for text, context in TRANSLATE.findall(path.read_text(encoding="utf-8")):
            if (context or None, text) not in known:
                missing.append((str(path.relative_to(ROOT)), context, text))
    assert missing == []


def test_templates_put_no_french_quotes_around_english_or_values() -> None:
    """Quotation marks written in a template, outside its translated texts, are the same in every language:
    a value is quoted with ``|quoted``."""
    found = []
    for path in TEMPLATES:
        bare = TEMPLATE_TEXT.sub("", path.read_text(encoding="utf-8"))
        if "«" in bare or "»" in bare or "“" in bare or "”" in bare:
            found.append(str(path.relative_to(ROOT)))
    assert found == []
