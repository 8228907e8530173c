"""Load (or refresh) the demo campaign and print the accounts that open it."""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from campaigns import demo

# Letters and digits only, none that look alike, so the printed password is easy to type.
ALPHABET = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class Command(BaseCommand):
    help = "Create the demo campaign (one narrator, two players, characters, a finished session)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--password", help="Set this password on the three demo accounts (existing ones too). Without it, "
            "new accounts get a random password and existing ones keep theirs, so a re-run logs nobody out.",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        given = options.get("password")
        password = given or "".join(secrets.choice(ALPHABET) for _ in range(12))
        with transaction.atomic():
            fresh = demo.demo_accounts(password=password, reset=bool(given))
            campaign, created = demo.demo_campaign_load(
                password=password, today=timezone.localdate(), reset_passwords=False
            )
        self.stdout.write(
            self.style.SUCCESS(f"Demo campaign “{campaign.name}” {'created' if created else 'already there'}.")
        )
        # The address `make run` serves on: HOST and PORT as the Makefile passes them (8000 is only the default).
        host, port = os.environ.get("HOST", "127.0.0.1"), os.environ.get("PORT", "8000")
        self.stdout.write(f"Log in at http://{host}:{port}/accounts/login/ with:")
        for username in demo.DEMO_USERS:
            role = "narrator" if username == demo.DEMO_NARRATOR else "player"
            shown = password if fresh[username] else "(password unchanged)"
            self.stdout.write(f"  {username:<10} {shown:<20} ({role})")
        if not all(fresh.values()):
            self.stdout.write("Forgotten a password? manage.py load_demo --password NEW sets it on the three accounts.")
        if not User.objects.filter(is_superuser=True).exists():
            self.stdout.write("Admin: python manage.py createsuperuser")
