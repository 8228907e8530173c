"""Write a campaign's archive (docs/archive.md) to a file or to the standard output."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaigns.archive.writing import campaign_archive
from campaigns.models import Campaign, Membership, Role
from core.errors import ServiceError


class Command(BaseCommand):
    help = "Export a campaign as one JSON archive (it holds the campaign's secrets: keep it safe)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("campaign_id", type=int)
        parser.add_argument("-o", "--output", help="The file to write (default: the standard output).")
        parser.add_argument(
            "--narrator", help="The narrator the archive is exported as (default: the campaign's first narrator)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(pk=options["campaign_id"]).first()
        if campaign is None:
            raise CommandError(f"No campaign {options['campaign_id']}.")
        narrators = Membership.objects.filter(campaign=campaign, role=Role.NARRATOR).select_related("user")
        if options.get("narrator"):
            narrators = narrators.filter(user__username=options["narrator"])
        membership = narrators.order_by("pk").first()
        if membership is None:
            raise CommandError("That campaign has no such narrator.")
        try:
            archive = campaign_archive(campaign=campaign, membership=membership)
        except ServiceError as refusal:
            raise CommandError(str(refusal)) from refusal
        text = json.dumps(archive, ensure_ascii=False, indent=1)
        if options.get("output"):
            with open(options["output"], "w", encoding="utf-8") as out:
                out.write(text)
            self.stderr.write(f"Campaign {campaign.pk} “{campaign.name}” written to {options['output']}.")
        else:
            self.stdout.write(text)
