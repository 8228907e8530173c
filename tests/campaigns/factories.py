from __future__ import annotations

import factory
from django.contrib.auth.models import User

from campaigns import services
from campaigns.models import Campaign, Membership, Role
from characters.models import Character

PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):  # type: ignore[no-untyped-def]
        if create:
            obj.save()


def campaign_with(narrator: User | None = None, players: int = 0, **settings: object) -> Campaign:
    """A campaign made through the real service, with ``players`` extra player accounts."""
    narrator = narrator or UserFactory()
    data = {"name": "Les Ombres", **settings}
    campaign = services.campaign_create(owner=narrator, data=data)
    for _ in range(players):
        Membership.objects.create(campaign=campaign, user=UserFactory(), role=Role.PLAYER)
    return campaign


def narrator_of(campaign: Campaign) -> User:
    return campaign.memberships.filter(role=Role.NARRATOR).select_related("user").first().user  # type: ignore[union-attr]


def players_of(campaign: Campaign) -> list[User]:
    return [m.user for m in campaign.memberships.filter(role=Role.PLAYER).select_related("user").order_by("pk")]


def membership(campaign: Campaign, user: User) -> Membership:
    return Membership.objects.select_related("campaign", "user").get(campaign=campaign, user=user)


class CharacterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Character

    name = factory.Sequence(lambda n: f"Personnage {n}")
    concept = "Aventurier"
    goal = "Survivre"
