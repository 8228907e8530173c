from __future__ import annotations

from django.contrib.auth.models import User

from frag import services
from frag.models import Game
from tests.campaigns.factories import UserFactory

__all__ = ["UserFactory", "game_with"]


def game_with(
    person: User, *, bots: int = 2, others: list[User] | None = None, seed: int = 1, **kwargs: object
) -> Game:
    """A game made through the real service: the person, other people, then heuristic bots."""
    seats = [services.SeatSpec(name=person.username, health=2, speed=3, accuracy=2, user=person)]
    seats += [services.SeatSpec(name=u.username, health=2, speed=3, accuracy=2, user=u) for u in others or []]
    seats += [
        services.SeatSpec(name=f"Bot {i + 1}", health=2, speed=3, accuracy=2, bot="heuristic") for i in range(bots)
    ]
    return services.game_create(
        creator=person, map_name=kwargs.pop("map_name", "entrepot"), seats=seats, seed=seed, **kwargs
    )  # type: ignore[arg-type]
