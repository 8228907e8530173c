"""Services: games are created and played through them; bots answer on the server; stale clicks are refused."""

from __future__ import annotations

import pytest

from core.errors import PermissionRefused, ServiceError, StaleState
from frag import services
from frag.engine import State
from frag.models import Game, GameStatus
from tests.frag.factories import UserFactory, game_with

pytestmark = pytest.mark.django_db


def person_to_act(game: Game) -> int:
    return State.from_json(game.snapshot).current_players()[0]


def test_creating_a_game_lets_the_bots_place_and_waits_for_the_person() -> None:
    person = UserFactory()
    game = game_with(person, bots=2)
    state = State.from_json(game.snapshot)
    assert state.current_players() == [0]
    assert game.steps.filter(number=0).get().events[-1]["type"] == "first_player"
    assert game.seats.count() == 3


def test_a_person_acts_and_the_bots_play_their_turns_until_it_is_the_person_s_turn_again() -> None:
    person = UserFactory()
    game = game_with(person, bots=2, seed=4)
    for _ in range(40):
        state = State.from_json(game.snapshot)
        if state.is_over():
            break
        action = state.legal_actions(0)[0] if state.phase != "action" else {"type": "end_turn", "player": 0}
        services.game_act(game=game, user=person, action=action, expected_version=game.version)
        game.refresh_from_db()
        state = State.from_json(game.snapshot)
        assert state.is_over() or state.current_players() == [0]
    assert game.steps.exclude(seat=0).exists(), "the bots played"
    rebuilt, _steps = services.game_replay(game)
    assert rebuilt.to_json() == game.snapshot


def test_a_stale_click_is_refused_as_someone_acted_first() -> None:
    person = UserFactory()
    game = game_with(person)
    action = State.from_json(game.snapshot).legal_actions(0)[0]
    services.game_act(game=game, user=person, action=action, expected_version=game.version)
    with pytest.raises(StaleState, match="Someone acted first"):
        services.game_act(game=game, user=person, action=action, expected_version=game.version)


def test_an_illegal_action_is_refused_with_its_reason_and_nothing_changes() -> None:
    person = UserFactory()
    game = game_with(person)
    while State.from_json(game.snapshot).phase != "action":
        action = State.from_json(game.snapshot).legal_actions(0)[0]
        services.game_act(game=game, user=person, action=action, expected_version=game.version)
        game.refresh_from_db()
    before = (game.version, game.snapshot, game.steps.count())
    with pytest.raises(ServiceError, match="Refused: too far"):
        services.game_act(
            game=game,
            user=person,
            action={"type": "move", "player": 0, "path": list(range(1, 60))},
            expected_version=game.version,
        )
    game.refresh_from_db()
    assert (game.version, game.snapshot, game.steps.count()) == before


def test_nobody_plays_a_fighter_they_do_not_control() -> None:
    person, stranger = UserFactory(), UserFactory()
    game = game_with(person)
    with pytest.raises(PermissionRefused):
        services.game_act(game=game, user=stranger, action={"type": "roll", "player": 0}, expected_version=game.version)
    with pytest.raises(PermissionRefused):
        services.game_act(game=game, user=person, action={"type": "roll", "player": 1}, expected_version=game.version)


def test_a_game_without_a_person_is_refused() -> None:
    with pytest.raises(ServiceError, match="at least one person"):
        services.game_create(
            creator=UserFactory(),
            map_name="entrepot",
            seats=[services.SeatSpec(name="B", health=2, speed=3, accuracy=2, bot="random")] * 2,
        )


def test_a_finished_game_is_marked_with_its_winner() -> None:
    person = UserFactory()
    game = game_with(person, bots=2, seed=9, frags_to_win=1)
    for _ in range(200):
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            break
        state = State.from_json(game.snapshot)
        legal = state.legal_actions(0)
        attack = next((a for a in legal if a["type"] == "attack"), None)
        action = attack or (legal[0] if state.phase != "action" else {"type": "end_turn", "player": 0})
        services.game_act(game=game, user=person, action=action, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.winner_seat == State.from_json(game.snapshot).winner()


def test_every_refusal_of_the_engine_can_be_translated() -> None:
    import ast
    from pathlib import Path

    from frag.refusals import REFUSALS

    engine = Path(__file__).resolve().parents[2] / "frag" / "engine"
    templates = {
        node.args[0].value
        for source in engine.glob("*.py")
        for node in ast.walk(ast.parse(source.read_text()))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) in ("IllegalAction", "refusal")
        # a refusal returned by a check and raised later is named by the check's own ``refusal`` call
        and isinstance(node.args[0], ast.Constant)
    }
    assert len(templates) > 40
    assert templates - REFUSALS.templates == set()
    assert REFUSALS.templates - templates == set(), "the engine no longer refuses with these"


def test_a_refusal_reads_in_french_for_a_french_reader() -> None:
    from django.utils import translation

    person = UserFactory()
    game = game_with(person)
    with (
        translation.override("fr"),
        pytest.raises(ServiceError, match="Refusé : ce n'est pas votre tour|Refusé : .* n'est pas permis"),
    ):
        services.game_act(
            game=game, user=person, action={"type": "end_turn", "player": 0}, expected_version=game.version
        )


def test_steps_are_append_only() -> None:
    game = game_with(UserFactory())
    step = game.steps.first()
    step.events = []
    with pytest.raises(ValueError, match="append-only"):
        step.save()


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_action_kind_and_phase_has_a_label_in_the_refusal(language: str) -> None:
    """« {action} is not allowed now ({phase}) » never shows a code word: each kind and phase reads as a label."""
    from django.utils import translation

    from frag.engine import IllegalAction
    from frag.engine.base import ACTION, DISCARD, MOVEMENT, OVER, PLACEMENT
    from frag.engine.state import _HANDLERS, _PHASES
    from frag.refusals import ACTION_LABELS, PHASE_LABELS, refusal_text

    phases = {PLACEMENT, MOVEMENT, ACTION, DISCARD, OVER} | {p for ps in _PHASES.values() for p in ps}
    assert set(ACTION_LABELS) == set(_HANDLERS) and set(PHASE_LABELS) == phases
    with translation.override(language):
        for kind in _HANDLERS:
            for phase in phases:
                text = refusal_text(IllegalAction("{action} is not allowed now ({phase})", action=kind, phase=phase))
                assert str(ACTION_LABELS[kind]) in text and str(PHASE_LABELS[phase]) in text
                assert "_" not in text
        sample = refusal_text(
            IllegalAction("{action} is not allowed now ({phase})", action="end_turn", phase="movement")
        )
    expected = {
        "fr": "finir le tour n'est pas permis maintenant "
        "(phase 2, points de mouvement : lancez les dés ou jouez une carte de téléportation)",
        "en": "ending the turn is not allowed now (phase 2, movement points: roll the dice or play a teleport card)",
    }
    assert sample == expected[language]
