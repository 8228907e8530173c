"""« Changer le résultat … de l'une des cartes » without a default that backfires (issue 27, item 7).

Appendix 4: « un Atout peut être utilisé pour changer le résultat de l'un des dés ou de l'une des cartes (ce qui
permet, selon les besoins, d'obtenir un succès ou un échec supplémentaire, d'augmenter ou réduire un Rang final) ».
The player chooses the card and the direction; the form shows the outcome of each choice before paying and
preselects none (its first card used to be the default: a player's only success turned into a failure).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Character
from conflicts.card_changes import FAILURE, SUCCESS, card_changes
from conflicts.models import Participant, Sequence
from conflicts.rules.budget import Split
from conflicts.rules.cards import Card, SuccessRule
from conflicts.services.atouts import participant_atout
from core.errors import ServiceError
from tests.characters.factories import open_session
from tests.conflicts.factories import Fight, draw, fight

pytestmark = pytest.mark.django_db


def login(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return client


def _drawn(seed: int = 3) -> Fight:
    f = fight(npcs=1)
    open_session(f.campaign, f.narrator)
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 5}), seed=seed)
    draw(t, f.narrator, Split(defence={t.key: 3}), seed=seed + 1)
    return f.reload()


def _reads(f: Fight, index: int) -> bool:
    return Card.parse(f.pc.hand["attack"][f.npcs[0].key][index]).is_success(SuccessRule.EVEN)


def _balance(f: Fight) -> int:
    return Character.objects.get(pk=f.hero.pk).atout_balance


def _everyone(f: Fight) -> list[Participant]:
    return list(Participant.objects.filter(sequence=f.sequence).select_related("character"))


def test_the_direction_is_the_players_and_a_card_already_that_way_is_refused_before_paying() -> None:
    f = _drawn()
    t, ref = f.npcs[0], f"attack:{f.npcs[0].key}:0"
    before = _balance(f)
    for direction in ("", "sideways"):
        with pytest.raises(ServiceError, match="success or a failure"):
            participant_atout(participant=f.pc, actor=f.player, use="change", card=ref, direction=direction,
                              expected_version=f.sequence.version)  # fmt: skip
    same = SUCCESS if _reads(f, 0) else FAILURE
    with pytest.raises(ServiceError, match="already a"):
        participant_atout(participant=f.pc, actor=f.player, use="change", card=ref, direction=same,
                          expected_version=f.sequence.version)  # fmt: skip
    assert _balance(f) == before and not Participant.objects.get(pk=f.pc.pk).hand.get("flipped")
    assert t.key in f.sequence.outcome["targets"]


@pytest.mark.parametrize("wanted", [SUCCESS, FAILURE])
def test_a_success_more_or_a_failure_more_as_the_player_chose(wanted: str) -> None:
    """« obtenir un succès ou un échec supplémentaire »: whichever card the player picks turns the way asked."""
    f = _drawn()
    t = f.npcs[0]
    index = next((i for i in range(5) if _reads(f, i) != (wanted == SUCCESS)), None)
    assert index is not None, "the seed deals both kinds of cards"
    before = f.sequence.outcome["targets"][t.key]["attacks"][f.pc.key]
    participant_atout(participant=f.pc, actor=f.player, use="change", card=f"attack:{t.key}:{index}",
                      direction=wanted, expected_version=f.sequence.version)  # fmt: skip
    f.reload()
    after = f.sequence.outcome["targets"][t.key]["attacks"][f.pc.key]
    assert after - before == (1 if wanted == SUCCESS else -1)


def test_each_choice_shows_the_revers_it_would_bring_and_they_are_the_ones_the_draw_then_has() -> None:
    f = _drawn()
    choices = card_changes(f.sequence, _everyone(f), Participant.objects.get(pk=f.pc.pk))
    assert len(choices) == 5 + 0  # every card Jim has on the table, attack then defence
    for i, c in enumerate(choices):
        assert c.direction == (FAILURE if _reads(f, i) else SUCCESS)
    # The preview is the truth: buy the first change that moves a Revers, and the draw reads as it said.
    chosen = next(c for c in choices if c.changes)
    participant_atout(participant=f.pc, actor=f.player, use="change", card=chosen.ref, direction=chosen.direction,
                      expected_version=f.sequence.version)  # fmt: skip
    sequence = Sequence.objects.get(pk=f.sequence.pk)
    names = {p.character.name: p.key for p in _everyone(f)}
    for r in chosen.changes:
        assert sequence.outcome["targets"][names[r.name]]["severity"] == r.after


def test_the_form_offers_every_card_with_its_outcome_and_selects_none() -> None:
    f = _drawn()
    page = login(f.player).get(reverse("conflicts:sequence", args=[f.campaign.pk, f.sequence.pk])).content.decode()
    form = page[page.index('class="stack card-change"') :]
    form = form[: form.index("</form>")]
    radios = re.findall(r'<input type="radio" name="card" value="([^"]+)" required>', form)
    assert len(radios) == 5 and all(v.split("|")[1] in (SUCCESS, FAILURE) for v in radios)
    assert "checked" not in form and "<select" not in form
    assert "→" in form  # each choice says which way the card turns and what the Revers become
