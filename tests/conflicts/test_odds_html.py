"""The odds block (conflicts/odds_html.py) prints what the template ``conflicts/partials/odds.html`` printed
before it was written in Python, byte for byte: the expected strings below are that template's output."""

from __future__ import annotations

from types import SimpleNamespace

from django.utils import translation

from conflicts.odds_html import odds_html


def _odds(pk: int, name: str, drawn: int, note: str, pending: int, percents: list[str]) -> SimpleNamespace:
    character = SimpleNamespace(name=name)
    return SimpleNamespace(participant=SimpleNamespace(pk=pk, character=character), drawn=drawn, defence_note=note,
                           teammates_pending=pending, percents=percents)  # fmt: skip


def test_the_odds_block_in_english_escapes_names_and_not_its_own_words() -> None:
    rows = [_odds(8, "L'<Ombre> & \"co\"", 0, "declared", 2, ["100.0", "0.0", "0.0", "0.0"]),
            _odds(9, "Élodie", 1, "unknown", 1, ["1.0", "2.0", "3.0", "94.0"])]  # fmt: skip
    with translation.override("en"):
        assert odds_html(41, 17, 1, 3, rows) == EN


def test_the_odds_block_in_french() -> None:
    with translation.override("fr"):
        html = odds_html(41, 17, 0, 3, [_odds(7, "Truand 0", 2, "drawn", 0, ["12.5", "30.0", "40.0", "17.5"])])
        assert html == FR
        assert "<p>Cartes placées : 1 sur 1</p>\n  \n</div>" in odds_html(41, 17, 1, 1, [])


EN = (
    "\n"
    '<div class="odds" id="odds-41" aria-live="polite">\n'
    '  <input type="hidden" name="version" value="17" id="split-version-41">\n'
    '  <p>Cards placed: 1 of 3 <span class="badge warn">place every card</span></p>\n'
    "  \n"
    "  <table>\n"
    '    <caption class="muted">Exact chances, over the cards left in the deck</caption>\n'
    '    <thead><tr><th scope="col">On</th><th scope="col">0</th><th scope="col">Revers</th><th scope="col">Serious</th><th scope="col">Decisive</th></tr></thead>\n'
    "    <tbody>\n"
    "      \n"
    '        <tr data-opponent="8">\n'
    '          <th scope="row">L&#x27;&lt;Ombre&gt; &amp; &quot;co&quot; <span class="muted">(0 ⚔, defence declared, teammates\' declared cards counted: 2)</span></th>\n'
    '          <td class="nowrap">100.0%</td><td class="nowrap">0.0%</td><td class="nowrap">0.0%</td><td class="nowrap">0.0%</td>\n'
    "        </tr>\n"
    "      \n"
    '        <tr data-opponent="9">\n'
    '          <th scope="row">Élodie <span class="muted">(1 ⚔, defence not known yet, teammates\' declared cards counted: 1)</span></th>\n'
    '          <td class="nowrap">1.0%</td><td class="nowrap">2.0%</td><td class="nowrap">3.0%</td><td class="nowrap">94.0%</td>\n'
    "        </tr>\n"
    "      \n"
    "    </tbody>\n"
    "  </table>\n"
    "  \n"
    "</div>\n"
)

FR = (
    "\n"
    '<div class="odds" id="odds-41" aria-live="polite">\n'
    '  <input type="hidden" name="version" value="17" id="split-version-41">\n'
    '  <p>Cartes placées : 0 sur 3 <span class="badge warn">placez toutes les cartes</span></p>\n'
    "  \n"
    "  <table>\n"
    '    <caption class="muted">Chances exactes, d\'après les cartes restant dans le paquet</caption>\n'
    '    <thead><tr><th scope="col">Sur</th><th scope="col">0</th><th scope="col">Revers</th><th scope="col">Sérieux</th><th scope="col">Décisif</th></tr></thead>\n'
    "    <tbody>\n"
    "      \n"
    '        <tr data-opponent="7">\n'
    '          <th scope="row">Truand 0 <span class="muted">(2 ⚔, défense tirée)</span></th>\n'
    '          <td class="nowrap">12,5\u00a0%</td><td class="nowrap">30,0\u00a0%</td><td class="nowrap">40,0\u00a0%</td><td class="nowrap">17,5\u00a0%</td>\n'
    "        </tr>\n"
    "      \n"
    "    </tbody>\n"
    "  </table>\n"
    "  \n"
    "</div>\n"
)
