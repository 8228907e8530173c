"""Import a campaign's archive (docs/archive.md) as a new campaign."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from campaigns.archive.reading import archive_parsed
from campaigns.archive.restoring import campaign_import
from campaigns.models import Invitation
from core.errors import ServiceError


class Command(BaseCommand):
    help = "Import a campaign archive as a new campaign; its other members get invitation links."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--narrator", help="The account that narrates the new campaign (default: the one who exported it)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = Path(options["file"]).read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc.strerror}.") from exc
        try:
            username = options.get("narrator") or archive_parsed(data).get("exported_by")
            narrator = get_user_model().objects.filter(username=username).first()
            if narrator is None:
                raise CommandError(f"No account “{username}” here: name the narrator with --narrator.")
            campaign = campaign_import(data=data, importer=narrator)
        except ServiceError as refusal:
            raise CommandError(str(refusal)) from refusal
        self.stdout.write(
            self.style.SUCCESS(f"Campaign {campaign.pk} “{campaign.name}” imported, narrated by {username}.")
        )
        for invitation in Invitation.objects.filter(campaign=campaign).order_by("pk"):
            self.stdout.write(f"  {invitation.addressed_to} ({invitation.role}): {invitation.get_absolute_url()}")
