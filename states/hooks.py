"""The extension point the apps above register into from their AppConfig.ready(): a character's state changed.

The states app cannot know the apps that read the cards (conflicts is a floor above). When a change puts a
character out of action (État critique, unconscious, dead: « Il ne peut plus agir »), a Sequence's draw that
waits only for that character must not wait forever: conflicts registers a hook that lets the draw resolve.
Each hook runs inside the state change's transaction, after its Event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from characters.models import Character

OutOfActionHook = Callable[["Character", "User | None"], None]

_out_of_action_hooks: list[OutOfActionHook] = []


def on_out_of_action(hook: OutOfActionHook) -> OutOfActionHook:
    """Register ``hook(character, actor)``, run when a state change leaves the character unable to act."""
    if hook not in _out_of_action_hooks:
        _out_of_action_hooks.append(hook)
    return hook


def run_out_of_action(character: Character, actor: User | None) -> None:
    for hook in list(_out_of_action_hooks):
        hook(character, actor)
