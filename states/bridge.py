"""The interface MicroFudge's apps (conflicts, characters) call to learn what the state cards do to a Test or a
draw, and how the sheet's roll dialog rolls the Savage attributes (``attribute_rolls``). Nothing else of ``states``
is imported by them for this; the readings are in ``states.rules.bridge``.

``cecj_effect(character, domain=…)`` and ``cecj_effects(characters, domain=…)`` (one query for a board) return
a ``CecjEffect``: wound and fatigue penalties (positive), ``out`` (why the character cannot act) and ``shaken``.
``out_reason(effect)`` and ``shaken_reason()`` give the translated sentences to show or to refuse with.

The campaign setting ``weigh_on_cecj`` (on by default) turns the penalties and Shaken's refusals on. When Revers
become wounds (``revers_to_wounds``) the wound penalty always applies, so that a converted Revers keeps its
penalty even with the setting off. ``out`` (État critique, unconscious, dead: « Il ne peut plus agir ») holds
whatever the settings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from characters.models import Character
from core.prepared import PreparedRead
from states.models import SavageSettings, SavageState
from states.rules.bridge import BODILY_DOMAINS, NO_EFFECT, CecjEffect
from states.rules.bridge import cecj_effect as _effect
from states.rules.dice import TraitDie
from states.rules.odds import trait_odds
from states.rules.states import CardState, roll_penalties
from states.selectors import TRAITS, card_state, settings_for, trait_die

__all__ = [
    "NO_EFFECT", "AttributeRoll", "CecjEffect", "attribute_rolls", "cecj_effect", "cecj_effects", "out_reason",
    "shaken_reason",
]  # fmt: skip


# Read by every Sequence page, odds answer and draw: compiled once per number of characters (core.prepared).
_states_of = PreparedRead(lambda ids: SavageState.objects.filter(character_id__in=ids))


def cecj_effects(characters: Iterable[Character], *, domain: str, campaign: Campaign) -> dict[int, CecjEffect]:
    """The effect on each character of ``campaign`` (by id); none (``NO_EFFECT``) without states."""
    chars = [c for c in characters if c.campaign_id == campaign.pk]
    if not chars or not campaign.savage_states:
        return {}
    settings = {campaign.pk: settings_for(campaign)}
    campaign_of = {c.pk: c.campaign_id for c in chars}
    states = _states_of(tuple(dict.fromkeys(c.pk for c in chars)))
    prefetch_related_objects(states, "fatigue_tracks")
    out: dict[int, CecjEffect] = {}
    cards = {state.character_id: card_state(state) for state in states}
    everywhere = _everywhere(campaign, domain, cards.values())
    for state in states:
        effect = _effect_for(cards[state.character_id], settings[campaign_of[state.character_id]], domain, everywhere)
        if effect != NO_EFFECT:
            out[state.character_id] = effect
    return out


def _effect_for(card: CardState, s: SavageSettings, domain: str, everywhere: bool) -> CecjEffect:
    effect = _effect(card, domain=domain, everywhere=everywhere)
    if not s.weigh_on_cecj:
        # « Il ne peut plus agir » holds whatever the setting: État critique, the unconscious and the dead stay
        # out. Only the converted Revers' wounds weigh (never zero penalty), with Revers into wounds on; no
        # fatigue, and Shaken does not stop a MicroFudge roll (docs/rules-decisions.md, « The bridge »).
        effect = CecjEffect(wounds=effect.wounds if s.revers_to_wounds else 0, out=effect.out)
    return effect


def _everywhere(campaign: Campaign, domain: str, cards: Iterable[CardState]) -> bool:
    """Whether wounds and fatigue weigh on this roll of ``domain`` though it is not the body's (the characters'
    option, on by default). The option is read only when it can change something: a roll off the body by someone
    wounded or tired (a physical Sequence's page reads nothing more)."""
    if domain in BODILY_DOMAINS or not any(c.wounds or c.fatigue for c in cards):
        return False
    from characters.selectors import character_rules

    return bool(character_rules(campaign).harm_weighs_everywhere)


def cecj_effect(character: Character, *, domain: str, loaded: bool = False) -> CecjEffect:
    """The effect on one character. ``loaded``: the page has just read the character's state row with its
    fatigue tracks (the sheet does, for its badges), so the row on the character is taken as it is and only the
    campaign's options are read. Services never pass it: a row cached on an instance may be older than the
    locked one."""
    related = Character.savage_state.related
    if not (loaded and related.is_cached(character)):
        return cecj_effects([character], domain=domain, campaign=character.campaign).get(character.pk, NO_EFFECT)
    campaign = character.campaign
    cached = related.get_cached_value(character)
    state = cached if isinstance(cached, SavageState) else None
    if state is None or not campaign.savage_states:
        return NO_EFFECT
    prefetch_related_objects([state], "fatigue_tracks")
    card = card_state(state)
    return _effect_for(card, _page_settings(campaign), domain, _everywhere(campaign, domain, [card]))


def _page_settings(campaign: Campaign) -> SavageSettings:
    """The campaign's options, read once per page render (the sheet's state lines and its attributes' dice share
    them); only the page paths (``loaded``, ``attribute_rolls``) use it, never a service."""
    cached: SavageSettings | None = getattr(campaign, "_page_savage_settings", None)
    if cached is None:
        cached = settings_for(campaign)
        campaign._page_savage_settings = cached  # type: ignore[attr-defined]  # kept on the page's campaign instance
    return cached


def out_reason(effect: CecjEffect) -> str:
    return {
        "dead": _("Dead: no more Tests or draws."),
        "incapacitated": _("In État critique: “Il ne peut plus agir” — no Test, no draw until healed."),
        "unconscious": _("Unconscious: no Test, no draw until the character comes round."),
    }.get(effect.out, "")


def shaken_reason() -> str:
    return _("Shaken: only free actions — no attack cards, and a Test only if the narrator calls it a free action.")


@dataclass(frozen=True)
class AttributeRoll:
    """A Savage attribute as the sheet's roll dialog offers it: its die, whether the Wild Die joins it, and the
    state cards' penalties the roll carries (« Chaque Blessure inflige un malus de -1 à tous les jets de Trait »)."""

    trait: str
    die: TraitDie
    wild_card: bool
    penalties: tuple[tuple[str, int], ...]

    def chance(self, other: int = 0) -> Fraction:
        """The exact chance of a success or better, with ``other`` (a situational modifier) added."""
        return trait_odds(
            self.die, wild_card=self.wild_card, modifier=sum(v for _k, v in self.penalties) + other
        ).success


def attribute_rolls(character: Character) -> tuple[AttributeRoll, ...]:
    """The four attributes (Vigueur, Âme, Agilité, Intellect) of a character of a campaign with states, as
    ``states.services.rolls.savage_trait_roll`` rolls them; none without states. Reads the state row on the
    character (the sheet prefetched it with its fatigue tracks) and the campaign's options (rank dice, the
    Aptitude each attribute is read from)."""
    campaign = character.campaign
    if not campaign.savage_states:
        return ()
    state = getattr(character, "savage_state", None) if _has_state(character) else None
    if state is None:
        state = _default_state(character)
    options = _page_settings(campaign)
    card = card_state(state) if state.pk else None
    penalties = tuple((m.key, m.value) for m in roll_penalties(card)) if card is not None else ()
    return tuple(
        AttributeRoll(trait, trait_die(state, trait, settings=options), state.wild_card, penalties) for trait in TRAITS
    )


def _default_state(character: Character) -> SavageState:
    """The state of a character with no state row yet, as the rules read it, its ``character`` set on it alone:
    ``SavageState(character=character)`` would also cache it on the character as its ``savage_state`` (a one-to-one
    assignment sets both sides), an unsaved row whose fatigue tracks raise ``ValueError`` at the next rendering of
    the same character object."""
    state = SavageState(character_id=character.pk)
    SavageState._meta.get_field("character").set_cached_value(state, character)  # its traits, as loaded
    return state


def _has_state(character: Character) -> bool:
    try:
        return character.savage_state is not None
    except SavageState.DoesNotExist:
        return False
