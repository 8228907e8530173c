"""« Un Atout peut être dépensé pour supporter un Revers à la place d'un autre » (appendix 4): the Revers moves.

The sheet's spend form used to write the Atout to the ledger and leave the Revers where it was (issue 12).
"""

from __future__ import annotations

import pytest
from django.test import Client

from campaigns.models import Event
from characters.models import Revers
from characters.services.atouts import atout_gain
from characters.services.revers import revers_inflict, revers_take
from core.errors import PermissionRefused, ServiceError, StaleState
from tests.characters.factories import open_session, pc, table

pytestmark = pytest.mark.django_db


def _table():  # type: ignore[no-untyped-def]
    campaign, narrator, (p1, p2) = table()
    jim = pc(campaign, p1, name="Jim")
    lisa = pc(campaign, p2, name="Lisa")
    open_session(campaign, narrator)
    atout_gain(character=lisa, actor=narrator, amount=3)
    wound = revers_inflict(character=jim, actor=narrator, domain="physical", severity=2, source="Zombie")
    for c in (jim, lisa):
        c.refresh_from_db()
    return campaign, narrator, p1, p2, jim, lisa, wound


def test_taking_a_revers_moves_it_and_costs_one_atout_per_step_in_one_event() -> None:
    campaign, narrator, p1, p2, jim, lisa, wound = _table()
    before, events = lisa.atout_balance, Event.objects.count()
    revers_take(taker=lisa, revers=wound, actor=p2, justification="Je m'interpose", expected_version=jim.version)
    wound.refresh_from_db()
    lisa.refresh_from_db()
    assert wound.character_id == lisa.pk and wound.severity == 2 and wound.payload["taken_from"] == "Jim"
    assert not Revers.objects.filter(character=jim, severity__gt=0).exists()
    assert lisa.atout_balance == before - 2  # « un Atout par revers supporté »: a Revers sérieux is two steps
    assert Event.objects.count() == events + 1
    event = Event.objects.latest("pk")
    assert event.kind == "character.revers_taken" and event.payload["from"] == "Jim"
    assert set(event.characters.values_list("name", flat=True)) == {"Lisa"}


def test_a_stale_or_forbidden_take_changes_nothing() -> None:
    campaign, narrator, p1, p2, jim, lisa, wound = _table()
    before = lisa.atout_balance
    with pytest.raises(StaleState):  # Jim's sheet changed since the form was shown
        revers_take(taker=lisa, revers=wound, actor=p2, expected_version=jim.version - 1)
    with pytest.raises(PermissionRefused):  # Jim's player cannot make Lisa pay
        revers_take(taker=lisa, revers=wound, actor=p1)
    with pytest.raises(ServiceError):  # one's own Revers is not taken « à la place d'un autre »
        revers_take(taker=jim, revers=wound, actor=p1)
    lisa.refresh_from_db()
    wound.refresh_from_db()
    assert lisa.atout_balance == before and wound.character_id == jim.pk
    assert not Event.objects.filter(kind="character.revers_taken").exists()


def test_not_enough_atouts_refuses_with_the_reason() -> None:
    campaign, narrator, p1, p2, jim, lisa, wound = _table()
    decisive = revers_inflict(character=jim, actor=narrator, domain="social", severity=3, source="Scandale")
    poor = pc(campaign, narrator, name="Sam")  # with every Atout spent
    poor.atouts_creation = poor.atouts_experience = 0
    poor.save(update_fields=["atouts_creation", "atouts_experience"])
    with pytest.raises(ServiceError, match="Not enough Atouts"):
        revers_take(taker=poor, revers=decisive, actor=narrator)
    decisive.refresh_from_db()
    assert decisive.character_id == jim.pk


def test_the_sheet_form_lists_the_others_revers_and_moves_the_chosen_one() -> None:
    campaign, narrator, p1, p2, jim, lisa, wound = _table()
    client = Client()
    client.force_login(p2)
    page = client.get(lisa.get_absolute_url()).content.decode()
    key = f"{wound.pk}@{jim.version}"
    assert f'value="{key}"' in page
    url = f"/characters/{lisa.pk}/act/take_revers/"
    assert client.post(url, {"revers": "999@1"}, HTTP_HX_REQUEST="true").status_code == 400
    response = client.post(url, {"revers": key, "justification": "Je m'interpose"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    wound.refresh_from_db()
    assert wound.character_id == lisa.pk


def test_the_generic_spend_form_no_longer_offers_uses_that_would_only_be_a_ledger_line() -> None:
    from characters.forms import SPEND_USES

    uses = {code for code, _label in SPEND_USES}
    assert not uses & {"help_other", "take_revers", "counter", "reroll", "change_result", "temporary_bonus"}


def test_both_sheets_follow_live() -> None:
    """The Revers left Jim's sheet: a page watching it gets it again, as Lisa's page gets hers."""
    from campaigns.live import Viewer
    from campaigns.live_regions import changed_regions
    from campaigns.models import Membership
    from characters.subjects import sheet_subject

    campaign, narrator, p1, p2, jim, lisa, wound = _table()
    revers_take(taker=lisa, revers=wound, actor=p2)
    event = Event.objects.get(kind="character.revers_taken")
    jims_page = Viewer(Membership.objects.get(campaign=campaign, user=p1), frozenset({sheet_subject(jim.pk)}))
    [sheet] = changed_regions(event, jims_page)
    assert 'id="sheet"' in sheet and "Zombie" not in sheet  # the wound left Jim's sheet
    lisas_page = Viewer(Membership.objects.get(campaign=campaign, user=p2), frozenset({sheet_subject(lisa.pk)}))
    assert "Zombie" in changed_regions(event, lisas_page)[0]
