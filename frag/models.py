"""Frag games: a config, a seed and the list of actions; the snapshot is a cache (design.md, rule 4)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class GameStatus(models.TextChoices):
    ACTIVE = "active", _("In progress")
    FINISHED = "finished", _("Finished")


class BotKind(models.TextChoices):
    NONE = "", _("Person")
    HEURISTIC = "heuristic", _("Bot (heuristic)")
    RANDOM = "random", _("Bot (random)")
    SEARCH = "search", _("Bot (search: strongest, thinks up to a second per action)")


class Game(models.Model):
    map_name = models.CharField(_("map"), max_length=40)
    config = models.JSONField(_("configuration"))
    seed = models.BigIntegerField(editable=False)
    snapshot = models.JSONField(_("snapshot"), help_text=_("A cache: replaying the steps rebuilds it."))
    status = models.CharField(_("status"), max_length=12, choices=GameStatus.choices, default=GameStatus.ACTIVE)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Bumped by every accepted action: a click made on an older page is refused, never applied twice.
    version = models.PositiveIntegerField(default=1, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    # Optional: the campaign whose log records the game's start and result.
    campaign = models.ForeignKey(
        "campaigns.Campaign",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="frag_games",
        verbose_name=_("campaign"),
    )
    # No forced click (issue 28): a prompt with one possible answer (« Lancer 3 dés de mouvement » with no card to
    # play first) plays itself, and a turn with nothing left to do but end it ends itself. Each is the table's choice.
    auto_single_answer = models.BooleanField(
        _("play a prompt with one possible answer by itself"),
        default=True,
        help_text=_("For example the movement roll when no card could change it."),
    )
    auto_end_turn = models.BooleanField(_("end a turn with nothing left to do by itself"), default=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("Frag game")
        verbose_name_plural = _("Frag games")
        ordering = ["-updated_at", "-pk"]

    def __str__(self) -> str:
        return _("Frag game #%(number)s") % {"number": self.pk}

    def get_absolute_url(self) -> str:
        return reverse("frag:game", args=[self.pk])


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="frag_seats"
    )
    bot = models.CharField(_("bot"), max_length=12, choices=BotKind.choices, blank=True, default=BotKind.NONE)
    name = models.CharField(_("name"), max_length=40)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="frag_seat_number_unique"),
            models.CheckConstraint(
                condition=~(models.Q(bot="") & models.Q(user__isnull=True)), name="frag_seat_has_a_player"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)


class Step(models.Model):
    """One accepted action and everything it produced (every die, every card). Append-only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="steps")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    action = models.JSONField()
    events = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("step")
        verbose_name_plural = _("steps")
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="frag_step_number_unique")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.number} {self.action.get('type')}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # A game is its actions: a step is written once and never changed (corrections are new games).
        if not self._state.adding:
            raise ValueError("Frag steps are append-only: an existing step cannot be saved again.")
        super().save(*args, **kwargs)
