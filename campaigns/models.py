"""Campaigns, their members, game sessions and the append-only Event log."""

from __future__ import annotations

import datetime as dt
from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from campaigns.search_text import event_search_text


def default_game_clock() -> dt.datetime:
    # The in-game calendar starts on a round date; narrators move it to their setting's date.
    return dt.datetime(2000, 1, 1, 8, 0, tzinfo=dt.UTC)


class CreationMode(models.TextChoices):
    STANDARD = "standard", _("Standard")
    FREE = "free", _("Free style")
    STREAMLINED = "streamlined", _("Streamlined")


class Campaign(models.Model):
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    creation_mode = models.CharField(
        _("character creation"), max_length=16, choices=CreationMode.choices, default=CreationMode.STANDARD
    )
    starting_atouts = models.PositiveSmallIntegerField(
        _("starting Atouts"),
        default=11,
        help_text=_("By status: 6 ordinary, 11 competent, 16 heroic, 21 legendary; any other number is allowed."),
    )
    session_award = models.PositiveSmallIntegerField(_("Atouts awarded per game session"), default=1)
    savage_states = models.BooleanField(
        _("Savage-style states"), default=True, help_text=_("Shaken, wounds, fatigue and their rolls.")
    )
    revers_recovery_light_days = models.PositiveSmallIntegerField(
        _("days to heal one blunt or social Revers"), default=1
    )
    revers_recovery_deep_days = models.PositiveSmallIntegerField(_("days to heal one step of a deep wound"), default=7)
    game_clock = models.DateTimeField(_("in-game date and time"), default=default_game_clock)
    public_log_token = models.CharField(max_length=43, unique=True, null=True, blank=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # Bumped by every settings change so that a stale form is refused rather than overwriting.
    version = models.PositiveIntegerField(default=1, editable=False)
    # Bumped when a name the log shows changes (a character, a member, a session): kept log entries that
    # show the old name are then no longer looked up (campaigns.entry_region).
    log_epoch = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaigns:home", args=[self.pk])


class Role(models.TextChoices):
    NARRATOR = "narrator", _("Narrator")
    PLAYER = "player", _("Player")


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")]
        ordering = ["campaign", "role", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.campaign}"

    @property
    def is_narrator(self) -> bool:
        return self.role == Role.NARRATOR


class Invitation(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=43, unique=True, editable=False)
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.PLAYER)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The member of an imported campaign this link re-invites (campaigns.archive); empty for an ordinary link.
    addressed_to = models.CharField(_("addressed to"), max_length=150, blank=True, default="", editable=False)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.campaign} · {self.get_role_display()} · {self.expires_at:%Y-%m-%d %H:%M}"

    def get_absolute_url(self) -> str:
        return reverse("campaigns:invitation", args=[self.token])

    def is_expired(self, now: dt.datetime) -> bool:
        return now >= self.expires_at


class SessionStatus(models.TextChoices):
    PLANNED = "planned", pgettext_lazy("session status", "Planned")
    OPEN = "open", pgettext_lazy("session status", "Open")
    CLOSED = "closed", pgettext_lazy("session status", "Closed")


class GameSession(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="game_sessions")
    number = models.PositiveIntegerField(_("number"))
    title = models.CharField(_("title"), max_length=120, blank=True)
    date = models.DateField(_("date"))
    status = models.CharField(_("status"), max_length=8, choices=SessionStatus.choices, default=SessionStatus.PLANNED)
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game session")
        verbose_name_plural = _("game sessions")
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="session_number_unique"),
            models.UniqueConstraint(
                fields=["campaign"], condition=Q(status="open"), name="one_open_session_per_campaign"
            ),
        ]

    def __str__(self) -> str:
        label = _("Session %(number)s") % {"number": self.number}
        return f"{label} · {self.title}" if self.title else str(label)


class Visibility(models.TextChoices):
    EVERYONE = "everyone", _("Everyone")
    NARRATORS = "narrators", _("Narrators only")
    PLAYER = "player", _("Narrators and one player")


class AppendOnlyError(Exception):
    """The campaign log is append-only: a mistake is corrected by a new event."""


# What ``EventQuerySet.for_display`` joins to an event (``campaigns.event_reads`` reads the same, compiled once).
DISPLAY_JOINED = ("actor", "game_session")


class EventQuerySet(models.QuerySet["Event"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("Events are append-only: they cannot be updated.")

    def delete(self) -> NoReturn:
        raise AppendOnlyError("Events are append-only: they cannot be deleted.")

    def bulk_update(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("Events are append-only: they cannot be updated.")

    def visible_to(self, membership: Membership) -> EventQuerySet:
        """What one member may read: narrators everything, a player the public and their own private events."""
        if membership.is_narrator:
            return self.filter(campaign_id=membership.campaign_id)
        return self.filter(campaign_id=membership.campaign_id).filter(
            Q(visibility=Visibility.EVERYONE) | Q(visibility=Visibility.PLAYER, recipient_id=membership.user_id)
        )

    def public(self) -> EventQuerySet:
        return self.filter(visibility=Visibility.EVERYONE)

    def for_display(self) -> EventQuerySet:
        """What describers and exports read: the actor, the game session and the characters."""
        return self.select_related(*DISPLAY_JOINED).prefetch_related("characters")


# Every query starts as an EventQuerySet (append-only, visible_to, public, for_display), typed as one.
EventManager = models.Manager.from_queryset(EventQuerySet)


class Event(models.Model):
    """One thing that happened in a campaign. Append-only: written once by a service, never changed."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    game_session = models.ForeignKey(
        GameSession, on_delete=models.PROTECT, null=True, blank=True, related_name="events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    characters = models.ManyToManyField("characters.Character", blank=True, related_name="events")
    kind = models.CharField(_("kind"), max_length=48, db_index=True)
    payload = models.JSONField(default=dict, blank=True)
    visibility = models.CharField(max_length=12, choices=Visibility.choices, default=Visibility.EVERYONE)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    corrects = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True, related_name="corrections")
    # The event's place in its campaign's live stream (1, 2, 3…, in commit order; see CampaignStream).
    # Events written before streams existed have none and are never replayed to a page.
    position = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    game_time = models.DateTimeField(_("in-game time"))
    created_at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)
    # The folded words the log's search finds this event by (campaigns.search_text), filled in by save()
    # and indexed full-text by each database (migration 0005: SQLite FTS5, PostgreSQL GIN).
    search_text = models.TextField(default="", blank=True, editable=False)

    objects = EventManager()

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["campaign", "-created_at", "-id"], name="event_campaign_recent")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(visibility="player") | Q(recipient__isnull=False), name="private_event_has_recipient"
            ),
            models.UniqueConstraint(fields=["campaign", "position"], name="event_stream_position"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("Events are append-only: an existing event cannot be saved again.")
        self.search_text = event_search_text(self.payload)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("Events are append-only: they cannot be deleted.")


class LoggedKind(models.Model):
    """A kind of event a campaign's log holds, and for whom (its visibility, the recipient's id or 0).

    The log's kind filter lists the kinds a reader may see: a DISTINCT over every event of the campaign
    cost 130–200 ms at 50,000 events, on the first view after each new event. These few rows say the same.
    Written by the database itself on every insert into the log (triggers, migration 0006), so whatever
    writes an event keeps them; removed with the campaign.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=48)
    visibility = models.CharField(max_length=12, choices=Visibility.choices)
    reader = models.PositiveBigIntegerField(default=0)  # the private events' recipient, 0 for the others

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "kind", "visibility", "reader"], name="logged_kind_once")
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} {self.kind} {self.visibility} {self.reader}"


class CampaignStream(models.Model):
    """The last position handed out in a campaign's live stream.

    Each Event takes the next position by incrementing this row inside its own transaction, so the row
    stays locked until commit: positions are handed out in commit order with no holes, and a page that
    saw position 41 and then 43 knows for sure it missed 42. Only the live layer locks this row, and
    when an event is written (normally a service's last step), so it does not meet the services' own locks.
    """

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, primary_key=True, related_name="stream")
    position = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.campaign_id}@{self.position}"


class SubjectVersion(models.Model):
    """The stream position of the last Event that touched a subject (``character:12``, ``settings:3``): the
    version a region's declaration reads (``core.regions``). Written with the Event, in its transaction, by
    ``campaigns.services.event_append`` from ``campaigns.event_subjects``."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    subject = models.CharField(max_length=64, unique=True)
    position = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.subject}@{self.position}"
