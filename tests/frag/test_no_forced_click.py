"""Issue 28, no forced click: a prompt with one possible answer (« Lancer 3 dés de mouvement » with no card that
could change it) plays itself, and a turn with nothing left to do ends itself; each is a setting of the game,
on by default."""

from __future__ import annotations

import pytest

from frag import services
from frag.engine import State
from frag.models import Game
from tests.frag.factories import UserFactory, game_with

pytestmark = pytest.mark.django_db


def forced(state: State) -> str | None:
    """The kind of the person's one legal action, when it is one the settings may play for them."""
    if state.is_over() or state.current_players() != [0]:
        return None
    legal = state.legal_actions(0)
    return legal[0]["type"] if len(legal) == 1 and legal[0]["type"] in ("roll", "end_turn") else None


def play(game: Game, person, turns: int = 60) -> list[str | None]:  # type: ignore[no-untyped-def]
    """Play the person's fighter (the first action offered, never the end of the turn while something else is
    offered); the prompts left waiting for a click, by kind."""
    waited: list[str | None] = []
    for _ in range(turns):
        state = State.from_json(game.snapshot)
        if state.is_over():
            break
        waited.append(forced(state))
        legal = state.legal_actions(0)
        action = next((a for a in legal if a["type"] != "end_turn"), legal[0])
        services.game_act(game=game, user=person, action=action, expected_version=game.version)
        game.refresh_from_db()
    return waited


def test_single_answers_play_themselves_and_the_game_replays() -> None:
    person = UserFactory()
    game = game_with(person, bots=1, seed=4)
    assert game.auto_single_answer and game.auto_end_turn  # on by default
    waited = play(game, person)
    assert set(waited) == {None}, "the person never waits on a prompt with one answer"
    assert game.steps.filter(seat=0, actor__isnull=True, action__type="roll").exists()
    assert game.steps.filter(seat=0, actor__isnull=True, action__type="end_turn").exists()
    rebuilt, _steps = services.game_replay(game)
    assert rebuilt.to_json() == game.snapshot


def test_each_is_a_setting() -> None:
    person = UserFactory()
    game = game_with(person, bots=1, seed=4, auto_single_answer=False, auto_end_turn=False)
    waited = play(game, person)
    assert "roll" in waited and "end_turn" in waited
    assert not game.steps.filter(actor__isnull=True, seat=0).exclude(number=0).exists()
