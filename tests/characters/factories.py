"""Characters made through the real services, for tests."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import User

from campaigns import services as campaign_services
from campaigns.models import Campaign, GameSession
from characters.models import Character
from characters.services.creation import character_create
from tests.campaigns.factories import campaign_with, narrator_of, players_of


def pc(
    campaign: Campaign,
    player: User,
    ranks: Mapping[str, int] | None = None,
    name: str = "Jim Bones",
    custom: list[dict[str, str]] | None = None,
) -> Character:
    """A PC through the wizard's service; default: Médecine Moyen (from Lamentable: 3) and Esprit Bon (3)."""
    return character_create(
        campaign=campaign,
        actor=player,
        name=name,
        concept="Médecin de campagne abrupt",
        goal="Empêcher le méchant d'accomplir son plan",
        ranks=ranks if ranks is not None else {"medecine": 4, "esprit": 5},
        custom_traits=custom or [],
    )


def table(players: int = 2, **settings: object) -> tuple[Campaign, User, list[User]]:
    campaign = campaign_with(players=players, **settings)
    return campaign, narrator_of(campaign), players_of(campaign)


def open_session(campaign: Campaign, narrator: User) -> GameSession:
    import datetime as dt

    session = campaign_services.game_session_create(campaign=campaign, actor=narrator, date=dt.date(2026, 11, 22))
    return campaign_services.game_session_open(game_session=session, actor=narrator)
