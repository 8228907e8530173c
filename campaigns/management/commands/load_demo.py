"""Load (or refresh) the demo campaign and print the accounts that open it."""

from __future__ import annotations

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
        parser.add_argument("--password", help="Use this password for the three demo accounts.")

    def handle(self, *args: Any, **options: Any) -> None:
        password = options.get("password") or "".join(secrets.choice(ALPHABET) for _ in range(12))
        with transaction.atomic():
            campaign, created = demo.demo_campaign_load(password=password, today=timezone.localdate())
        verb = "created" if created else "already there; passwords reset"
        self.stdout.write(self.style.SUCCESS(f"Demo campaign “{campaign.name}” {verb}."))
        self.stdout.write("Log in at http://127.0.0.1:8000/accounts/login/ with:")
        for username in demo.DEMO_USERS:
            role = "narrator" if username == demo.DEMO_NARRATOR else "player"
            self.stdout.write(f"  {username:<10} {password:<16} ({role})")
        if not User.objects.filter(is_superuser=True).exists():
            self.stdout.write("Admin: python manage.py createsuperuser")
