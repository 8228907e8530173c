"""Extension points other apps register into from their AppConfig.ready().

Closing a game session and advancing the game clock are use cases of this app, but their
consequences (experience Atouts, healing Revers and fatigue) belong to other apps. Each hook runs
inside the caller's transaction, so a failing hook rolls the whole step back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign, GameSession

SessionCloseHook = Callable[["GameSession", "User"], None]
ClockAdvanceHook = Callable[["Campaign", dt.datetime, dt.datetime, "User"], None]

_session_close_hooks: list[SessionCloseHook] = []
_clock_advance_hooks: list[ClockAdvanceHook] = []


def on_session_close(hook: SessionCloseHook) -> SessionCloseHook:
    """Register ``hook(game_session, actor)``, run when a narrator closes a session."""
    if hook not in _session_close_hooks:
        _session_close_hooks.append(hook)
    return hook


def on_clock_advance(hook: ClockAdvanceHook) -> ClockAdvanceHook:
    """Register ``hook(campaign, old_time, new_time, actor)``, run when the game clock moves on."""
    if hook not in _clock_advance_hooks:
        _clock_advance_hooks.append(hook)
    return hook


def run_session_close(game_session: GameSession, actor: User) -> None:
    for hook in list(_session_close_hooks):
        hook(game_session, actor)


def run_clock_advance(campaign: Campaign, old: dt.datetime, new: dt.datetime, actor: User) -> None:
    for hook in list(_clock_advance_hooks):
        hook(campaign, old, new, actor)
