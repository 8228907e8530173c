"""The move of the Savage-style states from ``characters`` to ``states`` keeps every row.

``characters/migrations/0009_savage_states_move_to_states_app.py`` forgets the models and
``states/migrations/0001_initial.py`` takes the same tables over: state only, so the rows written
before the move are the rows read after it.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("characters", "0008_healing_powers"), ("states", None)]
TABLES = [
    "characters_savagesettings",
    "characters_savagestate",
    "characters_savagefatigue",
    "characters_savageround",
    "characters_savageround_participants",
]


def _migrate(targets: list[tuple[str, str | None]] | None = None):  # type: ignore[no-untyped-def]
    """Migrate to ``targets``, or forward to the latest migration of every app (where later tests expect it)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor.migrate(targets or executor.loader.graph.leaf_nodes()).apps


@pytest.mark.slow  # migrating back and forth rebuilds every table: about 10 s alone
@pytest.mark.django_db(transaction=True)
def test_the_move_keeps_tables_and_rows() -> None:
    old = _migrate(BEFORE)
    assert "states" not in old.app_configs
    User = old.get_model("auth", "User")
    Campaign = old.get_model("campaigns", "Campaign")
    Character = old.get_model("characters", "Character")
    ContentType = old.get_model("contenttypes", "ContentType")
    narrator = User.objects.create(username="moved-narrator")
    campaign = Campaign.objects.create(name="Before the move", created_by=narrator)
    hero = Character.objects.create(campaign=campaign, name="Ysolde", owner=narrator)
    state = old.get_model("characters", "SavageState").objects.create(character=hero, wounds=3, shaken=True)
    old.get_model("characters", "SavageFatigue").objects.create(state=state, source="hunger", levels=2)
    old.get_model("characters", "SavageSettings").objects.create(campaign=campaign, revers_to_wounds=True)
    tracker = old.get_model("characters", "SavageRound").objects.create(campaign=campaign, number=4, order=[hero.pk])
    tracker.participants.add(hero)
    ContentType.objects.get_or_create(app_label="characters", model="savagestate")

    new = _migrate()

    with connection.cursor() as cursor:
        present = set(connection.introspection.table_names(cursor))
    assert set(TABLES) <= present
    assert not any(name.startswith("states_") for name in present)
    moved = new.get_model("states", "SavageState").objects.get(character_id=hero.pk)
    assert (moved.pk, moved.wounds, moved.shaken) == (state.pk, 3, True)
    assert [(f.source, f.levels) for f in moved.fatigue_tracks.all()] == [("hunger", 2)]
    assert new.get_model("states", "SavageSettings").objects.get(campaign_id=campaign.pk).revers_to_wounds
    moved_round = new.get_model("states", "SavageRound").objects.get(campaign_id=campaign.pk)
    assert (moved_round.number, moved_round.order) == (4, [hero.pk])
    assert list(moved_round.participants.values_list("pk", flat=True)) == [hero.pk]
    content_types = new.get_model("contenttypes", "ContentType").objects
    assert content_types.filter(app_label="states", model="savagestate").exists()
    assert not content_types.filter(app_label="characters", model="savagestate").exists()


@pytest.mark.django_db
def test_the_models_keep_their_old_tables() -> None:
    from states.models import SavageFatigue, SavageRound, SavageSettings, SavageState

    tables = [m._meta.db_table for m in (SavageSettings, SavageState, SavageFatigue, SavageRound)]
    tables.append(SavageRound.participants.through._meta.db_table)
    assert tables == TABLES
