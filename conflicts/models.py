"""The table's decks, scenes, conflict Sequences and their participants. Persistence only."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class SuccessRule(models.TextChoices):
    EVEN = "even", _("Method 1: even cards succeed")
    RED = "red", _("Method 2: red cards succeed")


class DeckLayout(models.TextChoices):
    TABLE = "table", _("One table deck of 40 cards for everyone")
    PAIRS_SHARED = "pairs_shared", _("Attack and defence decks: the narrator's pair and one pair shared by the players")
    PAIRS_PER_PLAYER = "pairs_per_player", _("Attack and defence decks: the narrator's pair and one pair per player")
    SMALL_DEFENCE = "small_defence", _("Method 2: a 52-card attack deck and a smaller 32-card defence deck")


class CoverMode(models.TextChoices):
    ATTACKER = "attacker", _("Cover takes cards from the attacker")
    DEFENCE = "defence", _("Cover gives defence cards to the target")


class TableSettings(models.Model):
    """How this campaign's table draws cards. Created on demand with method 1 and one table deck."""

    campaign = models.OneToOneField("campaigns.Campaign", on_delete=models.CASCADE, related_name="table_settings")
    success_rule = models.CharField(
        _("which cards succeed"), max_length=8, choices=SuccessRule.choices, default=SuccessRule.EVEN
    )
    layout = models.CharField(_("decks"), max_length=20, choices=DeckLayout.choices, default=DeckLayout.TABLE)
    cover_mode = models.CharField(_("cover"), max_length=10, choices=CoverMode.choices, default=CoverMode.ATTACKER)
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        verbose_name = _("table settings")
        verbose_name_plural = _("table settings")

    def __str__(self) -> str:
        return str(self.campaign)


class DeckKind(models.TextChoices):
    TABLE = "table", _("Table deck")
    ATTACK = "attack", _("Attack deck")
    DEFENCE = "defence", _("Defence deck")
    FULL = "full", _("Deck of 52 cards")
    SMALL = "small", _("Defence deck of 32 cards")


class DeckHolder(models.TextChoices):
    TABLE = "table", _("The table")
    NARRATOR = "narrator", _("The narrator")
    PLAYERS = "players", _("The players")
    PLAYER = "player", _("One player")


class Deck(models.Model):
    """One physical deck: its draw pile (top last), the cards in play and the discard pile, as card codes."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="decks")
    kind = models.CharField(max_length=8, choices=DeckKind.choices)
    holder = models.CharField(max_length=8, choices=DeckHolder.choices)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    pile = models.JSONField(default=list)
    in_play = models.JSONField(default=list)
    discard = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        verbose_name = _("deck")
        verbose_name_plural = _("decks")
        ordering = ["campaign", "holder", "kind", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "kind", "holder", "player"], name="one_deck_per_holder"),
            models.UniqueConstraint(
                fields=["campaign", "kind", "holder"], condition=Q(player__isnull=True), name="one_shared_deck"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.get_holder_display()}"


class Scene(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="scenes")
    title = models.CharField(_("title"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    closed = models.BooleanField(_("closed"), default=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("scene")
        verbose_name_plural = _("scenes")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("conflicts:scene", args=[self.campaign_id, self.pk])


class SequenceKind(models.TextChoices):
    STANDARD = "standard", _("Conflict")
    CHASE = "chase", _("Chase")
    DEMOLITION = "demolition", _("Demolition")


class ReversDomain(models.TextChoices):
    PHYSICAL = "physical", _("Physical")
    SOCIAL = "social", _("Social")
    MENTAL = "mental", _("Mental")


class ReversNature(models.TextChoices):
    BLUNT = "blunt", _("Blunt or social (heals by the day)")
    DEEP = "deep", _("Deep wound (heals by the week)")


class SequenceNature(models.TextChoices):
    """The Sequence's healing pace: each attacker's weapon decides (conflicts.rules.healing), or the narrator
    fixes one for every Revers of the Sequence."""

    WEAPON = "weapon", _("By the weapon that inflicts it")
    BLUNT = "blunt", _("Blunt or social (heals by the day)")
    DEEP = "deep", _("Deep wound (heals by the week)")


class Phase(models.TextChoices):
    DRAWING = "drawing", _("Drawing")
    RESOLVED = "resolved", _("Drawn, Revers to record")
    ENDED = "ended", _("Ended")


class Sequence(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="sequences")
    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="sequences")
    title = models.CharField(_("title"), max_length=120)
    kind = models.CharField(_("kind"), max_length=12, choices=SequenceKind.choices, default=SequenceKind.STANDARD)
    collective = models.BooleanField(_("collective sequence"), default=False)
    friendly = models.BooleanField(
        _("friendly contest"),
        default=False,
        help_text=_("Revers only decide the winner; nothing is written on sheets."),
    )
    secret_cut = models.BooleanField(
        _("secret choice to cut short"), default=False, help_text=_("On equal Revers both sides choose in secret.")
    )
    domain = models.CharField(_("Revers domain"), max_length=10, choices=ReversDomain.choices, default="physical")
    nature = models.CharField(_("healing"), max_length=8, choices=SequenceNature.choices, default=SequenceNature.WEAPON)
    phase = models.CharField(max_length=10, choices=Phase.choices, default=Phase.DRAWING)
    draw_number = models.PositiveIntegerField(default=1)
    # The current draw's resolution while Revers wait to be recorded, then the last recorded one.
    outcome = models.JSONField(default=dict, blank=True)
    last_verdict = models.CharField(max_length=8, blank=True)
    last_winner = models.CharField(max_length=40, blank=True)
    cut_choices = models.JSONField(default=dict, blank=True)
    winner = models.CharField(max_length=40, blank=True)
    ended_how = models.CharField(max_length=16, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        verbose_name = _("sequence")
        verbose_name_plural = _("sequences")
        ordering = ["scene", "created_at", "pk"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("conflicts:sequence", args=[self.campaign_id, self.pk])

    @property
    def is_open(self) -> bool:
        return self.phase != Phase.ENDED


class Use(models.TextChoices):
    ATTACK = "attack", _("Attack")
    DEFENCE = "defence", _("Defence")


class VehicleSize(models.IntegerChoices):
    SMALL = 0, _("Small")
    MEDIUM = 1, _("Medium")
    LARGE = 2, _("Large")
    HUGE = 3, _("Huge")


class Era(models.IntegerChoices):
    ANCIENT = 0, _("Medieval or older")
    STEAM = 1, _("Steam")
    MODERN = 2, _("Modern")
    FUTURE = 3, _("Future")


class Relatedness(models.TextChoices):
    CLOSE = "close", _("Closely related")
    RELATED = "related", _("Related but not central (−1 rank, Faible minimum)")
    DISTANT = "distant", _("Distant (−2 ranks, Faible minimum)")


class Participant(models.Model):
    """A PC or NPC in a sequence: side, goal, trait, what changes its cards, and its current draw."""

    sequence = models.ForeignKey(Sequence, on_delete=models.CASCADE, related_name="participants")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="participations")
    side = models.CharField(_("side"), max_length=40)
    goal = models.CharField(_("goal"), max_length=240, blank=True)
    trait_code = models.CharField(_("trait"), max_length=40, blank=True)
    trait_name = models.CharField(max_length=80, blank=True)
    trait_value = models.SmallIntegerField(_("trait value"), default=2)
    relatedness = models.CharField(
        _("trait and concept"), max_length=8, choices=Relatedness.choices, default=Relatedness.CLOSE
    )
    weapon = models.PositiveSmallIntegerField(_("weapon"), default=0, validators=[MaxValueValidator(3)])
    weapon_use = models.CharField(_("weapon used in"), max_length=8, choices=Use.choices, default=Use.ATTACK)
    two_weapons = models.BooleanField(_("two weapons"), default=False)
    two_weapons_use = models.CharField(
        _("second weapon used in"), max_length=8, choices=Use.choices, default=Use.ATTACK
    )
    weapon_era = models.PositiveSmallIntegerField(_("weapon era"), choices=Era.choices, default=Era.MODERN)
    weapon_firearm = models.BooleanField(_("firearm"), default=False)
    inflicts = models.CharField(
        _("the Revers it inflicts heal"), max_length=8, choices=ReversNature.choices, default=ReversNature.BLUNT,
        help_text=_("Set from the weapon on the sheet when it joins: bare hands by the day, a weapon by the week."),
    )  # fmt: skip
    armour = models.PositiveSmallIntegerField(_("armour"), default=0, validators=[MaxValueValidator(3)])
    armour_era = models.PositiveSmallIntegerField(_("armour era"), choices=Era.choices, default=Era.MODERN)
    armour_bulletproof = models.BooleanField(_("bulletproof armour"), default=False)
    shield = models.BooleanField(_("shield"), default=False)
    surprise = models.PositiveSmallIntegerField(_("caught by surprise"), default=0, validators=[MaxValueValidator(2)])
    conditions = models.PositiveSmallIntegerField(_("adverse conditions"), default=0, validators=[MaxValueValidator(2)])
    cover = models.PositiveSmallIntegerField(_("cover"), default=0, validators=[MaxValueValidator(2)])
    scale = models.SmallIntegerField(_("scale"), default=0)
    vehicle = models.SmallIntegerField(_("vehicle Speed or Robustness"), default=0)
    telekinesis_mind = models.SmallIntegerField(
        _("Esprit modifier to Télékinésie"), default=0,
        help_text=_("Filled from the sheet when the trait is Télékinésie: Faible to Médiocre −1 … Exceptionnel +3."),
    )  # fmt: skip
    robustness_as_armour = models.BooleanField(
        _("vehicle Robustness as armour (defence only)"), default=False,
        help_text=_("When the occupants of a vehicle are shot at, the narrator may let its Robustness count as armour."),
    )  # fmt: skip
    range_defence = models.PositiveSmallIntegerField(_("defence cards from range"), default=0)
    other = models.SmallIntegerField(_("other modifier"), default=0)
    defence_weight = models.PositiveSmallIntegerField(
        _("attack successes each defence success cancels"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(2)],
    )
    vehicle_size = models.PositiveSmallIntegerField(
        _("vehicle size"), choices=VehicleSize.choices, null=True, blank=True
    )
    vehicle_era = models.PositiveSmallIntegerField(
        _("vehicle era"), choices=Era.choices, null=True, blank=True,
        help_text=_("In a chase, a modern vehicle outdistances a steam-era one, a future one a modern one."),
    )  # fmt: skip
    out_of_range_bands = models.PositiveSmallIntegerField(_("range bands to close"), default=0)
    out_after = models.PositiveSmallIntegerField(
        _("out after"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(2)]
    )
    position = models.PositiveSmallIntegerField(default=0)
    active = models.BooleanField(default=True)
    revers_taken = models.PositiveSmallIntegerField(default=0)
    friendly_worst = models.PositiveSmallIntegerField(default=0)
    upper_hand_cards = models.PositiveSmallIntegerField(default=0)
    atout_card = models.PositiveSmallIntegerField(default=0)
    help_cards = models.PositiveSmallIntegerField(default=0)
    # {"attack": {participant_id: n}, "defence": {participant_id: n}, "upper_hand": bool, "reasons": {id: text}}
    split = models.JSONField(default=dict, blank=True)
    # {"attack": {participant_id: [codes]}, "defence": {participant_id: [codes]}, "flipped": ["attack:12:0"]}
    hand = models.JSONField(default=dict, blank=True)
    drawn = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        ordering = ["sequence", "position", "pk"]
        constraints = [models.UniqueConstraint(fields=["sequence", "character"], name="one_participation_per_sequence")]

    def __str__(self) -> str:
        return f"{self.character} · {self.side}"

    @property
    def key(self) -> str:
        return str(self.pk)


class AskStatus(models.TextChoices):
    PENDING = "pending", _("waiting for the roll")
    ANSWERED = "answered", _("rolled")
    WITHDRAWN = "withdrawn", _("withdrawn")


class AskedTest(models.Model):
    """A Test the narrator asked of one character (« le Narrateur et le joueur choisissent une Caractéristique …
    Le Narrateur estime ensuite la Difficulté »), waiting on the player's phone until the Test that answers it is
    rolled or the narrator withdraws it. One ask of several characters is one row each, sharing ``ask``."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="asked_tests")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="asked_tests")
    ask = models.CharField(max_length=24)  # the ask's id, the same on each row of one ask (its Event names it)
    trait_code = models.CharField(_("trait"), max_length=64)
    difficulty = models.PositiveSmallIntegerField(_("difficulty"), null=True, blank=True)  # a Difficulty; None: not set
    note = models.CharField(_("note"), max_length=200, blank=True)
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    asked_at = models.DateTimeField(default=timezone.now, editable=False)
    status = models.CharField(max_length=10, choices=AskStatus.choices, default=AskStatus.PENDING)
    roll = models.CharField(max_length=32, blank=True)  # the answering Test's roll id

    class Meta:
        verbose_name = _("Test asked")
        verbose_name_plural = _("Tests asked")
        ordering = ["asked_at", "pk"]
        constraints = [
            # Two asks at once (two narrators, a double tap) cannot both wait for the same Test of one character.
            models.UniqueConstraint(
                fields=["character", "trait_code"], condition=Q(status="pending"), name="one_pending_ask_per_trait"
            )
        ]

    def __str__(self) -> str:
        return f"{self.character_id} · {self.trait_code} · {self.status}"
