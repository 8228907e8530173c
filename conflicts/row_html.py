"""A participant's row of a Sequence board as HTML, written in Python: the narrator's console row and the players'
row (``conflicts.board_rows`` keeps them by what they show).

Written in Python rather than rendered from ``console_row.html`` / ``board_row.html`` (and their partials
``participant_status.html`` and ``hands.html``) because a board rendered cold (after any change of the table, as
every draw makes one) spent a quarter of the narrator's Sequence page in Django's template engine for these eight
rows (docs/benchmarks.md, session 7). The markup is what those templates print, byte for byte, as
``{% localize off %}`` in ``board.html`` renders them: the same catalogue entries, values (names, numbers, keys)
escaped, translated texts not (a ``{% translate "…" %}`` of a literal and the text of a ``{% blocktranslate %}``
are the template's own markup). The templates stay: a row with a modifiers form open is rendered from them, and
``tests/conflicts/test_row_html.py`` compares the two through a whole Sequence, every role, French and English.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.translation import gettext, ngettext

from conflicts import labels
from conflicts.card_svg import card_svg
from conflicts.selectors import Board, ParticipantView, ShownCard
from core.per_language import PerLanguage


def _e(value: Any) -> str:
    return str(conditional_escape(value))


def _blocktranslated(text: str, **values: Any) -> str:
    """What ``{% blocktranslate %}`` prints: the translated text as it is, its values escaped."""
    return text % {name: conditional_escape(value) for name, value in values.items()}


class _Words:
    """The rows' own words in one language, looked up once per process and language (the catalogues do not change
    while it runs)."""

    def __init__(self) -> None:
        self.cards = gettext("cards: %(n)s")
        self.out = gettext("out")
        self.takes = gettext("Takes: %(severity)s")
        self.drew = gettext("drew")
        self.to_draw = gettext("to draw")
        self.defence = gettext("defence")
        self.split = gettext("Split:")
        self.attack = gettext("Attack")
        self.on = gettext("On")
        self.defence_label = gettext("Defence")
        self.upper_hand_short = gettext("upper hand")
        self.details = gettext("Details of %(name)s")
        self.modifiers = gettext("Modifiers of %(name)s")
        self.phone_panel = gettext("Open as a phone panel")
        self.show_modifiers = gettext("Show the modifiers form")
        self.wants = gettext("wants to %(goal)s")


_words_now = PerLanguage(_Words)


@lru_cache(maxsize=4096)
def _url(name: str, campaign_id: int, participant_id: int) -> str:
    # A URL is a pure function of the URL map, the name and its arguments (as core's ``{% url_kept %}``).
    return reverse(name, args=(campaign_id, participant_id))


def _status(board: Board, p: Any, w: _Words) -> str:
    """participant_status.html."""
    out = []
    # Counted words agree with their number (a Revers sérieux is 2 steps: it read « 2 Revers reçus »).
    for n, singular, plural in (
        (p.out_of_range_bands, "out of range (%(n)s band)", "out of range (%(n)s bands)"),
        (p.upper_hand_cards, "upper hand: +%(n)s card", "upper hand: +%(n)s cards"),
        (p.revers_taken, "%(n)s Revers step taken", "%(n)s Revers steps taken"),
    ):
        out.append(f" · {_blocktranslated(ngettext(singular, plural, n), n=n)}" if n else "")
    if not p.active:
        last = f' · <span class="badge bad">{w.out}</span>'
    elif p.drawn:
        last = f' · <span class="badge ok" data-drawn="1">{w.drew}</span>'
    elif board.sequence.phase == "drawing":
        last = f' · <span class="badge">{w.to_draw}</span>'
    else:
        last = ""
    out.append(last)
    return "\n".join(out) + "\n"


def _cards(cards: list[ShownCard]) -> str:
    return "".join(
        _e(card_svg(c.code, success=c.success, part=c.ref.split(":", 1)[0], changed=c.flipped)) for c in cards
    )


def _hands(board: Board, v: ParticipantView, w: _Words) -> str:
    """hands.html."""
    out = "".join(
        f'\n  <div class="hand attack"><span class="label">⚔ {_e(target)}</span>{_cards(cards)}</div>\n'
        for target, cards in v.attack_cards
    )
    out += "\n"
    if v.defence_cards:
        out += f'\n  <div class="hand defence"><span class="label">{w.defence}</span>{_cards(v.defence_cards)}</div>\n'
    out += "\n"
    severity = v.received.get("severity") if isinstance(v.received, dict) else None
    if severity:
        label = labels.severity_label(int(severity), board.sequence.kind)
        # The Revers this participant receives, not one their attack cards deal: said in words, not an arrow.
        taken = _blocktranslated(w.takes, severity=label)
        out += f'\n  <p class="severity-{_e(severity)}" data-severity="{_e(severity)}">{taken}</p>\n'
    return out + "\n"


def _name_of(key: Any, board: Board) -> str:
    """The ``participant_name`` filter."""
    for v in board.views:
        if v.participant.key == str(key):
            return str(v.participant.character.name)
    return str(key)


def _budget(v: ParticipantView, w: _Words) -> str:
    return f" · {_blocktranslated(w.cards, n=v.budget.total)}" if v.budget else ""


def console_row(board: Board, v: ParticipantView) -> str:
    """console_row.html, for a row without a modifiers form open."""
    w = _words_now()
    p = v.participant
    pk = _e(p.pk)
    name = _e(p.character.name)
    sequence = board.sequence
    trait = f"{_e(p.trait_name)} ({_e(labels.rank(int(p.trait_value)))}, {_e(p.trait_value)})" if p.trait_name else ""
    middle = ""
    if v.bulk:
        form = f"npc-draw-{_e(sequence.pk)}"
        bulk = v.bulk
        options = "".join(
            f'<option value="{_e(key)}"{" selected" if key == bulk.target else ""}>{_e(label)}</option>'
            for key, label in bulk.opponents
        )
        middle = (
            f'\n    <div class="bulk-split"><span class="muted">{w.split}</span>\n'
            f'      <label for="bulk-attack-{pk}">⚔ {w.attack}<span class="sr-only"> ({name})</span></label>\n'
            f'      <input type="number" inputmode="numeric" min="0" max="30" id="bulk-attack-{pk}" name="attack_{pk}"'
            f' value="{_e(bulk.attack)}" form="{form}">\n'
            f'      <label for="bulk-target-{pk}">{w.on}<span class="sr-only"> ({name})</span></label>\n'
            f'      <select id="bulk-target-{pk}" name="target_{pk}" form="{form}">{options}</select>\n'
            f'      <label for="bulk-defence-{pk}">{w.defence_label}<span class="sr-only"> ({name})</span></label>\n'
            f'      <input type="number" inputmode="numeric" min="0" max="30" id="bulk-defence-{pk}"'
            f' name="defence_{pk}" value="{_e(bulk.defence)}" form="{form}">\n'
            "    </div>\n  "
        )
    elif v.split and not p.drawn:
        attack = "".join(f"⚔ {_e(n)} → {_e(_name_of(key, board))} " for key, n in v.split.get("attack", {}).items())
        defence = "".join(
            f"{w.defence} {_e(n)}{f' → {_e(_name_of(key, board))}' if key != p.key else ''} "
            for key, n in v.split.get("defence", {}).items()
        )
        upper = f" · {w.upper_hand_short}" if v.split.get("upper_hand") else ""
        middle = f'\n    <div class="muted">{w.split} {attack}{defence}{upper}</div>\n  '
    panel_url = _e(_url("conflicts:panel", sequence.campaign_id, p.pk))
    modifiers = ""
    if sequence.is_open:
        form_url = _e(_url("conflicts:modifiers_form", sequence.campaign_id, p.pk))
        modifiers = (
            "\n    \n"
            f'    <details class="card" hx-get="{form_url}" hx-trigger="toggle once" hx-target="find .lazy-form">\n'
            f'      <summary id="modifiers-{pk}">{_blocktranslated(w.modifiers, name=p.character.name)}</summary>\n'
            f'      <div class="lazy-form"><a class="tap" href="{form_url}#modifiers-{pk}">{w.show_modifiers}</a></div>\n'
            "    </details>\n    \n    "
        )
    return (
        f'<li class="participant console-row{"" if p.active else " out"}" id="participant-{pk}">\n'
        '  <div class="row-head">\n'
        f"    <strong>{name}</strong>\n"
        f'    <span class="muted">{trait}{_budget(v, w)}</span>\n'
        f'    <span class="muted">{_status(board, p, w)}</span>\n'
        "  </div>\n"
        f"  {middle}\n"
        f"  {_hands(board, v, w)}\n"
        "  \n"
        f'  <details class="more" id="more-{pk}" hx-preserve="true" hx-get="{panel_url}" hx-trigger="toggle once"'
        ' hx-target="find .lazy-panel">\n'
        f"    <summary>{_blocktranslated(w.details, name=p.character.name)}</summary>\n"
        f'    <div class="lazy-panel"><a class="tap" href="{panel_url}">{w.phone_panel}</a></div>\n'
        f"    {modifiers}\n"
        "  </details>\n"
        "</li>\n"
    )


def player_row(board: Board, v: ParticipantView) -> str:
    """board_row.html."""
    w = _words_now()
    p = v.participant
    goal = f'<span class="muted">— {_blocktranslated(w.wants, goal=p.goal)}</span>' if p.goal else ""
    trait = ""
    if p.trait_name:
        trait = _e(p.trait_name)
        if not v.secret:
            trait += f" ({_e(labels.rank(int(p.trait_value)))}, {_e(p.trait_value)})"
    return (
        f'\n        <div class="participant{"" if p.active else " out"}" id="participant-{_e(p.pk)}">\n'
        f"          <strong>{_e(p.character.name)}</strong>\n"
        f"          {goal}\n"
        '          <div class="muted">\n'
        f"            {trait}\n"
        f"            {_budget(v, w)}\n"
        f"            {_status(board, p, w)}\n"
        "          </div>\n"
        f"          {_hands(board, v, w)}\n"
        "        </div>\n"
        "        "
    )
