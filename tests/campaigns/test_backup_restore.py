"""Backups (issue 30): the README's ``pg_dump`` and ``pg_restore`` commands, run as the README writes them, give
back a working copy of the database.

« The README's production section gains backups: ``pg_dump`` with a restore that was tested. » The commands are
read from the README's block, so that the page and what is tested cannot drift apart; only the values the README
leaves for its reader to choose (the database to restore into, the dump's date, the server's address) are set. The copy
holds the same rows, its schema is current (``migrate --check``), the log's kind list and search index are kept
by the database's triggers as before, the next event takes the next stream position, and ``export_campaign``
reads it."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.db import connection

from campaigns.demo import demo_campaign_load

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
# What a copy must hold as its source did, read through the application.
FACTS = """
import json
from django.contrib.auth.models import User
from campaigns.models import Campaign, Event, LoggedKind
from characters.models import Character
campaign = Campaign.objects.get(pk={pk})
print(json.dumps({{
    "users": sorted(User.objects.values_list("username", flat=True)),
    "events": list(Event.objects.filter(campaign=campaign).order_by("pk").values_list("position", "kind")),
    "characters": sorted(Character.objects.filter(campaign=campaign).values_list("name", flat=True)),
    "kinds": sorted(LoggedKind.objects.filter(campaign=campaign).values_list("kind", "visibility")),
    "head": campaign.stream.position,
}}))
"""
NEXT_EVENT = """
import json
from campaigns import services
from campaigns.models import Campaign, Event, LoggedKind, Membership
from campaigns.selectors import _search
campaign = Campaign.objects.get(pk={pk})
narrator = Membership.objects.select_related("campaign").filter(campaign=campaign, role="narrator").first()
# The kind list is kept by a trigger on the log: the note's kind, taken out of it, comes back with the next note.
LoggedKind.objects.filter(campaign=campaign, kind="note").delete()
services.note_write(membership=narrator, text="Zanzibar après la restauration")
print(json.dumps({{
    "position": Event.objects.filter(campaign=campaign).order_by("-position").values_list("position", flat=True)[0],
    "note kinds": list(LoggedKind.objects.filter(campaign=campaign, kind="note").values_list("visibility", flat=True)),
    "found": list(_search(Event.objects.filter(campaign=campaign), "zanzib", campaign.pk).values_list("position", flat=True)),
}}))
"""


def readme_backup_commands() -> list[str]:
    """The shell lines of the README's "Backup and restore" block, without their comments."""
    block = README.read_text().split("Backup and restore", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].strip() for line in block.splitlines() if line.split("#", 1)[0].strip()]


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_readmes_backup_and_restore_give_back_a_working_copy(tmp_path: Path) -> None:
    campaign, _created = demo_campaign_load(password="demo-pass-123", today=dt.date(2026, 11, 22))
    db = connection.settings_dict
    server = f"postgres://{db['USER']}{':' + db['PASSWORD'] if db['PASSWORD'] else ''}@{db['HOST']}:{db['PORT']}/"
    source, restored = server + db["NAME"], f"{db['NAME']}_restored_{uuid.uuid4().hex[:8]}"
    libpq = {"PGHOST": str(db["HOST"]), "PGPORT": str(db["PORT"]), "PGUSER": str(db["USER"])}
    if db["PASSWORD"]:
        libpq["PGPASSWORD"] = str(db["PASSWORD"])
    env = {**os.environ, **libpq, "DATABASE_URL": source, "TABLEE_ENGINE": "python"}
    commands = readme_backup_commands()
    assert [c.split()[0] for c in commands] == [
        "pg_dump",
        "createdb",
        "pg_restore",
        "DATABASE_URL=postgres://…/tablee_restored",
    ]
    connection.close()  # the rows are committed; pg_dump reads them beside this process
    try:
        for command in commands:
            command = (
                command.replace("tablee-2026-11-28.dump", "tablee-$(date +%F).dump")
                .replace("postgres://…/", server)
                .replace("tablee_restored", restored)
                .replace("python manage.py", f"{sys.executable} {ROOT / 'manage.py'}")
            )
            done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                                  timeout=300)  # fmt: skip
            assert done.returncode == 0, f"{command}\n{done.stdout}{done.stderr}"

        copy = {**env, "DATABASE_URL": server + restored}
        before = json.loads(_manage(env, "shell", "-c", FACTS.format(pk=campaign.pk)).strip().splitlines()[-1])
        after = json.loads(_manage(copy, "shell", "-c", FACTS.format(pk=campaign.pk)).strip().splitlines()[-1])
        assert after == before and before["events"] and before["kinds"]
        # The stream goes on from its head; the log's triggers still keep its kind list and its search index.
        written = json.loads(_manage(copy, "shell", "-c", NEXT_EVENT.format(pk=campaign.pk)).strip().splitlines()[-1])
        assert written["position"] == before["head"] + 1 and written["found"] == [written["position"]]
        assert written["note kinds"] == ["everyone"]
        archive = json.loads(_manage(copy, "export_campaign", str(campaign.pk)))
        assert len(archive["sections"]["campaigns"]["event"]) == len(before["events"]) + 1
    finally:
        subprocess.run(["dropdb", "--if-exists", restored], env=env, capture_output=True, timeout=120)
