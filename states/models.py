"""Savage-style states persisted: per-campaign options, per-character state, fatigue, the round tracker.

Persistence only: the rules live in ``states/rules`` and the changes in ``states/services/``.
The tables keep the names they had when these models lived in ``characters`` (``Meta.db_table``):
the move to this app changed no row (``states/migrations/0001_initial.py``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from states.rules.ranks import DEFAULT_RANK_DICE


def default_rank_dice() -> dict[str, str]:
    return {str(k): v for k, v in DEFAULT_RANK_DICE.items()}


class SavageSettings(models.Model):
    """The Savage-style options of one campaign, created on demand."""

    campaign = models.OneToOneField("campaigns.Campaign", on_delete=models.CASCADE, related_name="savage_settings")
    revers_to_wounds = models.BooleanField(
        _("physical Revers become wounds"),
        # Off until the narrator opts in: MicroFudge's own Revers stay the default currency of harm.
        default=False,
        help_text=_("Revers 1 wound, serious Revers 2, decisive Revers 3 and the incapacitation roll."),
    )
    weigh_on_cecj = models.BooleanField(
        _("states weigh on MicroFudge Tests and draws"),
        # On by default: a table that marks a wound expects it to hurt (docs/rules-decisions.md, « The bridge »).
        default=True,
        help_text=_(
            "Each wound and fatigue level is −1 rank in a Test and −1 card in a draw; Shaken allows no attack; "
            "État critique and unconsciousness keep the character out of Tests and draws."
        ),
    )
    rank_dice = models.JSONField(_("trait dice by rank"), default=default_rank_dice)
    # Which of the campaign's Aptitudes each Savage attribute's rank is read from ({"vigor": "force"}); an
    # attribute left out is read from the Aptitude bearing its name (Vigueur, Présence, Habileté, Esprit).
    attribute_traits = models.JSONField(_("Aptitudes the Savage attributes are read from"), default=dict, blank=True)
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        db_table = "characters_savagesettings"
        verbose_name = _("Savage-style settings")
        verbose_name_plural = _("Savage-style settings")

    def __str__(self) -> str:
        return str(self.campaign)


class Injury(models.TextChoices):
    NONE = "", _("none")
    PERMANENT = "permanent", _("permanent injury")
    UNTIL_HEALED = "until_healed", _("injured until healed")
    DAY = "24h", _("injured for 24 hours")


class SavageState(models.Model):
    """What the state cards track on one character."""

    character = models.OneToOneField("characters.Character", on_delete=models.CASCADE, related_name="savage_state")
    wild_card = models.BooleanField(_("Wild Card"), default=True, help_text=_("Rolls the Wild Die; extras do not."))
    # Entered on the sheet; empty means derived from the MicroFudge rank through the campaign's mapping.
    vigor_die = models.CharField(_("Vigour die"), max_length=8, blank=True)
    spirit_die = models.CharField(_("Spirit die"), max_length=8, blank=True)
    agility_die = models.CharField(_("Agility die"), max_length=8, blank=True)
    smarts_die = models.CharField(_("Smarts die"), max_length=8, blank=True)
    base_pace = models.PositiveSmallIntegerField(_("Pace"), default=6)
    base_parry = models.PositiveSmallIntegerField(_("Parry"), default=2)
    shaken = models.BooleanField(_("Shaken"), default=False)
    wounds = models.PositiveSmallIntegerField(_("wounds"), default=0)
    incapacitated = models.BooleanField(_("Incapacitated"), default=False)
    incapacitation_roll_due = models.BooleanField(default=False)
    bleeding_out = models.BooleanField(_("Bleeding out"), default=False)
    # « Si les dégâts qui ont amené à l'hémorragie n'étaient pas létaux » the failure is unconsciousness.
    bleeding_lethal = models.BooleanField(_("lethal damage"), default=True)
    unconscious = models.BooleanField(_("unconscious"), default=False)
    unconscious_until = models.DateTimeField(null=True, blank=True)
    dead = models.BooleanField(_("dead"), default=False)
    injury = models.CharField(_("injury"), max_length=16, choices=Injury.choices, blank=True, default=Injury.NONE)
    injury_until = models.DateTimeField(null=True, blank=True)
    tokens = models.PositiveSmallIntegerField(_("Tokens"), default=0)
    tricked = models.BooleanField(_("tricked"), default=False)
    # The Shaken roll's « ne peut faire que des actions gratuites durant ce round », until the next turn.
    free_actions_only = models.BooleanField(_("free actions only"), default=False)
    # Défense totale: the Combat roll + 2 that replaces Parade when higher, until the next action.
    total_defence_total = models.SmallIntegerField(null=True, blank=True)
    situations = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        db_table = "characters_savagestate"
        verbose_name = _("Savage-style state")
        verbose_name_plural = _("Savage-style states")
        constraints = [
            models.CheckConstraint(condition=Q(wounds__lte=4), name="savage_at_most_four_wounds"),
        ]

    def __str__(self) -> str:
        return f"{self.character} · {self.wounds}"


class SavageFatigue(models.Model):
    """One fatigue source's levels on one character (``states/data/fatigue_sources.toml``)."""

    state = models.ForeignKey(SavageState, on_delete=models.CASCADE, related_name="fatigue_tracks")
    source = models.CharField(_("source"), max_length=32)
    levels = models.PositiveSmallIntegerField(default=0)
    critical = models.BooleanField(default=False)
    recovering_since = models.DateTimeField(null=True, blank=True)
    slow = models.BooleanField(default=False)
    accelerated = models.BooleanField(default=False)
    recovers_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    next_vigor_roll_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "characters_savagefatigue"
        verbose_name = _("fatigue")
        verbose_name_plural = _("fatigue")
        ordering = ["state", "source"]
        constraints = [models.UniqueConstraint(fields=["state", "source"], name="savage_one_track_per_source")]

    def __str__(self) -> str:
        return f"{self.state.character} · {self.source} {self.levels}"


class SavageRound(models.Model):
    """The round tracker of one campaign: the initiative deck and who acts when."""

    campaign = models.OneToOneField("campaigns.Campaign", on_delete=models.CASCADE, related_name="savage_round")
    active = models.BooleanField(default=False)
    number = models.PositiveIntegerField(default=0)
    participants = models.ManyToManyField("characters.Character", blank=True, related_name="+")
    draw_pile = models.JSONField(default=list, blank=True)
    cards = models.JSONField(default=dict, blank=True)  # character id (str) → card
    order = models.JSONField(default=list, blank=True)  # character ids, first to act first
    turn = models.PositiveSmallIntegerField(default=0)
    joker_dealt = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        db_table = "characters_savageround"
        verbose_name = _("round tracker")
        verbose_name_plural = _("round trackers")

    def __str__(self) -> str:
        return f"{self.campaign} · {self.number}"

    @property
    def current_character_id(self) -> int | None:
        if self.active and self.turn < len(self.order):
            return int(self.order[self.turn])
        return None
