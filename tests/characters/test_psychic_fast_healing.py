"""Services and pages: Guérison accélérée (Conscience, Médiocre), on the same path as Régénération.

« Les blessures réclamant habituellement une semaine de soins/repos par carte de pénalité (ou par point
de Revers) n'exigent plus qu'une journée de repos et de méditation (12 heures). (…) Le Psy ne peut
prolonger sa méditation au delà d'un nombre de jours égal à la valeur du Domaine de pouvoir. Chaque
"jour" d'utilisation de ce pouvoir entraîne la dépense d'un point de Potentiel psychique. Les points
dépensés pour accélérer les soins ne peuvent pas être récupérés tant que l'adepte n'a pas arrêté ce
processus. » (appendix 1)
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.chronicle import describe
from campaigns.models import Event
from characters.services import powers as powers_services
from characters.services.powers import character_rest, healing_start, power_use
from characters.services.revers import revers_inflict
from characters.services.sheet import trait_set
from core.errors import PermissionRefused, ServiceError
from tests.campaigns.factories import UserFactory
from tests.characters.factories import pc, table
from tests.characters.test_psychic_feed_regeneration import _clock, _used

pytestmark = pytest.mark.django_db


def _meditator(conscience: int = 3):  # type: ignore[no-untyped-def]
    campaign, narrator, (player, other) = table()
    psy = pc(campaign, player, {"conscience": conscience})
    return campaign, narrator, player, other, psy


def test_a_day_of_meditation_heals_a_week_of_care_for_a_point_a_day() -> None:
    campaign, narrator, player, _other, psy = _meditator()
    wound = revers_inflict(character=psy, actor=narrator, domain="physical", severity=2, source="balle",
                                    nature="deep")  # fmt: skip
    healing_start(character=psy, actor=player, power="fast_healing")
    psy.refresh_from_db()
    assert psy.healing_power == "fast_healing" and psy.healing_points == 1 and _used(psy, "conscience") == 1
    _clock(campaign, narrator, hours=11)
    wound.refresh_from_db()
    assert wound.severity == 2
    _clock(campaign, narrator, hours=1)
    wound.refresh_from_db()
    assert wound.severity == 1 and _used(psy, "conscience") == 2
    _clock(campaign, narrator, hours=12)
    wound.refresh_from_db()
    psy.refresh_from_db()
    assert wound.severity == 0 and not psy.healing_power and _used(psy, "conscience") == 2
    stopped = Event.objects.get(kind="character.healing_stopped")
    assert stopped.payload["reason"] == "healed" and stopped.payload["power"] == "fast_healing"
    assert Event.objects.filter(kind="character.healing_cycle").count() == 2


def test_points_spent_meditating_stay_spent_until_it_stops() -> None:
    """« Les points dépensés pour accélérer les soins ne peuvent pas être récupérés tant que l'adepte n'a pas
    arrêté ce processus »."""
    campaign, narrator, player, _other, psy = _meditator(conscience=4)
    revers_inflict(character=psy, actor=narrator, domain="physical", severity=3, source="chute")
    healing_start(character=psy, actor=player, power="fast_healing")
    power_use(character=psy, actor=player, domain="conscience", power_rank=2)
    assert _used(psy, "conscience") == 2
    character_rest(character=psy, actor=player)
    assert _used(psy, "conscience") == 1
    powers_services.healing_stop(character=psy, actor=player)
    character_rest(character=psy, actor=player)
    assert _used(psy, "conscience") == 0


def test_meditation_stops_after_the_domains_value_in_days() -> None:
    """« Le Psy ne peut prolonger sa méditation au delà d'un nombre de jours égal à la valeur du Domaine »:
    Médiocre, 3 days; a new wound on the way cannot stretch it to a fourth."""
    campaign, narrator, player, _other, psy = _meditator()
    first = revers_inflict(character=psy, actor=narrator, domain="physical", severity=2, source="balle",
                                    nature="deep")  # fmt: skip
    healing_start(character=psy, actor=player, power="fast_healing")
    _clock(campaign, narrator, hours=12)
    second = revers_inflict(character=psy, actor=narrator, domain="physical", severity=3, source="chute",
                                     nature="deep")  # fmt: skip
    _clock(campaign, narrator, hours=48)
    first.refresh_from_db()
    second.refresh_from_db()
    psy.refresh_from_db()
    assert (first.severity, second.severity) == (0, 1)
    assert not psy.healing_power
    stopped = Event.objects.get(kind="character.healing_stopped").payload
    assert (stopped["reason"], stopped["points"]) == ("limit", 3)  # given back by the clock's night since
    started = Event.objects.get(kind="character.healing_started")
    assert started.payload["max_cycles"] == 3 and started.payload["cycle_hours"] == 12


def test_one_healing_power_at_a_time_and_only_with_the_rank() -> None:
    campaign, narrator, player, other, psy = _meditator(conscience=2)
    revers_inflict(character=psy, actor=narrator, domain="physical", severity=1, source="coup")
    with pytest.raises(ServiceError, match="needs Médiocre|needs Mediocre|Médiocre"):
        healing_start(character=psy, actor=player, power="fast_healing")
    trait_set(character=psy, actor=narrator, code="conscience", rank=5, kind="power_domain")
    with pytest.raises(ServiceError, match="Choose a healing power"):
        healing_start(character=psy, actor=player, power="heat_resistance")
    with pytest.raises(PermissionRefused):
        healing_start(character=psy, actor=other, power="fast_healing")
    healing_start(character=psy, actor=player, power="fast_healing")
    with pytest.raises(ServiceError, match="already running"):
        healing_start(character=psy, actor=player, power="regeneration")


def test_fast_healing_reads_in_both_languages() -> None:
    campaign, narrator, player, _other, psy = _meditator()
    revers_inflict(character=psy, actor=narrator, domain="physical", severity=1, source="balle")
    healing_start(character=psy, actor=player, power="fast_healing")
    _clock(campaign, narrator, hours=12)
    events = Event.objects.filter(kind__startswith="character.healing")
    with translation.override("en"):
        assert describe(events.get(kind="character.healing_started")) == (
            "Jim Bones starts Fast healing: one Potential point per 12-hour day of rest and meditation, "
            "3 days at most (2 left)."
        )
        assert describe(events.get(kind="character.healing_stopped")) == (
            "Jim Bones's wounds are healed: Fast healing stops (1 Potential point spent)."
        )
    with translation.override("fr"):
        assert describe(events.get(kind="character.healing_started")).startswith(
            "Jim Bones commence Guérison accélérée"
        )
        assert "Guérison accélérée" in describe(events.get(kind="character.healing_cycle"))
        assert "Guérison accélérée s'arrête" in describe(events.get(kind="character.healing_stopped"))


def _act(character, name: str) -> str:  # type: ignore[no-untyped-def]
    return reverse("characters:act", args=[character.pk, name])


def test_the_sheet_offers_fast_healing_from_mediocre_and_its_owner_starts_and_stops_it(client) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, player, other, psy = _meditator()
    revers_inflict(character=psy, actor=narrator, domain="physical", severity=2, source="balle")
    client.force_login(player)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("characters:detail", args=[psy.pk])).text
    assert 'name="power" value="fast_healing"' in page and 'value="regeneration"' not in page
    assert "at most as many days as the domain&#x27;s value" in page
    client.force_login(other)
    assert client.post(_act(psy, "healing"), {"power": "fast_healing"}).status_code == 403
    client.force_login(UserFactory())
    assert client.post(_act(psy, "healing"), {"power": "fast_healing"}).status_code == 404
    client.force_login(player)
    response = client.post(_act(psy, "healing"), {"power": "fast_healing"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert (
        "Fast healing started" in response.text and "Fast healing running · Potential spent on it: 1" in response.text
    )
    assert 'data-healing="fast_healing"' in response.text
    response = client.post(_act(psy, "healing_stop"), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Fast healing stopped." in response.text
    client.cookies["django_language"] = "fr"
    assert "Guérison accélérée (Conscience)" in client.get(reverse("characters:detail", args=[psy.pk])).text
