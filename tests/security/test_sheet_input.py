"""The sheet's and the states' causes of a 500 that the audit found (issue 14, item 3), one test each.

Typed ids go through a form (``abc`` is a refusal, not a ``ValueError``); the same new trait twice is refused
(not an ``IntegrityError`` on ``one_trait_per_code``); counts are bounded by the form to the page's range,
and a state that would leave its columns' range is refused by the service. Each refusal changes nothing.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Event
from characters.models import CharacterTrait
from core.errors import ServiceError
from states.models import SavageState
from states.services.shaken import savage_token_award
from tests.security.conftest import World, fingerprint

pytestmark = pytest.mark.django_db


def _act(world: World, name: str) -> str:
    return reverse("characters:act", args=[world.alice_pc.pk, name])


@pytest.mark.parametrize(("name", "field"), [("unequip", "item"), ("heal", "revers"), ("refund", "entry"),
                                             ("unfeed", "feed")])  # fmt: skip
@pytest.mark.parametrize("value", ["abc", "1.5", "9" * 30, "-1", ""])
def test_a_typed_id_is_refused_with_a_reason(client, world: World, name: str, field: str, value: str) -> None:
    world.login(client, world.narrator)
    before = fingerprint()
    response = client.post(_act(world, name), {field: value}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "no longer on the sheet" in response.content.decode()
    assert fingerprint() == before


def test_the_same_new_trait_twice_is_refused_not_a_500(client, world: World) -> None:
    """A double click on "set trait" with a new name: the second finds the line the first made."""
    world.login(client, world.narrator)
    data = {"code": "", "name": "Crochetage", "kind": "field", "rank": "3"}
    assert client.post(_act(world, "trait_set"), data, HTTP_HX_REQUEST="true").status_code == 200
    before = fingerprint()
    response = client.post(_act(world, "trait_set"), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "already has the trait Crochetage" in response.content.decode()
    assert fingerprint() == before
    assert CharacterTrait.objects.filter(character=world.alice_pc, name_fr="Crochetage").count() == 1
    assert Event.objects.filter(kind="character.trait_set").count() == 1


@pytest.mark.parametrize(
    ("action", "count"),
    [
        ("token_award", "2147483648"),
        ("token_award", "0"),
        ("token_award", "11"),
        ("token_award", "abc"),
        ("wounds_set", "5"),
        ("wounds_set", "-1"),
        ("wounds_set", ""),
        ("wounds_take", "99"),
        ("wounds_take", "-2147483649"),
        ("wounds_take", "1e3"),
    ],
)
def test_a_count_out_of_the_pages_range_is_refused_by_the_form(client, world: World, action: str, count: str) -> None:
    world.login(client, world.narrator)
    url = reverse("states:savage_action", args=[world.alice_pc.pk, action])
    before = fingerprint()
    response = client.post(url, {"count": count}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    body = response.content.decode()
    assert "Choose" in body or "Award from 1 to 10 tokens" in body
    assert fingerprint() == before


def test_the_count_refusal_reads_in_french(client, world: World) -> None:
    world.login(client, world.narrator)
    client.cookies["django_language"] = "fr"
    url = reverse("states:savage_action", args=[world.alice_pc.pk, "wounds_take"])
    assert "blessures" in client.post(url, {"count": "99"}, HTTP_HX_REQUEST="true").content.decode()


def test_tokens_never_leave_their_columns_range(world: World) -> None:
    """Awards one at a time could still pass a small integer's 32,767: refused by the service, not the database."""
    savage_token_award(character=world.alice_pc, actor=world.narrator, count=1, expected_version=None)
    SavageState.objects.filter(character=world.alice_pc).update(tokens=32767)
    before = fingerprint()
    with pytest.raises(ServiceError, match="out of range"):
        savage_token_award(character=world.alice_pc, actor=world.narrator, count=1, expected_version=None)
    assert fingerprint() == before
