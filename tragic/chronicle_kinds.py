"""How TRAGIC duels read in a campaign's log (no database access, reader's language)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.chronicle import describes
from tragic.presenters import player_name, player_names

if TYPE_CHECKING:
    from campaigns.models import Event


@describes("tragic.game_started", label=lambda: _("TRAGIC duel started"))
def _started(event: Event) -> str:
    return _("A TRAGIC duel begins: %(players)s.") % {
        "players": _(" against ").join(player_names(event.payload["players"]))
    }


@describes("tragic.game_finished", label=lambda: _("TRAGIC duel finished"))
def _finished(event: Event) -> str:
    p = event.payload
    turns = int(p["turns"])
    if p.get("winner"):
        return ngettext(
            "%(winner)s wins the TRAGIC duel after %(turns)s turn.",
            "%(winner)s wins the TRAGIC duel after %(turns)s turns.",
            turns,
        ) % {"winner": p["winner"], "turns": turns}
    return ngettext(
        "The TRAGIC duel ends in a draw after %(turns)s turn.",
        "The TRAGIC duel ends in a draw after %(turns)s turns.",
        turns,
    ) % {"turns": turns}


@describes("tragic.game_cancelled", label=lambda: _("TRAGIC duel cancelled"))
def _cancelled(event: Event) -> str:
    p = event.payload
    return _("The TRAGIC duel %(players)s is cancelled by %(by)s during setup: %(waiting)s never chose.") % {
        "players": _(" against ").join(player_names(p["players"])),
        "by": player_name(p["by"]),
        "waiting": ", ".join(player_names(p["waiting_for"])),
    }
