"""How Frag games read in a campaign's log (no database access, reader's language)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.chronicle import describes
from frag.selectors.naming import language

if TYPE_CHECKING:
    from campaigns.models import Event


def _map_title(payload: dict[str, Any]) -> str:
    titles = payload.get("map_title") or {}
    return str(titles.get(language()) or payload.get("map", ""))


def _fighter(fighter: dict[str, Any]) -> str:
    if fighter.get("bot"):
        return _("%(name)s (bot)") % {"name": fighter["name"]}
    return str(fighter["name"])


@describes("frag.game_started", label=lambda: _("Frag game started"))
def _started(event: Event) -> str:
    p = event.payload
    return ngettext(
        "A Frag game begins on %(map)s: %(fighters)s; first to %(frags)s frag wins.",
        "A Frag game begins on %(map)s: %(fighters)s; first to %(frags)s frags wins.",
        int(p["frags_to_win"]),
    ) % {
        "map": _map_title(p),
        "fighters": ", ".join(_fighter(f) for f in p["fighters"]),
        "frags": p["frags_to_win"],
    }


@describes("frag.game_finished", label=lambda: _("Frag game finished"))
def _finished(event: Event) -> str:
    p = event.payload
    values = {
        "map": _map_title(p),
        "winner": p.get("winner"),
        "turns": p["turns"],
        "frags": ", ".join(f"{f['name']} {f['frags']}" for f in p["frags"]),
    }
    turns = int(p["turns"])
    if p.get("winner"):
        return (
            ngettext(
                "%(winner)s wins the Frag game on %(map)s after %(turns)s turn (frags: %(frags)s).",
                "%(winner)s wins the Frag game on %(map)s after %(turns)s turns (frags: %(frags)s).",
                turns,
            )
            % values
        )
    return (
        ngettext(
            "The Frag game on %(map)s ends without a winner after %(turns)s turn (frags: %(frags)s).",
            "The Frag game on %(map)s ends without a winner after %(turns)s turns (frags: %(frags)s).",
            turns,
        )
        % values
    )
