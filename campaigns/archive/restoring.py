"""Write a checked archive as a new campaign, narrated by whoever imports it, in one transaction."""

from __future__ import annotations

import copy
import datetime as dt
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.archive.reading import Plan, Row, archive_checked, archive_parsed
from campaigns.archive.registry import Renumber, Table, json_rewrites, tables
from campaigns.archive.rows import is_campaign, m2m_fields, target_label
from campaigns.models import Campaign, CampaignStream, Invitation, Membership, Role
from core.errors import ServiceError


class _People:
    """The archive's usernames as this server's accounts: the exporting narrator is the importer; anyone else is
    the account of the same name, when there is one (it gains no access by it: only an invitation makes a member)."""

    def __init__(self, plan: Plan, importer: User) -> None:
        names = {name for rows in plan.rows.values() for row in rows for name in row.people.values() if name}
        names.discard(plan.exported_by)
        found = get_user_model().objects.filter(username__in=names).in_bulk(field_name="username")
        self.accounts: dict[str, Any] = {**found, plan.exported_by: importer}
        self.missing = sorted(names - found.keys())

    def __call__(self, username: str | None) -> int | None:
        account = self.accounts.get(username) if username else None
        return account.pk if account is not None else None


BATCH = 500


def _prepare(table: Table, row: Row, campaign: Campaign, people: _People, renumber: Renumber) -> None:
    """The row's links set to the new rows' ids (those it names are written already)."""
    obj = row.obj
    for f in table.model._meta.concrete_fields:
        if is_campaign(f):
            setattr(obj, f.attname, campaign.pk)
    for name, number in row.refs.items():
        link: Any = table.model._meta.get_field(name)
        setattr(obj, link.attname, renumber(target_label(link), number) if number is not None else None)
    for name, username in row.people.items():
        person: Any = table.model._meta.get_field(name)
        setattr(obj, person.attname, people(username))
    if table.written_once:
        for name, rewrite in json_rewrites(table).items():
            setattr(obj, name, rewrite(copy.deepcopy(row.record[name]), renumber, obj))
    if table.before_insert is not None:
        table.before_insert(obj)


def _write(table: Table, rows: list[Row], campaign: Campaign, people: _People, renumber: Renumber) -> None:
    """The table's rows inserted in batches, in the order of their numbers (a row that names an earlier row of
    its own table, a correction, waits for it to be written). Row by row, 3,000 events took 22 s."""
    by_batch = connection.features.can_return_rows_from_bulk_insert
    own = [f.name for f in table.model._meta.concrete_fields if target_label(f) == table.label]
    batch: list[Row] = []

    def flush() -> None:
        if by_batch:
            table.model._base_manager.bulk_create([row.obj for row in batch])
        else:
            for row in batch:
                row.obj.save(force_insert=True)
        for row in batch:
            renumber.add(table.label, row.number, row.obj.pk)
        batch.clear()

    for row in rows:
        waiting = {r.number for r in batch}
        if any(row.refs.get(name) in waiting for name in own) or len(batch) >= BATCH:
            flush()
        _prepare(table, row, campaign, people, renumber)
        batch.append(row)
    flush()


def _finish(table: Table, rows: list[Row], campaign: Campaign, renumber: Renumber) -> None:
    """What needs every table restored: the ids JSON fields hold, the many-to-many links, the table's own step."""
    rewrites = json_rewrites(table)
    for row in rows:
        if rewrites and not table.written_once:
            values = {
                name: rewrite(copy.deepcopy(row.record[name]), renumber, row.obj) for name, rewrite in rewrites.items()
            }
            table.model._base_manager.filter(pk=row.obj.pk).update(**values)
            for name, value in values.items():
                setattr(row.obj, name, value)
    for f in m2m_fields(table):
        through: Any = f.remote_field.through
        source, target, label = f.m2m_field_name(), f.m2m_reverse_field_name(), target_label(f)
        links = [
            through(**{f"{source}_id": row.obj.pk, f"{target}_id": renumber(label, number)})
            for row in rows
            for number in row.record[f.name]
        ]
        through.objects.bulk_create(links, batch_size=BATCH)
    if table.after_restore is not None:
        table.after_restore([row.obj for row in rows], campaign)


def _invite(campaign: Campaign, plan: Plan, importer: User, now: dt.datetime) -> None:
    """Each other member of the archive gets an invitation with their role, addressed to their username."""
    skipped = {plan.exported_by, importer.username}
    for member in plan.members:
        if member["username"] in skipped:
            continue
        Invitation.objects.create(
            campaign=campaign,
            token=secrets.token_urlsafe(32),
            role=member["role"],
            created_by=importer,
            expires_at=now + dt.timedelta(hours=settings.INVITATION_TTL_HOURS),
            addressed_to=member["username"],
        )


def campaign_restore(*, plan: Plan, importer: User, now: dt.datetime | None = None) -> Campaign:
    """The archive as a new campaign. The log is restored as it was (no event is added: an archive restored and
    exported again reads the same); every row is new, so nothing of another campaign is touched."""
    now = now or timezone.now()
    people = _People(plan, importer)
    try:
        with transaction.atomic():
            campaign = plan.campaign
            campaign.pk = None
            campaign.created_by = importer
            campaign.public_log_token = secrets.token_urlsafe(32) if plan.public_log else None
            campaign.save(force_insert=True)
            Membership.objects.create(campaign=campaign, user=importer, role=Role.NARRATOR)
            renumber = Renumber()
            for table in tables():
                _write(table, plan.rows[table.label], campaign, people, renumber)
            for table in tables():
                _finish(table, plan.rows[table.label], campaign, renumber)
            CampaignStream.objects.update_or_create(campaign=campaign, defaults={"position": plan.stream_position})
            _invite(campaign, plan, importer, now)
    except IntegrityError as exc:
        if people.missing:
            raise ServiceError(
                _("This archive cannot be imported: some rows need accounts this server does not have: %(names)s.")
                % {"names": ", ".join(people.missing[:10])}
            ) from exc
        raise ServiceError(_("This archive cannot be imported: its rows contradict each other.")) from exc
    except DatabaseError as exc:
        # A value the checks let through but the database refuses (a number too big for a JSON column):
        # refused as well, and the transaction leaves nothing behind.
        raise ServiceError(_("This archive cannot be imported: the database refuses some of its values.")) from exc
    return campaign


def campaign_import(*, data: bytes | str, importer: User) -> Campaign:
    """Check the whole archive, then restore it as a new campaign whose narrator is ``importer``."""
    return campaign_restore(plan=archive_checked(archive_parsed(data)), importer=importer)
