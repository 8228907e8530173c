"""The campaign log is append-only: no code path updates or deletes an Event."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.test import RequestFactory

from campaigns import services
from campaigns.models import AppendOnlyError, Event, Visibility
from tests.campaigns.factories import UserFactory, campaign_with, membership, narrator_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    campaign = campaign_with()
    return services.note_write(membership=membership(campaign, narrator_of(campaign)), text="Il pleut sur Lutèce.")


def test_saving_an_existing_event_is_refused(event: Event) -> None:
    event.payload = {"text": "rewritten"}
    with pytest.raises(AppendOnlyError):
        event.save()
    event.refresh_from_db()
    assert event.payload == {"text": "Il pleut sur Lutèce."}


def test_deleting_an_event_is_refused(event: Event) -> None:
    with pytest.raises(AppendOnlyError):
        event.delete()
    assert Event.objects.filter(pk=event.pk).exists()


def test_queryset_update_is_refused(event: Event) -> None:
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(pk=event.pk).update(kind="tampered")
    event.refresh_from_db()
    assert event.kind == "note"


def test_queryset_delete_is_refused(event: Event) -> None:
    with pytest.raises(AppendOnlyError):
        Event.objects.all().delete()
    assert Event.objects.filter(pk=event.pk).exists()


def test_bulk_update_is_refused(event: Event) -> None:
    event.kind = "tampered"
    with pytest.raises(AppendOnlyError):
        Event.objects.bulk_update([event], ["kind"])


def test_admin_reads_events_but_cannot_change_add_or_delete(event: Event) -> None:
    admin = site._registry[Event]
    request = RequestFactory().get("/")
    request.user = UserFactory(is_superuser=True, is_staff=True)
    assert not admin.has_add_permission(request)
    assert not admin.has_change_permission(request, event)
    assert not admin.has_delete_permission(request, event)
    assert "payload" in admin.get_readonly_fields(request, event)


def test_an_event_records_campaign_session_actor_characters_time_and_visibility() -> None:
    from characters.models import Character

    campaign = campaign_with()
    narrator = narrator_of(campaign)
    game_session = services.game_session_create(campaign=campaign, actor=narrator, date=campaign.created_at.date())
    services.game_session_open(game_session=game_session, actor=narrator)
    jim = Character.objects.create(campaign=campaign, name="Jim")
    event = services.event_append(
        campaign=campaign, kind="note", actor=narrator, payload={"text": "x"}, characters=[jim],
        visibility=Visibility.NARRATORS,
    )  # fmt: skip
    event.refresh_from_db()
    assert event.game_session == game_session
    assert event.actor == narrator
    assert list(event.characters.all()) == [jim]
    assert event.game_time == campaign.game_clock
    assert event.visibility == Visibility.NARRATORS
    assert event.created_at is not None


def test_a_private_event_needs_its_recipient() -> None:
    campaign = campaign_with()
    with pytest.raises(ValueError):
        services.event_append(campaign=campaign, kind="note", visibility=Visibility.PLAYER)
    assert not Event.objects.filter(campaign=campaign).exclude(kind__startswith="campaign.").exists()


def test_an_append_leaves_the_events_constraints_to_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every use case appends an Event: Django's model validation would work out each constraint's condition in
    Python (about 1.5 ms of a draw POST's 10), for what the database holds anyway (and the one on a private Event's
    recipient is checked first, just above). The fields themselves are still checked."""
    from django.core.exceptions import ValidationError
    from django.db.models import CheckConstraint, UniqueConstraint

    checked: list[str] = []
    for kind in (CheckConstraint, UniqueConstraint):
        real = kind.validate

        def noted(self, *args, real=real, **kwargs):  # type: ignore[no-untyped-def]
            checked.append(self.name)
            return real(self, *args, **kwargs)

        monkeypatch.setattr(kind, "validate", noted)
    campaign = campaign_with()
    services.event_append(campaign=campaign, kind="note", actor=narrator_of(campaign), payload={"text": "x"})
    assert checked == []
    with pytest.raises(ValidationError):
        services.event_append(campaign=campaign, kind="x" * 200, actor=narrator_of(campaign))


def test_a_correction_points_at_the_original_which_stays_unchanged() -> None:
    campaign = campaign_with()
    narrator_membership = membership(campaign, narrator_of(campaign))
    original = services.note_write(membership=narrator_membership, text="Jim perd 3 Atouts.")
    fix = services.event_correct(membership=narrator_membership, event=original, reason="C'était 2 Atouts.")
    assert fix.corrects == original
    assert fix.kind == "correction"
    assert fix.payload["reason"] == "C'était 2 Atouts."
    original.refresh_from_db()
    assert original.payload["text"] == "Jim perd 3 Atouts."
    assert list(original.corrections.all()) == [fix]
