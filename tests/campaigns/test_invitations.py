"""Invitations are single-use, expiring links that explain themselves when they cannot be used."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns import services
from campaigns.models import Event, Membership
from core.errors import ServiceError
from tests.campaigns.factories import UserFactory, campaign_with, narrator_of

pytestmark = pytest.mark.django_db


def test_accepting_an_invitation_makes_a_member_and_logs_it() -> None:
    campaign = campaign_with()
    invitation = services.invitation_create(campaign=campaign, actor=narrator_of(campaign), role="player")
    newcomer = UserFactory()
    membership = services.invitation_accept(token=invitation.token, user=newcomer)
    assert membership.role == "player"
    assert Event.objects.filter(campaign=campaign, kind="member.joined", actor=newcomer).exists()


def test_an_invitation_works_once() -> None:
    campaign = campaign_with()
    invitation = services.invitation_create(campaign=campaign, actor=narrator_of(campaign), role="player")
    services.invitation_accept(token=invitation.token, user=UserFactory())
    second = UserFactory()
    with pytest.raises(ServiceError, match="already been used"):
        services.invitation_accept(token=invitation.token, user=second)
    assert not Membership.objects.filter(user=second).exists()


def test_an_expired_invitation_is_refused() -> None:
    campaign = campaign_with()
    created = timezone.now() - dt.timedelta(days=10)
    invitation = services.invitation_create(campaign=campaign, actor=narrator_of(campaign), role="player", now=created)
    late = UserFactory()
    with pytest.raises(ServiceError, match="expired"):
        services.invitation_accept(token=invitation.token, user=late)
    assert not Membership.objects.filter(user=late).exists()


def test_the_expired_page_explains_itself_in_french() -> None:
    campaign = campaign_with()
    created = timezone.now() - dt.timedelta(days=10)
    invitation = services.invitation_create(campaign=campaign, actor=narrator_of(campaign), role="player", now=created)
    client = Client()
    client.force_login(UserFactory())
    response = client.get(reverse("campaigns:invitation", args=[invitation.token]), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 410
    assert "a expiré" in response.content.decode()


def test_the_reused_page_explains_itself_in_english() -> None:
    campaign = campaign_with()
    invitation = services.invitation_create(campaign=campaign, actor=narrator_of(campaign), role="player")
    services.invitation_accept(token=invitation.token, user=UserFactory())
    client = Client()
    client.force_login(UserFactory())
    client.cookies["django_language"] = "en"
    response = client.post(reverse("campaigns:invitation", args=[invitation.token]))
    assert response.status_code == 410
    assert "already been used" in response.content.decode()


def test_a_narrator_invitation_makes_a_second_narrator() -> None:
    campaign = campaign_with()
    invitation = services.invitation_create(campaign=campaign, actor=narrator_of(campaign), role="narrator")
    membership = services.invitation_accept(token=invitation.token, user=UserFactory())
    assert membership.is_narrator
    assert campaign.memberships.filter(role="narrator").count() == 2


def test_a_member_cannot_join_twice() -> None:
    campaign = campaign_with()
    invitation = services.invitation_create(campaign=campaign, actor=narrator_of(campaign), role="player")
    with pytest.raises(ServiceError, match="already a member"):
        services.invitation_accept(token=invitation.token, user=narrator_of(campaign))
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_the_last_narrator_cannot_become_a_player() -> None:
    campaign = campaign_with()
    only = campaign.memberships.get()
    with pytest.raises(ServiceError, match="at least one narrator"):
        services.membership_role_set(membership=only, actor=only.user, role="player")


def test_an_invitation_link_names_the_campaign_and_the_narrator_before_any_login() -> None:
    """Issue 28: « An invitation link opens a bare « Se connecter » page that does not name the campaign »."""
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    invitation = services.invitation_create(campaign=campaign, actor=narrator, role="player")
    url = reverse("campaigns:invitation", args=[invitation.token])
    html = Client().get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Rejoindre « Les Ombres »" in html
    assert f"{narrator.username}, le narrateur" in html
    assert f"?next={url}" in html  # both links come back here
    assert not Membership.objects.filter(campaign=campaign, role="player").exists()


def test_joining_without_an_account_goes_to_log_in_and_comes_back() -> None:
    campaign = campaign_with()
    invitation = services.invitation_create(campaign=campaign, actor=narrator_of(campaign), role="player")
    url = reverse("campaigns:invitation", args=[invitation.token])
    response = Client().post(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login")) and "next=" in response["Location"]
    assert not Membership.objects.filter(campaign=campaign, role="player").exists()


def test_next_is_kept_from_sign_up_to_log_in_and_through_sign_up() -> None:
    """The sign-up page's « Se connecter » link dropped ?next; signing up then lands on the invitation."""
    campaign = campaign_with()
    invitation = services.invitation_create(campaign=campaign, actor=narrator_of(campaign), role="player")
    url = reverse("campaigns:invitation", args=[invitation.token])
    client = Client()
    signup = f"{reverse('accounts:signup')}?next={url}"
    html = client.get(signup, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"{reverse('login')}?next={url}" in html
    data = {"username": "newcomer", "password1": "a long pass phrase 42", "password2": "a long pass phrase 42"}
    response = client.post(signup, data)
    assert response.status_code == 302 and response["Location"] == url
