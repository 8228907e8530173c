"""The kinds each campaign's log holds, for whom (campaigns.models.LoggedKind), kept by the database.

A trigger on every insert into campaigns_event adds the (campaign, kind, visibility, recipient) it brings,
once, so a bulk load or a raw INSERT keeps the list as Event.save() does. SQLite rebuilds a table for some
schema changes (an added constraint, an altered column): a later migration that does so on campaigns_event
drops this trigger and must create it again (tests/campaigns/test_log_kinds.py checks that it is there).
"""

import django.db.models.deletion
from django.db import migrations, models

READER = "CASE WHEN {row}.visibility = 'player' THEN COALESCE({row}.recipient_id, 0) ELSE 0 END"
COLUMNS = "campaigns_loggedkind (campaign_id, kind, visibility, reader)"
FILL = (
    f"INSERT INTO {COLUMNS} SELECT DISTINCT campaign_id, kind, visibility, {READER.format(row='campaigns_event')} "
    "FROM campaigns_event"
)
SQLITE = (
    "CREATE TRIGGER IF NOT EXISTS campaigns_event_logged_kind AFTER INSERT ON campaigns_event BEGIN "
    f"INSERT OR IGNORE INTO {COLUMNS} VALUES (new.campaign_id, new.kind, new.visibility, {READER.format(row='new')}); "
    "END",
)
POSTGRES = (
    "CREATE OR REPLACE FUNCTION campaigns_logged_kind() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"INSERT INTO {COLUMNS} VALUES (NEW.campaign_id, NEW.kind, NEW.visibility, {READER.format(row='NEW')}) "
    "ON CONFLICT DO NOTHING; RETURN NULL; END $$",
    "CREATE TRIGGER campaigns_event_logged_kind AFTER INSERT ON campaigns_event "
    "FOR EACH ROW EXECUTE FUNCTION campaigns_logged_kind()",
)


def keep_kinds(apps, schema_editor):  # type: ignore[no-untyped-def]
    vendor = schema_editor.connection.vendor
    if vendor not in ("sqlite", "postgresql"):
        raise RuntimeError(f"The log's kinds have no trigger for the {vendor} database.")
    for statement in (FILL, *(SQLITE if vendor == "sqlite" else POSTGRES)):
        schema_editor.execute(statement)


def drop_trigger(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS campaigns_event_logged_kind")
    else:
        schema_editor.execute("DROP TRIGGER IF EXISTS campaigns_event_logged_kind ON campaigns_event")
        schema_editor.execute("DROP FUNCTION IF EXISTS campaigns_logged_kind()")


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0005_event_search'),
    ]

    operations = [
        migrations.CreateModel(
            name='LoggedKind',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(max_length=48)),
                ('visibility', models.CharField(choices=[('everyone', 'Everyone'), ('narrators', 'Narrators only'), ('player', 'Narrators and one player')], max_length=12)),
                ('reader', models.PositiveBigIntegerField(default=0)),
                ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='campaigns.campaign')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('campaign', 'kind', 'visibility', 'reader'), name='logged_kind_once')],
            },
        ),
        migrations.RunPython(keep_kinds, drop_trigger),
    ]
