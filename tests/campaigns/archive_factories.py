"""A played campaign for the archive's tests: the demo, plus a Frag game and a TRAGIC game recorded in it."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.contrib.auth.models import User

from campaigns.archive.writing import campaign_archive
from campaigns.demo import demo_campaign_load
from campaigns.models import Campaign, Membership
from frag import services as frag_services
from frag.engine.state import State
from tests.conflicts.factories import fight
from tests.frag.factories import game_with
from tragic import services as tragic_services


def played_campaign() -> tuple[Campaign, User]:
    """The demo (its Sequence drawn and settled, its round dealt), a Frag game and a TRAGIC game played in it.

    Another table is played first, so that no database id equals its archive number by chance (a missed
    renumbering would go unseen otherwise)."""
    other = fight(npcs=3)
    game_with(other.narrator, campaign_id=other.campaign.pk, bots=1, seed=2)
    tragic_services.game_create(
        user=other.narrator,
        deck_ref="ready:acier-et-plomb",
        opponent="heuristic",
        seed=4,
        campaign_id=other.campaign.pk,
    )
    campaign, _ = demo_campaign_load(password="demo-pass-123", today=dt.date(2026, 11, 22))
    narrator = User.objects.get(username="narratrice")
    frag = game_with(narrator, campaign_id=campaign.pk, bots=1, seed=3)
    for _ in range(6):  # the narrator places her fighter and plays a few turns; the bot answers each
        state = State.from_json(frag.snapshot)
        action = state.legal_actions(0)[0] if state.phase != "action" else {"type": "end_turn", "player": 0}
        frag_services.game_act(game=frag, user=narrator, action=action, expected_version=frag.version)
        frag.refresh_from_db()
    tragic_services.game_create(
        user=narrator, deck_ref="ready:acier-et-plomb", opponent="heuristic", seed=5, campaign_id=campaign.pk
    )
    return campaign, narrator


def archive_of(campaign: Campaign, user: User) -> dict[str, Any]:
    return campaign_archive(campaign=campaign, membership=Membership.objects.get(campaign=campaign, user=user))


def text_of(archive: dict[str, Any]) -> str:
    return json.dumps(archive, ensure_ascii=False)


def up_to_ids(archive: dict[str, Any]) -> dict[str, Any]:
    """What two exports of the same campaign share: all but the moment of the export."""
    return {key: value for key, value in archive.items() if key != "exported_at"}
