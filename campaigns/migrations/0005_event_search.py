"""The log's full-text search: each event's folded words (``Event.search_text``) and an index of them.

SQLite: an FTS5 table over ``campaigns_event`` (external content: it stores only the index), kept in
step by triggers, so whatever inserts an event (``Event.save()``, a ``bulk_create``, a raw INSERT) is
indexed in the same statement. SQLite rebuilds a table for some schema changes (an added constraint, an
altered column): a later migration that does so on ``campaigns_event`` drops these triggers and must run
``SQLITE_TRIGGERS`` again (tests/campaigns/test_log_search.py checks that they are there).

PostgreSQL: a GIN index over ``to_tsvector('simple', search_text)``; the search's condition repeats
that expression word for word so the planner can use it (campaigns.selectors).
"""

from django.db import migrations, models

BATCH = 2000

SQLITE_TABLE = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS campaigns_event_search USING fts5("
    "search_text, content='campaigns_event', content_rowid='id', tokenize='unicode61 remove_diacritics 0')"
)
SQLITE_TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS campaigns_event_search_insert AFTER INSERT ON campaigns_event BEGIN "
    "INSERT INTO campaigns_event_search(rowid, search_text) VALUES (new.id, new.search_text); END",
    # Events are append-only; a campaign's deletion still deletes its events.
    "CREATE TRIGGER IF NOT EXISTS campaigns_event_search_delete AFTER DELETE ON campaigns_event BEGIN "
    "INSERT INTO campaigns_event_search(campaigns_event_search, rowid, search_text) "
    "VALUES ('delete', old.id, old.search_text); END",
    "CREATE TRIGGER IF NOT EXISTS campaigns_event_search_update AFTER UPDATE OF search_text ON campaigns_event BEGIN "
    "INSERT INTO campaigns_event_search(campaigns_event_search, rowid, search_text) "
    "VALUES ('delete', old.id, old.search_text); "
    "INSERT INTO campaigns_event_search(rowid, search_text) VALUES (new.id, new.search_text); END",
)
SQLITE_DROP = (
    "DROP TRIGGER IF EXISTS campaigns_event_search_insert",
    "DROP TRIGGER IF EXISTS campaigns_event_search_delete",
    "DROP TRIGGER IF EXISTS campaigns_event_search_update",
    "DROP TABLE IF EXISTS campaigns_event_search",
)
POSTGRES_INDEX = (
    "CREATE INDEX IF NOT EXISTS event_search_words ON campaigns_event "
    "USING gin (to_tsvector('simple', search_text))"
)
POSTGRES_DROP = ("DROP INDEX IF EXISTS event_search_words",)


def fill_search_text(apps, schema_editor):  # type: ignore[no-untyped-def]
    """Fold the words of the events written before the search (the same function Event.save() calls)."""
    from campaigns.search_text import event_search_text

    Event = apps.get_model("campaigns", "Event")
    rows = Event.objects.using(schema_editor.connection.alias).order_by("pk").only("pk", "payload")
    last = 0
    while True:
        batch = list(rows.filter(pk__gt=last)[:BATCH])
        if not batch:
            return
        for event in batch:
            event.search_text = event_search_text(event.payload or {})
        # The historical model's plain manager: the append-only guard is the app's, not the schema's.
        Event.objects.using(schema_editor.connection.alias).bulk_update(batch, ["search_text"])
        last = batch[-1].pk


def create_index(apps, schema_editor):  # type: ignore[no-untyped-def]
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        statements = [SQLITE_TABLE, *SQLITE_TRIGGERS,
                      "INSERT INTO campaigns_event_search(campaigns_event_search) VALUES ('rebuild')"]  # fmt: skip
    elif vendor == "postgresql":
        statements = [POSTGRES_INDEX]
    else:
        raise RuntimeError(f"The log's search has no index for the {vendor} database.")
    for statement in statements:
        schema_editor.execute(statement)


def drop_index(apps, schema_editor):  # type: ignore[no-untyped-def]
    vendor = schema_editor.connection.vendor
    for statement in SQLITE_DROP if vendor == "sqlite" else POSTGRES_DROP if vendor == "postgresql" else ():
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0004_live_stream_positions"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="search_text",
            field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.RunPython(fill_search_text, migrations.RunPython.noop),
        migrations.RunPython(create_index, drop_index),
    ]
