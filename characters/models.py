"""Characters of a campaign and their sheets: traits on the ladder, the Atout ledger, Revers and equipment.

Persistence only: the rules live in ``characters.rules``, the use cases in ``characters.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from characters.rules.atouts import AtoutUse, GainReason, Pool
from characters.rules.ladder import HUMAN_MAXIMUM
from characters.rules.traits import TraitKind, default_traits


class CharacterKind(models.TextChoices):
    PC = "pc", _("PC")
    NPC = "npc", _("NPC")


class Character(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="characters")
    # The player who runs the character; empty for narrator-run NPCs, set for an ally handed to a player.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="characters"
    )
    kind = models.CharField(_("kind"), max_length=3, choices=CharacterKind.choices, default=CharacterKind.PC)
    name = models.CharField(_("name"), max_length=120)
    concept = models.CharField(_("concept"), max_length=240, blank=True)
    goal = models.CharField(_("goal"), max_length=240, blank=True)
    narrator_notes = models.TextField(_("narrator's notes"), blank=True)
    # Cached balances of the Atout ledger (AtoutEntry is the truth; services keep both in step).
    atouts_creation = models.PositiveIntegerField(_("creation Atouts"), default=0, editable=False)
    atouts_experience = models.PositiveIntegerField(_("experience Atouts"), default=0, editable=False)
    # The narrator's figure for this character at the next session close (empty: the campaign's award).
    award_adjustment = models.PositiveSmallIntegerField(_("next session award"), null=True, blank=True)
    # NPCs: « un seul Revers ou deux Revers seulement sont suffisants pour mettre un PNJ hors de combat »
    out_after_revers = models.PositiveSmallIntegerField(
        _("out of action after"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(2)]
    )
    # Vigour ranks lost to the optional psychic fatigue rule.
    vigour_lost = models.PositiveSmallIntegerField(default=0, editable=False)
    # Game seconds since the last psychic power use (rest), for the clock's recovery of Potentiel and Vigour.
    rested_seconds = models.PositiveIntegerField(default=0, editable=False)
    # The healing power of Conscience running (``psychic.healing_powers()``: "regeneration", "fast_healing";
    # empty when none), game seconds into its current (paid) cycle, and the Potentiel points spent on it,
    # which no rest gives back while it runs.
    healing_power = models.CharField(max_length=32, blank=True, default="", editable=False)
    healing_seconds = models.PositiveIntegerField(default=0, editable=False)
    healing_points = models.PositiveSmallIntegerField(default=0, editable=False)
    # The campaign's creation mode when the character was made: its raises keep that mode's prices after the
    # narrator switches the campaign's mode (empty for characters made before this was recorded: the campaign's).
    creation_mode = models.CharField(_("creation mode"), max_length=16, blank=True, default="", editable=False)
    # Appendix 8 scales: [{"value": 1, "domains": ["size", "combat"]}]
    scales = models.JSONField(_("scales"), default=list, blank=True)
    # A running Conscience boost (« Endurance accrue », « Coordination accrue »): power, target (trait code or
    # "armour"), amount and draws left; empty when none runs (characters.boosts).
    power_boost = models.JSONField(default=dict, blank=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        verbose_name = _("character")
        verbose_name_plural = _("characters")
        ordering = ["campaign", "kind", "name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("characters:detail", args=[self.pk])

    @property
    def atout_balance(self) -> int:
        return self.atouts_creation + self.atouts_experience


def default_trait_list() -> list[dict[str, object]]:
    return [trait.to_dict() for trait in default_traits()]


class Progression(models.TextChoices):
    ONE_PER_RANK = "one_per_rank", _("One Atout per rank")
    STREAMLINED = "streamlined", _("Streamlined table (3/3/3/6/12/24, tripled for Aptitudes)")


class CharacterRules(models.Model):
    """The character options of one campaign, created on demand with the seed's defaults."""

    campaign = models.OneToOneField("campaigns.Campaign", on_delete=models.CASCADE, related_name="character_rules")
    trait_list = models.JSONField(_("trait list"), default=default_trait_list)
    players_name_traits = models.BooleanField(
        _("players may name their own traits"),
        default=False,
        help_text=_("Always on in free-style campaigns; the narrator can veto a trait."),
    )
    human_maximum = models.PositiveSmallIntegerField(
        _("highest rank without the narrator's leave"), default=HUMAN_MAXIMUM, validators=[MaxValueValidator(20)]
    )
    progression = models.CharField(
        _("raising a trait between sessions costs"), max_length=16, choices=Progression.choices, blank=True,
        help_text=_("Empty: the streamlined table in streamlined campaigns, one Atout per rank otherwise."),
    )  # fmt: skip
    streamlined_atouts = models.PositiveSmallIntegerField(
        _("Atouts for streamlined creation"), default=15, help_text=_("15 by the rules; 21 for seasoned characters.")
    )
    first_aid_lowers_wound = models.BooleanField(_("successful first aid lowers the wound one step"), default=False)
    psychic_fatigue = models.BooleanField(_("psychic powers tire (Vigour −1 rank per use)"), default=False)
    potential_rest_hours = models.PositiveSmallIntegerField(
        _("Potential comes back after this many game hours without a use"), default=8,
        validators=[MaxValueValidator(168)],
        help_text=_("“a good night's rest”; 0: only the “night's rest” button gives it back."),
    )  # fmt: skip
    npc_out_after = models.PositiveSmallIntegerField(
        _("NPCs are out of action after"), default=2, validators=[MinValueValidator(1), MaxValueValidator(2)]
    )
    single_atout_help = models.BooleanField(_("two helpers may each spend one Atout to help"), default=False)
    harm_weighs_everywhere = models.BooleanField(
        _("deep wounds, wounds and fatigue weigh on every roll, social and mental too"), default=True,
        help_text=_("“Les Revers s'appliquent, en principe, à tous les types d'action”. Off: on physical rolls only "
                    "(“une Blessure peut ainsi n'avoir aucun effet sur un jet de nature sociale”)."),
    )  # fmt: skip
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        verbose_name = _("character rules")
        verbose_name_plural = _("character rules")

    def __str__(self) -> str:
        return str(self.campaign)


class CharacterTrait(models.Model):
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="traits")
    code = models.CharField(max_length=40)
    kind = models.CharField(_("kind"), max_length=16, choices=[(k.value, k.value) for k in TraitKind])
    # Names are copied so that a player-named trait (free style) reads the same after list edits.
    name_fr = models.CharField(max_length=80)
    name_en = models.CharField(max_length=80)
    rank = models.SmallIntegerField(_("rank"))
    custom = models.BooleanField(default=False)
    # Psychic domains: Potentiel points used since the last night's rest.
    potential_used = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = _("trait")
        verbose_name_plural = _("traits")
        ordering = ["character", "kind", "name_fr"]
        constraints = [models.UniqueConstraint(fields=["character", "code"], name="one_trait_per_code")]

    def __str__(self) -> str:
        return f"{self.name_fr} {self.rank}"


class PowerFeed(models.Model):
    """« Le Narrateur peut également décider qu'une Aptitude, un autre Champ d'expertise ou un autre Domaine
    de pouvoir peut servir à alimenter un Domaine de pouvoir donné » (VI): a trait the narrator lets feed
    one power domain of one character, and the ranks it has lost to it since the last rest."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="power_feeds")
    domain = models.CharField(_("power domain"), max_length=40)
    trait = models.CharField(_("trait"), max_length=40)
    ranks_lost = models.PositiveSmallIntegerField(default=0, editable=False)
    # A revoked feed stays until rest while the trait is still lowered.
    allowed = models.BooleanField(default=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("power feed")
        verbose_name_plural = _("power feeds")
        ordering = ["character", "domain", "trait"]
        constraints = [models.UniqueConstraint(fields=["character", "domain", "trait"], name="one_feed_per_pair")]

    def __str__(self) -> str:
        return f"{self.character} {self.trait} → {self.domain}"


class AtoutEntry(models.Model):
    """One line of a character's Atout ledger: a gain (delta > 0) or a spend (delta < 0)."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="atout_entries")
    delta = models.SmallIntegerField()
    pool = models.CharField(max_length=12, choices=[(p.value, p.value) for p in Pool])
    use = models.CharField(max_length=32, blank=True, choices=[(u.value, u.value) for u in AtoutUse])
    reason = models.CharField(max_length=32, blank=True, choices=[(r.value, r.value) for r in GainReason])
    justification = models.TextField(blank=True)
    context = models.JSONField(default=dict, blank=True)
    game_session = models.ForeignKey(
        "campaigns.GameSession", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    refunds = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True, related_name="refunded_by")
    # A spend split over both pools is written as two entries sharing a group.
    group = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("Atout entry")
        verbose_name_plural = _("Atout entries")
        ordering = ["character", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(delta=0), name="atout_entry_not_zero"),
            models.CheckConstraint(condition=Q(delta__gt=0) | ~Q(use=""), name="atout_spend_has_use"),
        ]

    def __str__(self) -> str:
        return f"{self.character} {self.delta:+d} {self.use or self.reason}"


class ReversDomain(models.TextChoices):
    PHYSICAL = "physical", _("Physical")
    SOCIAL = "social", _("Social")
    MENTAL = "mental", _("Mental")
    NAMED = "named", _("Named")


class ReversNature(models.TextChoices):
    BLUNT = "blunt", _("Blunt or social (heals by the day)")
    DEEP = "deep", _("Deep wound (heals by the week)")


class Revers(models.Model):
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="revers")
    domain = models.CharField(_("domain"), max_length=12, choices=ReversDomain.choices)
    domain_name = models.CharField(_("named domain"), max_length=60, blank=True)
    severity = models.PositiveSmallIntegerField(_("severity"), validators=[MaxValueValidator(3)])
    initial_severity = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(3)])
    nature = models.CharField(_("healing"), max_length=8, choices=ReversNature.choices, default=ReversNature.BLUNT)
    source = models.CharField(_("source"), max_length=200, blank=True)
    payload = models.JSONField(default=dict, blank=True)
    stabilised = models.BooleanField(_("stabilised"), default=False)
    # Game time already counted toward the next step of recovery.
    recovery_seconds = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    healed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("Revers")
        verbose_name_plural = _("Revers")
        ordering = ["character", "-severity", "pk"]

    def __str__(self) -> str:
        return f"{self.character} {self.domain} {self.severity}"

    @property
    def domain_key(self) -> str:
        return self.domain_name if self.domain == ReversDomain.NAMED else self.domain


class EquipmentCategory(models.TextChoices):
    GEAR = "gear", _("Gear")
    WEAPON = "weapon", _("Weapon")
    ARMOUR = "armour", _("Armour")
    SHIELD = "shield", _("Shield")
    VEHICLE = "vehicle", _("Vehicle")


class EraChoice(models.IntegerChoices):
    MEDIEVAL = 0, _("Medieval")
    STEAM = 1, _("Steam")
    MODERN = 2, _("Modern")
    FUTURE = 3, _("Future")


class Equipment(models.Model):
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="equipment")
    category = models.CharField(_("category"), max_length=8, choices=EquipmentCategory.choices)
    name = models.CharField(_("name"), max_length=120)
    # Gear quality −1…+2; weapon class 0…3; armour class 1…3 — one « bonus » column per item.
    bonus = models.SmallIntegerField(_("bonus"), default=0, validators=[MinValueValidator(-1), MaxValueValidator(3)])
    era = models.PositiveSmallIntegerField(_("era"), choices=EraChoice.choices, default=EraChoice.MODERN)
    firearm = models.BooleanField(_("firearm"), default=False)
    bulletproof = models.BooleanField(_("bulletproof"), default=False)
    vehicle_code = models.CharField(_("vehicle"), max_length=40, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("equipment")
        verbose_name_plural = _("equipment")
        ordering = ["character", "category", "pk"]

    def __str__(self) -> str:
        return self.name
