"""Services: feeding a power domain from another trait (VI) and Régénération (appendix 1)."""

from __future__ import annotations

import datetime as dt

import pytest

from campaigns import services as campaign_services
from campaigns.models import Event
from characters import selectors
from characters.models import Character, CharacterTrait, PowerFeed
from characters.services.powers import character_rest, feed_allow, feed_revoke, healing_start, healing_stop, power_use
from characters.services.revers import revers_inflict
from core.errors import PermissionRefused, ServiceError
from tests.characters.factories import pc, table

pytestmark = pytest.mark.django_db


def _clock(campaign, narrator, **delta: int) -> None:  # type: ignore[no-untyped-def]
    campaign.refresh_from_db()
    campaign_services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(**delta))


def _used(character, code: str) -> int:  # type: ignore[no-untyped-def]
    return CharacterTrait.objects.get(character=character, code=code).potential_used


def test_presence_feeds_telepathie_one_rank_lower_until_rest() -> None:
    """« Le Narrateur peut également décider qu'une Aptitude […] peut servir à alimenter un Domaine de pouvoir
    donné (des Aptitudes telles que Présence et Esprit pourraient ainsi nourrir un Domaine de pouvoir
    psionique). Le Rang de la Caractéristique concerné est alors réduit d'un cran jusqu'à ce que le
    personnage puisse prendre du repos » (VI)."""
    campaign, narrator, (player, _other) = table()
    psy = pc(campaign, player, {"telepathie": 2, "presence": 4})
    with pytest.raises(ServiceError, match="has not let"):
        power_use(character=psy, actor=player, domain="telepathie", power_rank=2, fed_by="presence")
    with pytest.raises(PermissionRefused):
        feed_allow(character=psy, actor=player, domain="telepathie", trait="presence")
    feed_allow(character=psy, actor=narrator, domain="telepathie", trait="presence")
    power_use(character=psy, actor=player, domain="telepathie", power_rank=2)
    power_use(character=psy, actor=player, domain="telepathie", power_rank=2)
    with pytest.raises(ServiceError, match="No Potential left"):
        power_use(character=psy, actor=player, domain="telepathie", power_rank=2)
    result = power_use(character=psy, actor=player, domain="telepathie", power_rank=2, fed_by="presence")
    assert result.potential_left == 0 and _used(psy, "telepathie") == 2
    psy.refresh_from_db()
    assert selectors.trait_value(psy, "presence") == 3  # used at Médiocre wherever Présence is rolled
    event = Event.objects.filter(kind="character.power_used").latest("pk")
    assert event.payload["fed_by"] == "presence" and event.payload["lowered"] == 1
    line = next(line for line in selectors.sheet(psy).aptitudes if line.code == "presence")
    assert (line.rank, line.lowered) == (4, 1)
    character_rest(character=psy, actor=player)
    assert selectors.trait_value(psy, "presence") == 4 and _used(psy, "telepathie") == 0
    rested = Event.objects.get(kind="character.rested")
    assert rested.payload["restored"][0]["code"] == "presence" and rested.payload["restored"][0]["ranks"] == 1


def test_the_player_may_feed_before_potential_runs_out_and_until_abyssal() -> None:
    campaign, narrator, (player, _other) = table()
    psy = pc(campaign, player, {"telepathie": 2, "presence": 2})
    feed_allow(character=psy, actor=narrator, domain="telepathie", trait="presence")
    power_use(character=psy, actor=player, domain="telepathie", power_rank=2, fed_by="presence")
    power_use(character=psy, actor=player, domain="telepathie", power_rank=2, fed_by="presence")
    assert _used(psy, "telepathie") == 0 and selectors.trait_value(psy, "presence") == 0
    with pytest.raises(ServiceError, match="down to Abyssal"):
        power_use(character=psy, actor=player, domain="telepathie", power_rank=2, fed_by="presence")


def test_a_trait_feeds_from_the_rank_the_tests_use_so_a_spent_vigueur_cannot_feed() -> None:
    """« Le Rang de la Caractéristique concerné est alors réduit d'un cran »: counted from the rank the Tests use
    (``trait_value``), so Vigueur Faible with two ranks lost to psychic fatigue is already Abyssal."""
    campaign, narrator, (player, _other) = table()
    psy = pc(campaign, player, {"telepathie": 2, "vigueur": 2})
    feed_allow(character=psy, actor=narrator, domain="telepathie", trait="vigueur")
    Character.objects.filter(pk=psy.pk).update(vigour_lost=2)
    psy.refresh_from_db()
    with pytest.raises(ServiceError):
        power_use(character=psy, actor=player, domain="telepathie", power_rank=2, fed_by="vigueur")
    assert PowerFeed.objects.get(character=psy).ranks_lost == 0


def test_a_fed_trait_comes_back_with_the_clocks_night_and_a_revoked_feed_waits_for_it() -> None:
    campaign, narrator, (player, _other) = table()
    psy = pc(campaign, player, {"telepathie": 2, "esprit": 5})
    feed = feed_allow(character=psy, actor=narrator, domain="telepathie", trait="esprit")
    power_use(character=psy, actor=player, domain="telepathie", power_rank=2, fed_by="esprit")
    feed_revoke(feed=feed, actor=narrator)
    feed.refresh_from_db()
    assert not feed.allowed and selectors.trait_value(psy, "esprit") == 4
    with pytest.raises(ServiceError, match="has not let"):
        power_use(character=psy, actor=player, domain="telepathie", power_rank=2, fed_by="esprit")
    _clock(campaign, narrator, hours=8)
    assert selectors.trait_value(psy, "esprit") == 5 and not PowerFeed.objects.exists()
    event = Event.objects.get(kind="character.potential_recovered")
    assert event.payload["restored"] == [{"code": "esprit", "name_fr": "Esprit", "name_en": "Mind", "ranks": 1}]


def test_only_a_narrator_sets_feeds_and_only_another_trait_feeds_a_domain() -> None:
    campaign, narrator, (player, _other) = table()
    psy = pc(campaign, player, {"telepathie": 2})
    with pytest.raises(ServiceError, match="another trait"):
        feed_allow(character=psy, actor=narrator, domain="telepathie", trait="telepathie")
    with pytest.raises(ServiceError, match="power domain"):
        feed_allow(character=psy, actor=narrator, domain="esprit", trait="presence")
    feed_allow(character=psy, actor=narrator, domain="telepathie", trait="telekinesie")
    with pytest.raises(ServiceError, match="already feeds"):
        feed_allow(character=psy, actor=narrator, domain="telepathie", trait="telekinesie")
    assert Event.objects.filter(kind="character.feed_allowed").count() == 1


def _regenerator(**settings: object):  # type: ignore[no-untyped-def]
    campaign, narrator, (player, _other) = table(**settings)
    psy = pc(campaign, player, {"conscience": 5})
    return campaign, narrator, player, psy


def test_regeneration_heals_a_step_an_hour_for_a_point_an_hour_and_stops_healed() -> None:
    """« Des blessures réclamant habituellement une semaine de soins/repos par carte de pénalité (ou par point
    de Revers) n'exigent plus qu'une heure d'attention » ; « Un point de potentiel psychique doit être dépensé
    par cycle de récupération (un point par heure pour les blessures "classiques" […]) » ; « Il s'arrête
    lorsque les blessures sont soignées »."""
    campaign, narrator, player, psy = _regenerator()
    wound = revers_inflict(character=psy, actor=narrator, domain="physical", severity=2, source="balle",
                                    nature="deep")  # fmt: skip
    healing_start(character=psy, actor=player, power="regeneration")
    assert _used(psy, "conscience") == 1
    with pytest.raises(ServiceError, match="already running"):
        healing_start(character=psy, actor=player, power="regeneration")
    _clock(campaign, narrator, hours=1)
    wound.refresh_from_db()
    assert wound.severity == 1 and _used(psy, "conscience") == 2
    _clock(campaign, narrator, hours=3)
    wound.refresh_from_db()
    psy.refresh_from_db()
    assert wound.severity == 0 and not psy.healing_power and _used(psy, "conscience") == 2
    assert Event.objects.get(kind="character.healing_stopped").payload["reason"] == "healed"
    assert Event.objects.filter(kind="character.healing_cycle").count() == 2


def test_points_spent_regenerating_are_not_recovered_while_it_runs() -> None:
    """« Les points dépensés pour alimenter le pouvoir de régénération ne peuvent être récupérés tant que le
    pouvoir de régénération est actif »: a rest gives back the other points only."""
    campaign, narrator, player, psy = _regenerator(revers_recovery_deep_days=30)
    revers_inflict(character=psy, actor=narrator, domain="physical", severity=3, source="chute",
                            nature="deep")  # fmt: skip
    healing_start(character=psy, actor=player, power="regeneration")  # a month-long wound: a point a day
    power_use(character=psy, actor=player, domain="conscience", power_rank=2)
    assert _used(psy, "conscience") == 2
    character_rest(character=psy, actor=player)
    assert _used(psy, "conscience") == 1
    healing_stop(character=psy, actor=player)
    character_rest(character=psy, actor=player)
    assert _used(psy, "conscience") == 0


def test_a_month_long_wound_disappears_after_24_hours() -> None:
    """« les blessures exigeant un mois de soins disparaissent au bout de 24 heures »: a campaign healing deep
    wounds a card a month; one point for the day; the clock's night after the end gives it back."""
    campaign, narrator, player, psy = _regenerator(revers_recovery_deep_days=30)
    wound = revers_inflict(character=psy, actor=narrator, domain="physical", severity=3, source="chute",
                                    nature="deep")  # fmt: skip
    healing_start(character=psy, actor=player, power="regeneration")
    _clock(campaign, narrator, hours=20)
    wound.refresh_from_db()
    assert wound.severity == 3 and _used(psy, "conscience") == 1  # still paid: no night counted while it runs
    _clock(campaign, narrator, hours=6)
    wound.refresh_from_db()
    psy.refresh_from_db()
    assert wound.severity == 0 and not psy.healing_power
    assert _used(psy, "conscience") == 1  # 2 hours of rest since it stopped: not a night yet
    _clock(campaign, narrator, hours=6)
    assert _used(psy, "conscience") == 0


def test_regeneration_stops_when_potential_runs_out() -> None:
    campaign, narrator, player, psy = _regenerator()
    wound = revers_inflict(character=psy, actor=narrator, domain="physical", severity=3, source="lame",
                                    nature="deep")  # fmt: skip
    for _i in range(3):
        power_use(character=psy, actor=player, domain="conscience", power_rank=2)
    healing_start(character=psy, actor=player, power="regeneration")  # 4th point
    _clock(campaign, narrator, hours=5)  # hour 1 heals, the 5th point pays hour 2, which heals; then nothing left
    wound.refresh_from_db()
    psy.refresh_from_db()
    assert wound.severity == 1 and not psy.healing_power and _used(psy, "conscience") == 5
    assert Event.objects.get(kind="character.healing_stopped").payload["reason"] == "no_potential"


def test_regeneration_needs_a_physical_wound_and_the_sheet_editor() -> None:
    """Régénération acts on « les cellules composant le corps du Psy »: a social Revers is not its business."""
    campaign, narrator, (player, other) = table()
    psy = pc(campaign, player, {"conscience": 5})
    revers_inflict(character=psy, actor=narrator, domain="social", severity=2, source="scandale")
    with pytest.raises(ServiceError, match="No physical Revers"):
        healing_start(character=psy, actor=player, power="regeneration")
    revers_inflict(character=psy, actor=narrator, domain="physical", severity=1, source="coup")
    with pytest.raises(PermissionRefused):
        healing_start(character=psy, actor=other, power="regeneration")
    with pytest.raises(ServiceError, match="No healing power is running"):
        healing_stop(character=psy, actor=player)
    healing_start(character=psy, actor=narrator, power="regeneration")
    with pytest.raises(PermissionRefused):
        healing_stop(character=psy, actor=other)
    healing_stop(character=psy, actor=player)
    event = Event.objects.get(kind="character.healing_stopped")
    assert event.payload["reason"] == "stopped" and event.payload["points"] == 1
