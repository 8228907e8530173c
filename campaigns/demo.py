"""The demo campaign, built through the real services so its log reads like a played one."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User

from accounts.models import Profile
from campaigns import services
from campaigns.cast import cast
from campaigns.models import Campaign, Membership, Role

DEMO_CAMPAIGN = "Les Ombres de Lutèce"
DEMO_NARRATOR = "narratrice"
DEMO_PLAYERS = ("joueur1", "joueuse2")
DEMO_USERS = (DEMO_NARRATOR, *DEMO_PLAYERS)

# Other apps add to the demo (sheets, sequences, games) with register_demo_step(func(campaign)).
_demo_steps: list[Callable[[Campaign], None]] = []


def register_demo_step(step: Callable[[Campaign], None]) -> Callable[[Campaign], None]:
    if step not in _demo_steps:
        _demo_steps.append(step)
    return step


# The demo is set in Paris, 1925: its in-game clock starts on the evening of the masked ball.
DEMO_CLOCK = dt.datetime(1925, 3, 14, 21, 0, tzinfo=ZoneInfo("Europe/Paris"))


def _user(username: str, password: str, *, reset: bool) -> tuple[User, bool]:
    """The demo account; an existing one keeps its password unless ``reset`` (so re-running logs nobody out)."""
    user, created = User.objects.get_or_create(username=username)
    if created or reset:
        user.set_password(password)
        user.save()
    Profile.objects.get_or_create(user=user, defaults={"language": "fr"})
    return user, created


def demo_accounts(*, password: str, reset: bool) -> dict[str, bool]:
    """Make the demo accounts; says which ones got ``password`` (new ones, or all when ``reset``)."""
    return {name: _user(name, password, reset=reset)[1] or reset for name in DEMO_USERS}


def demo_campaign_load(*, password: str, today: dt.date, reset_passwords: bool = True) -> tuple[Campaign, bool]:
    demo_accounts(password=password, reset=reset_passwords)
    narrator = User.objects.get(username=DEMO_NARRATOR)
    players = [User.objects.get(username=name) for name in DEMO_PLAYERS]
    existing = Campaign.objects.filter(name=DEMO_CAMPAIGN, memberships__user=narrator).first()
    if existing is not None:
        return existing, False
    campaign = services.campaign_create(
        owner=narrator,
        data={
            "name": DEMO_CAMPAIGN,
            "description": "Paris, 1925. Une société secrète, des disparitions, et des pouvoirs qui s'éveillent.",
            "starting_atouts": 11,
        },
    )
    Campaign.objects.filter(pk=campaign.pk).update(game_clock=DEMO_CLOCK)
    campaign.game_clock = DEMO_CLOCK
    for player in players:
        Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
        services.event_append(
            campaign=campaign,
            kind="member.joined",
            actor=player,
            payload={"username": player.username, "role": "player"},
        )
    jim, lisa, inspector = cast().demo(campaign, players)
    first = services.game_session_create(
        campaign=campaign, actor=narrator, date=today - dt.timedelta(days=7), title="Le bal masqué"
    )
    services.game_session_open(game_session=first, actor=narrator)
    narrator_membership = Membership.objects.get(campaign=campaign, user=narrator)
    services.note_write(
        membership=narrator_membership,
        text="Le bal de la comtesse bat son plein quand les lumières s'éteignent. Un cri, puis le silence.",
        characters=[jim, lisa],
    )
    services.note_write(
        membership=Membership.objects.get(campaign=campaign, user=players[1]),
        text="Lisa note le numéro de la voiture qui s'enfuit : **PA-1925**.",
        characters=[lisa],
    )
    services.note_write(
        membership=narrator_membership,
        text="L'inspecteur Garnier sait qui conduisait, mais il se taira tant qu'on ne l'aura pas aidé.",
        private=True,
        characters=[inspector],
    )
    services.clock_advance(
        campaign=campaign, actor=narrator, delta=dt.timedelta(hours=6), reason="La nuit passe au commissariat."
    )
    services.game_session_close(game_session=first, actor=narrator)
    services.game_session_create(campaign=campaign, actor=narrator, date=today, title="Les catacombes")
    for step in _demo_steps:
        step(campaign)
    return campaign, True
