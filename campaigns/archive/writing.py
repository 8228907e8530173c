"""Build a campaign's archive: everything of it, as one JSON document (docs/archive.md)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.archive.registry import Renumber, Table, tables
from campaigns.archive.rows import archived_fields, numbered, plain, records_of
from campaigns.models import Campaign, CampaignStream, Invitation, Membership, Role
from core.errors import ServiceError

FORMAT = "tablee-campaign"
SCHEMA_VERSION = 1

# The campaign's own row: its public log's token is the server's secret (a fresh one is made on import) and its
# creator is whoever imports it.
CAMPAIGN_TABLE = Table(
    model=Campaign,
    rows=lambda campaign: [campaign],
    section="campaigns",
    order=-1,
    skip=("public_log_token", "created_by"),
)


def members_of(campaign: Campaign) -> list[dict[str, str]]:
    """The people to invite again: the members, and the invitations addressed to someone not yet used."""
    found = {m.user.username: m.role for m in Membership.objects.filter(campaign=campaign).select_related("user")}
    addressed = Invitation.objects.filter(campaign=campaign, used_at__isnull=True).exclude(addressed_to="")
    for invitation in addressed.order_by("pk"):
        found.setdefault(invitation.addressed_to, invitation.role)
    # The narrators first, then by name: the order does not depend on who joined first.
    return [
        {"username": name, "role": role}
        for name, role in sorted(found.items(), key=lambda item: (item[1] != Role.NARRATOR, item[0]))
    ]


class _Usernames:
    """A person's id as their username, read once per person."""

    def __init__(self) -> None:
        self.known: dict[int, str] = {}

    def __call__(self, user_id: int | None) -> str | None:
        if user_id is None:
            return None
        if user_id not in self.known:
            user = get_user_model().objects.filter(pk=user_id).values_list("username", flat=True).first()
            self.known[user_id] = user or ""
        return self.known[user_id] or None


def campaign_archive(*, campaign: Campaign, membership: Membership) -> dict[str, Any]:
    """The archive of ``campaign`` for one of its narrators (it holds every secret of the campaign).

    Read in one transaction that holds the campaign's stream: no event can be appended meanwhile, so the
    archive shows the campaign as it was between two of its events.
    """
    if membership.campaign_id != campaign.pk or not membership.is_narrator:
        raise ServiceError(_("Only the campaign's narrators may download its archive."))
    with transaction.atomic():
        stream = CampaignStream.objects.select_for_update().filter(campaign=campaign).first()
        campaign = Campaign.objects.get(pk=campaign.pk)
        renumber = Renumber()
        usernames = _Usernames()
        rows = {table.label: numbered(table, table.rows(campaign), renumber) for table in tables()}
        sections: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for table in tables():
            records = records_of(table, rows[table.label], renumber, usernames)
            sections.setdefault(table.section, {})[table.key] = records
        return {
            "format": FORMAT,
            "schema_version": SCHEMA_VERSION,
            "exported_at": timezone.now().isoformat(),
            "exported_by": membership.user.username,
            "campaign": {f.name: plain(f.value_from_object(campaign)) for f in archived_fields(CAMPAIGN_TABLE)},
            "public_log": campaign.public_log_token is not None,
            "stream_position": stream.position if stream is not None else 0,
            "members": members_of(campaign),
            "sections": sections,
        }
