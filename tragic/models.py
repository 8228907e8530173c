"""TRAGIC persistence: decks and event-sourced games (config + seed + actions; the snapshot is a cache)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class CopyMode(models.TextChoices):
    SINGLETON = "singleton", _("Singleton")
    DUO = "duo", _("Duo")
    TRIPLETTE = "triplette", _("Triplette")
    QUAD = "quad", _("Quad")


class Profile(models.TextChoices):
    WIKI = "wiki", _("Wiki revision (April 2023)")
    BOOKLET = "booklet", _("Booklet, second edition")


class Deck(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tragic_decks")
    name = models.CharField(_("name"), max_length=80)
    copy_mode = models.CharField(_("copy mode"), max_length=16, choices=CopyMode.choices, default=CopyMode.QUAD)
    cards = models.JSONField(_("cards"), default=list, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("deck")
        verbose_name_plural = _("decks")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tragic:deck", args=[self.pk])


class GameStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting for an opponent")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")
    # Cancelled at setup while a player never chose their Compétences: no winner (docs/rules-decisions.md).
    ABANDONED = "abandoned", _("Cancelled")


class Game(models.Model):
    config = models.JSONField(default=dict)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=16, choices=GameStatus.choices, default=GameStatus.WAITING)
    # Every accepted action, in order: the game itself. ``snapshot`` only saves replaying them.
    actions = models.JSONField(default=list, blank=True)
    snapshot = models.JSONField(null=True, blank=True)
    # The engine's events per accepted action, kept for the game log (a cache: a replay rebuilds it).
    log = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=0)
    invite_token = models.CharField(max_length=43, unique=True, null=True, blank=True, editable=False)
    reaction_seconds = models.PositiveSmallIntegerField(_("time to react (seconds)"), default=60)
    # « Deux joueurs » ; the wiki seats three or four, playing clockwise.
    seats_wanted = models.PositiveSmallIntegerField(_("players"), default=2)
    # « Si la partie est chronométrée » : minutes from the start; empty for no timer.
    timer_minutes = models.PositiveSmallIntegerField(_("timer (minutes)"), null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Optional: the campaign whose table log records the duel's start and result.
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.SET_NULL, null=True, blank=True, related_name="tragic_games"
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_action_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("TRAGIC game")
        verbose_name_plural = _("TRAGIC games")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"TRAGIC #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("tragic:game", args=[self.pk])


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    bot = models.CharField(max_length=16, blank=True)
    deck_name = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="tragic_one_player_per_seat"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(bot=""), name="tragic_seat_user_or_bot"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} · {self.index + 1}"

    @property
    def label(self) -> str:
        if self.user is not None:
            return self.user.username
        from tragic.presenters import bot_label  # the presenters read the card pool: not at model import

        return bot_label(self.bot)
