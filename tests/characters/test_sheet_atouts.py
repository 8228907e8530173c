"""The sheet kept as a frame around the parts an Atout changes (``characters.sheet_atouts``, ``core.regions.Frame``).

After an Atout spent, gained or refunded, the sheet's frame (traits, forms, Revers, gear…) is served as it was kept,
and only its Atout parts are rendered into it: the version, the balance and counters, the take-a-Revers list and the
ledger (whose older lines are kept too). The bytes are those of a sheet rendered in one go with the caches off."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

from characters.models import Character
from characters.services.atouts import atout_gain, atout_refund, atout_spend
from characters.services.revers import revers_inflict
from tests.campaigns.regions_dom import element
from tests.characters.factories import open_session, pc, table

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _fresh(character: Character) -> Character:
    return Character.objects.select_related("campaign", "owner").get(pk=character.pk)


def _sheet(client: Client, character: Character) -> str:
    html = element(client.get(character.get_absolute_url()).text, "sheet")
    assert html is not None
    return html


def _plain(client: Client, character: Character) -> str:
    with override_settings(FRAGMENT_CACHE=False):
        return _sheet(client, character)


def test_after_an_atout_only_the_atout_parts_render(
    monkeypatch: pytest.MonkeyPatch, django_assert_max_num_queries: Any
) -> None:
    """The sheet's context is not built again after an Atout spent: 7 queries (the session and user, the sheet and
    member, the versions, the take-a-Revers list, the ledger) where the whole sheet took 15."""
    from characters.views import sheet as sheet_views

    campaign, narrator, (owner, other) = table(savage_states=True)
    open_session(campaign, narrator)
    jim, lisa = pc(campaign, owner, name="Jim"), pc(campaign, other, name="Lisa")
    atout_gain(character=jim, actor=narrator, amount=3)
    revers_inflict(character=_fresh(lisa), actor=narrator, domain="physical", severity=1, source="Un coup")
    player = _client(owner)
    before = _sheet(player, jim)
    atout_spend(character=_fresh(jim), actor=owner, use="narrative_control", justification="Une corde")

    def built(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the sheet's context was built again")

    with monkeypatch.context() as patched:
        patched.setattr(sheet_views, "sheet_context", built)
        with django_assert_max_num_queries(7):
            after = _sheet(player, jim)
    assert after == _plain(player, jim) != before
    assert "Une corde" in after and "Une corde" not in before
    assert f'data-version="{_fresh(jim).version}"' in after
    assert 'name="revers"' in after  # Lisa's Revers is offered to take, as in one go


@pytest.mark.parametrize("who", ["narrator", "owner", "other"])
def test_every_reader_sees_the_sheet_after_an_atout_as_rendered_in_one_go(who: str) -> None:
    """The narrator (with the notes form and the ledger's veto buttons), the owner and another player, after a spend,
    a gain and a refund: the kept frame with its parts equals the sheet rendered in one go."""
    campaign, narrator, (owner, other) = table(savage_states=True)
    open_session(campaign, narrator)
    jim = pc(campaign, owner, name="Jim")
    pc(campaign, other, name="Lisa")
    atout_gain(character=jim, actor=narrator, amount=3)
    reader = _client({"narrator": narrator, "owner": owner, "other": other}[who])
    _sheet(reader, jim)  # kept
    entry = atout_spend(character=_fresh(jim), actor=owner, use="narrative_control", justification="Une corde")
    assert _sheet(reader, jim) == _plain(reader, jim)
    atout_gain(character=_fresh(jim), actor=narrator, amount=2)
    assert _sheet(reader, jim) == _plain(reader, jim)
    atout_refund(entry=entry, actor=narrator)
    shown = _sheet(reader, jim)
    assert shown == _plain(reader, jim)
    assert f'data-version="{_fresh(jim).version}"' in shown
    assert (f"/characters/{jim.pk}/act/refund/" in shown) == (who == "narrator")


def test_a_form_with_errors_keeps_the_version_it_was_posted_with() -> None:
    """A refused edit answers the sheet in one go with the bound form: its version is the one posted, not the
    sheet's (a stale form stays stale), while the sheet's root carries the sheet's."""
    campaign, narrator, (owner, _other) = table()
    jim = pc(campaign, owner, name="Jim")
    player = _client(owner)
    answer = player.post(f"/characters/{jim.pk}/act/words/", {"version": 999, "name": "", "concept": "c", "goal": "g"},
                         HTTP_HX_REQUEST="true")  # fmt: skip
    assert answer.status_code == 400
    assert 'name="version" value="999"' in answer.text
    assert f'data-version="{_fresh(jim).version}"' in answer.text
