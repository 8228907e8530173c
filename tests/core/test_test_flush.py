"""The suite's flush on PostgreSQL (tests/conftest.py, ``_flush_by_delete``) empties every table, rows that point at
each other included, as Django's ``TRUNCATE`` did."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from campaigns import services
from tests.campaigns.factories import campaign_with, membership, narrator_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_flush_empties_every_table_of_rows_that_point_at_each_other() -> None:
    campaign = campaign_with(players=2)
    services.note_write(membership=membership(campaign, narrator_of(campaign)), text="Avant le ménage")
    assert connection.ops.sql_flush(no_style(), ["campaigns_event"])[-1].startswith("DELETE FROM")
    call_command("flush", interactive=False, verbosity=0, inhibit_post_migrate=True)
    left = {model._meta.label: model._default_manager.count() for model in apps.get_models()}
    assert {label: count for label, count in left.items() if count} == {}
