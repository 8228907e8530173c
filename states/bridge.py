"""The interface MicroFudge's apps (conflicts, characters) call to learn what the state cards do to a Test or a
draw. Nothing else of ``states`` is imported by them for this; the readings are in ``states.rules.bridge``.

``cecj_effect(character, domain=…)`` and ``cecj_effects(characters, domain=…)`` (one query for a board) return
a ``CecjEffect``: wound and fatigue penalties (positive), ``out`` (why the character cannot act) and ``shaken``.
``out_reason(effect)`` and ``shaken_reason()`` give the translated sentences to show or to refuse with.

The campaign setting ``weigh_on_cecj`` (on by default) turns the penalties and the refusals on. When Revers
become wounds (``revers_to_wounds``) the wound penalty always applies, so that a converted Revers keeps its
penalty even with the setting off.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from characters.models import Character
from states.models import SavageSettings, SavageState
from states.rules.bridge import NO_EFFECT, CecjEffect
from states.rules.bridge import cecj_effect as _effect
from states.selectors import card_state, settings_for

__all__ = ["NO_EFFECT", "CecjEffect", "cecj_effect", "cecj_effects", "out_reason", "shaken_reason"]


def cecj_effects(characters: Iterable[Character], *, domain: str, campaign: Campaign) -> dict[int, CecjEffect]:
    """The effect on each character of ``campaign`` (by id); none (``NO_EFFECT``) without states."""
    chars = [c for c in characters if c.campaign_id == campaign.pk]
    if not chars or not campaign.savage_states:
        return {}
    settings = {campaign.pk: settings_for(campaign)}
    campaign_of = {c.pk: c.campaign_id for c in chars}
    states = SavageState.objects.filter(character__in=chars).prefetch_related("fatigue_tracks")
    out: dict[int, CecjEffect] = {}
    for state in states:
        s = settings[campaign_of[state.character_id]]
        if s.weigh_on_cecj or s.revers_to_wounds:
            out[state.character_id] = _effect_for(state, s, domain)
    return out


def _effect_for(state: SavageState, s: SavageSettings, domain: str) -> CecjEffect:
    if not (s.weigh_on_cecj or s.revers_to_wounds):
        return NO_EFFECT
    effect = _effect(card_state(state), domain=domain)
    if not s.weigh_on_cecj:
        # Only the converted Revers' wounds weigh (never zero penalty); no refusal, no fatigue.
        effect = CecjEffect(wounds=effect.wounds)
    return effect


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
    return _effect_for(state, settings_for(campaign), domain)


def out_reason(effect: CecjEffect) -> str:
    return {
        "dead": _("Dead: no more Tests or draws."),
        "incapacitated": _("In État critique: « Il ne peut plus agir » — no Test, no draw until healed."),
        "unconscious": _("Unconscious: no Test, no draw until the character comes round."),
    }.get(effect.out, "")


def shaken_reason() -> str:
    return _("Shaken: only free actions — no attack cards, and a Test only if the narrator calls it a free action.")
