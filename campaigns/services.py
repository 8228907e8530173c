"""Use cases of the campaign app. Each one is atomic, locks what it changes and logs one Event."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns import answer_position, event_subjects, hooks, selectors
from campaigns.live_announce import announce_on_commit
from campaigns.models import (
    Campaign,
    CampaignStream,
    Event,
    GameSession,
    Invitation,
    Membership,
    Role,
    SessionStatus,
    Visibility,
)
from core.errors import PermissionRefused, ServiceError, StaleState

CAMPAIGN_SETTING_FIELDS = (
    "name",
    "description",
    "creation_mode",
    "starting_atouts",
    "session_award",
    "savage_states",
    "revers_recovery_light_days",
    "revers_recovery_deep_days",
)


def event_append(
    *,
    campaign: Campaign,
    kind: str,
    payload: Mapping[str, Any] | None = None,
    actor: User | None = None,
    game_session: GameSession | None | bool = True,
    characters: Iterable[Any] = (),
    visibility: str = Visibility.EVERYONE,
    recipient: User | None = None,
    corrects: Event | None = None,
) -> Event:
    """Append one Event to the campaign's log and announce it after commit.

    ``game_session=True`` (the default) files the event under the campaign's open session, if any.
    The in-game time is the campaign's clock as the caller holds it.
    """
    if not transaction.get_connection().in_atomic_block:
        # The position and the event must commit together, or a page could see a hole that never fills.
        with transaction.atomic():
            return event_append(
                campaign=campaign, kind=kind, payload=payload, actor=actor, game_session=game_session,
                characters=characters, visibility=visibility, recipient=recipient, corrects=corrects,
            )  # fmt: skip
    if game_session is True:
        game_session = selectors.open_session(campaign)
    if visibility == Visibility.PLAYER and recipient is None:
        raise ValueError("A private event needs its recipient.")
    event = Event(
        campaign=campaign,
        kind=kind,
        payload=dict(payload or {}),
        actor=actor,
        game_session=game_session or None,
        visibility=visibility,
        recipient=recipient if visibility == Visibility.PLAYER else None,
        corrects=corrects,
        game_time=campaign.game_clock,
    )
    # The position is unique by construction; the rows the Event points to were handed over loaded (a lookup each
    # would only prove they exist); a private Event's recipient is checked just above. The fields alone are checked:
    # Django checks a constraint's condition by asking the database (a query per append), and the table's constraints
    # hold whatever Python checks (the one on a private Event's recipient is checked above, and the database has it).
    event.full_clean(
        exclude=["characters", "position", "campaign", "actor", "game_session", "corrects", "recipient"],
        validate_unique=False,
        validate_constraints=False,
    )
    position = stream_next_position(campaign_id=campaign.pk)  # last: the stream row stays locked till commit
    event.position = position
    event.save()
    characters = list(characters)
    if characters:
        # A new Event has no links yet: one insert, not ``set``'s read of the links first.
        through = Event.characters.through
        through.objects.bulk_create(
            [through(event_id=event.pk, character_id=getattr(c, "pk", c)) for c in dict.fromkeys(characters)]
        )
    # What the event changed, at its position: the versions regions are kept by (core.regions).
    named = [getattr(c, "pk", c) for c in characters]
    touched = event_subjects.subjects_of(kind, campaign.pk, event.payload, named)
    event_subjects.write_versions(campaign.pk, touched, position)
    announce_on_commit(event)
    # The request's answer shows this event once it has committed (X-Live-Position).
    answer_position.note_on_commit(answer_position.campaign_stream(campaign.pk), position, touched)
    return event


def stream_next_position(*, campaign_id: int) -> int:
    """Take the campaign's next live position; the stream row stays locked until this transaction ends,
    so positions follow commit order (see CampaignStream). One statement on SQLite and PostgreSQL."""
    table = CampaignStream._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (campaign_id, position) VALUES (%s, 1) "  # the table name is ours, the value a parameter
            f"ON CONFLICT (campaign_id) DO UPDATE SET position = {table}.position + 1 RETURNING position",
            [campaign_id],
        )
        return int(cursor.fetchone()[0])


def _lock_campaign(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


@transaction.atomic
def campaign_create(*, owner: User, data: Mapping[str, Any]) -> Campaign:
    campaign = Campaign(created_by=owner, **{k: v for k, v in data.items() if k in CAMPAIGN_SETTING_FIELDS})
    campaign.full_clean()
    campaign.save()
    Membership.objects.create(campaign=campaign, user=owner, role=Role.NARRATOR)
    event_append(
        campaign=campaign,
        kind="campaign.created",
        actor=owner,
        payload={"name": campaign.name, "settings": {f: getattr(campaign, f) for f in CAMPAIGN_SETTING_FIELDS}},
    )
    return campaign


@transaction.atomic
def campaign_settings_update(
    *, campaign: Campaign, actor: User, data: Mapping[str, Any], expected_version: int
) -> Campaign:
    """Change some of the campaign's settings (a section of the settings page edits its own fields).

    A form drawn before another narrator's save is refused when it would change anything, and not when it changes
    nothing (a section saved as it was shown): each section is versioned by the campaign row it edits.
    """
    campaign = _lock_campaign(campaign)
    changed: dict[str, list[Any]] = {}
    for field in CAMPAIGN_SETTING_FIELDS:
        if field in data and getattr(campaign, field) != data[field]:
            changed[field] = [getattr(campaign, field), data[field]]
            setattr(campaign, field, data[field])
    if not changed:
        return campaign
    if campaign.version != expected_version:
        raise StaleState(_("Someone changed these settings first. Reload the page and try again."))
    campaign.version += 1
    campaign.full_clean()
    campaign.save()
    event_append(
        campaign=campaign,
        kind="campaign.settings_changed",
        actor=actor,
        payload={"changed": changed},
        visibility=Visibility.EVERYONE,
    )
    return campaign


@transaction.atomic
def invitation_create(*, campaign: Campaign, actor: User, role: str, now: dt.datetime | None = None) -> Invitation:
    now = now or timezone.now()
    invitation = Invitation.objects.create(
        campaign=campaign,
        token=secrets.token_urlsafe(32),
        role=role,
        created_by=actor,
        expires_at=now + dt.timedelta(hours=settings.INVITATION_TTL_HOURS),
    )
    event_append(
        campaign=campaign,
        kind="invitation.created",
        actor=actor,
        payload={"role": role, "expires_at": invitation.expires_at.isoformat()},
        visibility=Visibility.NARRATORS,
    )
    return invitation


@transaction.atomic
def invitation_revoke(*, campaign: Campaign, actor: User, pk: int) -> None:
    """Withdraw an unused link: it then reads as "not valid" to whoever opens it."""
    invitation = Invitation.objects.select_for_update().filter(campaign=campaign, pk=pk).first()
    if invitation is None or invitation.used_at is not None:
        raise ServiceError(_("This invitation no longer exists or has been used."))
    role = invitation.role
    invitation.delete()
    event_append(
        campaign=campaign, kind="invitation.revoked", actor=actor, payload={"role": role},
        visibility=Visibility.NARRATORS,
    )  # fmt: skip


def invitation_problem(invitation: Invitation | None, now: dt.datetime) -> str:
    """Why this invitation cannot be used now, in the user's language; empty when it can."""
    if invitation is None:
        return _("This invitation link is not valid. Ask your narrator for a new one.")
    if invitation.used_at is not None:
        return _("This invitation has already been used. Each link works once: ask your narrator for a new one.")
    if invitation.is_expired(now):
        return _("This invitation expired on %(date)s. Ask your narrator for a new one.") % {
            "date": formats.date_format(timezone.localtime(invitation.expires_at), "SHORT_DATETIME_FORMAT")
        }
    return ""


@transaction.atomic
def invitation_accept(*, token: str, user: User, now: dt.datetime | None = None) -> Membership:
    """Join a campaign through a single-use, expiring link."""
    now = now or timezone.now()
    invitation = (
        Invitation.objects.select_for_update(of=("self",)).select_related("campaign").filter(token=token).first()
    )
    problem = invitation_problem(invitation, now)
    if problem or invitation is None:
        raise ServiceError(problem)
    campaign = invitation.campaign
    if Membership.objects.filter(campaign=campaign, user=user).exists():
        raise ServiceError(_("You are already a member of this campaign."))
    try:
        with transaction.atomic():
            membership = Membership.objects.create(campaign=campaign, user=user, role=invitation.role)
    except IntegrityError as exc:
        raise ServiceError(_("You are already a member of this campaign.")) from exc
    invitation.used_at = now
    invitation.used_by = user
    invitation.save(update_fields=["used_at", "used_by"])
    event_append(
        campaign=campaign,
        kind="member.joined",
        actor=user,
        payload={"username": user.username, "role": membership.role},
    )
    return membership


@transaction.atomic
def membership_role_set(*, membership: Membership, actor: User, role: str) -> Membership:
    membership = (
        Membership.objects.select_for_update(of=("self",)).select_related("user", "campaign").get(pk=membership.pk)
    )
    if role not in Role.values:
        raise ServiceError(_("Choose narrator or player."))
    if membership.role == role:
        return membership
    if role != Role.NARRATOR and not (
        Membership.objects.filter(campaign=membership.campaign, role=Role.NARRATOR).exclude(pk=membership.pk).exists()
    ):
        raise ServiceError(_("A campaign needs at least one narrator."))
    membership.role = role
    membership.save(update_fields=["role"])
    event_append(
        campaign=membership.campaign,
        kind="member.role_changed",
        actor=actor,
        payload={"username": membership.user.username, "role": role},
    )
    return membership


@transaction.atomic
def game_session_create(*, campaign: Campaign, actor: User, date: dt.date, title: str = "") -> GameSession:
    campaign = _lock_campaign(campaign)
    number = (campaign.game_sessions.aggregate(m=Max("number"))["m"] or 0) + 1
    game_session = GameSession(campaign=campaign, number=number, date=date, title=title)
    game_session.full_clean()
    game_session.save()
    event_append(
        campaign=campaign,
        kind="session.created",
        actor=actor,
        game_session=game_session,
        payload={"number": number, "date": date.isoformat(), "title": title},
    )
    return game_session


@transaction.atomic
def game_session_open(*, game_session: GameSession, actor: User, now: dt.datetime | None = None) -> GameSession:
    campaign = _lock_campaign(game_session.campaign)
    game_session = GameSession.objects.select_for_update().get(pk=game_session.pk)
    if game_session.status != SessionStatus.PLANNED:
        raise ServiceError(_("Only a planned session can be opened."))
    if campaign.game_sessions.filter(status=SessionStatus.OPEN).exists():
        raise ServiceError(_("Another session is open. Close it first."))
    game_session.status = SessionStatus.OPEN
    game_session.opened_at = now or timezone.now()
    game_session.save(update_fields=["status", "opened_at"])
    event_append(
        campaign=campaign,
        kind="session.opened",
        actor=actor,
        game_session=game_session,
        payload={"number": game_session.number},
    )
    return game_session


@transaction.atomic
def game_session_close(*, game_session: GameSession, actor: User, now: dt.datetime | None = None) -> GameSession:
    """Close the session and run the end-of-session step (experience Atouts and the like)."""
    campaign = _lock_campaign(game_session.campaign)
    game_session = GameSession.objects.select_for_update().get(pk=game_session.pk)
    if game_session.status != SessionStatus.OPEN:
        raise ServiceError(_("Only an open session can be closed."))
    game_session.campaign = campaign
    hooks.run_session_close(game_session, actor)
    game_session.status = SessionStatus.CLOSED
    game_session.closed_at = now or timezone.now()
    game_session.save(update_fields=["status", "closed_at"])
    event_append(
        campaign=campaign,
        kind="session.closed",
        actor=actor,
        game_session=game_session,
        payload={"number": game_session.number},
    )
    return game_session


def duration_label(delta: dt.timedelta) -> str:
    """« 1 jour 6 h » / "1 day 6 h", in the reader's language (the log calls it at read time)."""
    minutes = int(delta.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = []
    if days:
        parts.append(ngettext("%(n)d day", "%(n)d days", days) % {"n": days})
    if hours:
        parts.append(_("%(n)d h") % {"n": hours})
    if minutes or not parts:
        parts.append(_("%(n)d min") % {"n": minutes})
    return " ".join(parts)


@transaction.atomic
def clock_advance(
    *, campaign: Campaign, actor: User, delta: dt.timedelta, reason: str = "", expected: dt.datetime | None = None
) -> Campaign:
    """Move the in-game clock forward; healing and recovery hooks run on the elapsed time."""
    if delta <= dt.timedelta(0):
        raise ServiceError(_("The game clock only moves forward."))
    campaign = _lock_campaign(campaign)
    if expected is not None and campaign.game_clock != expected:
        raise StaleState(_("Someone moved the game clock first. Check the new time and try again."))
    old = campaign.game_clock
    campaign.game_clock = old + delta
    campaign.save(update_fields=["game_clock"])
    event_append(
        campaign=campaign,
        kind="clock.advanced",
        actor=actor,
        payload={
            "from": old.isoformat(),
            "to": campaign.game_clock.isoformat(),
            "minutes": int(delta.total_seconds() // 60),
            "duration_label": duration_label(delta),
            "reason": reason,
        },
    )
    hooks.run_clock_advance(campaign, old, campaign.game_clock, actor)
    return campaign


@transaction.atomic
def note_write(
    *,
    membership: Membership,
    text: str,
    private: bool = False,
    characters: Iterable[Any] = (),
) -> Event:
    """A note in the log. A private note is seen by its author and the narrators only."""
    text = text.strip()
    if not text:
        raise ServiceError(_("A note cannot be empty."))
    campaign = membership.campaign
    if private and membership.is_narrator:
        visibility, recipient = Visibility.NARRATORS, None
    elif private:
        visibility, recipient = Visibility.PLAYER, membership.user
    else:
        visibility, recipient = Visibility.EVERYONE, None
    return event_append(
        campaign=campaign,
        kind="note",
        actor=membership.user,
        payload={"text": text},
        characters=characters,
        visibility=visibility,
        recipient=recipient,
    )


@transaction.atomic
def event_correct(*, membership: Membership, event: Event, reason: str) -> Event:
    """Correct a mistake with a new event that points at it; the original stays as written."""
    reason = reason.strip()
    if not reason:
        raise ServiceError(_("Say what was wrong: a correction needs its reason."))
    if event.campaign_id != membership.campaign_id:
        raise PermissionRefused(_("This entry is not in this campaign."))
    if not membership.is_narrator and event.actor_id != membership.user_id:
        raise PermissionRefused(_("Only a narrator or the entry's author can correct it."))
    if event.kind == "correction":
        raise ServiceError(_("Correct the original entry, not a correction."))
    return event_append(
        campaign=membership.campaign,
        kind="correction",
        actor=membership.user,
        payload={"reason": reason, "corrected_kind": event.kind},
        characters=list(event.characters.all()),
        visibility=event.visibility,
        recipient=event.recipient,
        corrects=event,
        game_session=event.game_session,
    )


def public_log_publish(*, campaign: Campaign, actor: User) -> Campaign:
    return _public_log_set(campaign=campaign, actor=actor, published=True)


def public_log_unpublish(*, campaign: Campaign, actor: User) -> Campaign:
    return _public_log_set(campaign=campaign, actor=actor, published=False)


@transaction.atomic
def _public_log_set(*, campaign: Campaign, actor: User, published: bool) -> Campaign:
    """Publish a read-only link to the public part of the log, or withdraw it (the old link dies)."""
    campaign = _lock_campaign(campaign)
    if bool(campaign.public_log_token) == published:
        return campaign
    campaign.public_log_token = secrets.token_urlsafe(32) if published else None
    campaign.save(update_fields=["public_log_token"])
    kind = "log.published" if published else "log.unpublished"
    event_append(campaign=campaign, kind=kind, actor=actor, visibility=Visibility.NARRATORS)
    return campaign
