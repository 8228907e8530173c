"""A Sequence never freezes when a participant can no longer act (issue 27, item 2).

CECJ V-2: « Lorsque tous les participants ont tiré leurs cartes, les succès obtenus … sont transformés en Revers ».
State cards, État critique: « Il ne peut plus agir et ne reçoit plus de carte d'initiative ». The draw resolves
once everyone who can act has drawn; the narrator can take a participant out, or end the Sequence, at any moment,
with the reason in the log.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Event
from conflicts.models import Deck, Participant, Phase
from conflicts.rules.budget import Split
from conflicts.running_table import running_table
from conflicts.services.leaving import participant_take_out, sequence_end
from conflicts.services.npc_draws import sequence_draw_npcs
from conflicts.services.settling import sequence_settle
from core.errors import PermissionRefused, ServiceError
from states.models import SavageState
from states.selectors import settings_for
from states.services.wounds import savage_wounds_set
from tests.conflicts.factories import draw, fight

pytestmark = pytest.mark.django_db


def test_the_fourth_wound_set_mid_draw_lets_the_draw_resolve_without_that_participant() -> None:
    """Jim and the first thug have drawn; the narrator sets the second thug's fourth wound: the draw resolves."""
    f = fight(npcs=2)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))
    draw(f.npcs[0], f.narrator, Split(attack={f.pc.key: 1}, defence={f.npcs[0].key: 2}), seed=2)
    assert f.reload().sequence.phase == Phase.DRAWING
    savage_wounds_set(character=f.thugs[1], actor=f.narrator, count=4, expected_version=None)
    assert f.reload().sequence.phase == Phase.RESOLVED
    assert Event.objects.filter(kind="sequence.resolved").count() == 1
    sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=None)
    assert f.reload().sequence.phase in (Phase.DRAWING, Phase.ENDED)


@pytest.mark.parametrize("weigh", [True, False])
def test_one_in_etat_critique_is_not_waited_for_and_the_console_does_not_count_it(weigh: bool) -> None:
    """Whatever the bridge's setting: « Il ne peut plus agir » holds regardless."""
    f = fight(npcs=2)
    options = settings_for(f.campaign)
    options.weigh_on_cecj = weigh
    options.save()
    savage_wounds_set(character=f.thugs[1], actor=f.narrator, count=4, expected_version=None)
    with pytest.raises(ServiceError, match="État critique"):
        draw(f.npcs[1], f.narrator, Split(defence={f.npcs[1].key: 3}))
    assert sorted(name for _owner, _seq, name in running_table(f.campaign.pk).waiting) == ["Jim Bones", "Truand 1"]
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}))
    client = Client()
    client.force_login(f.narrator)
    page = client.get(f.sequence.get_absolute_url()).content.decode()
    assert "1 sur 2 doit encore tirer" in page  # Jim and the first thug; not the thug in État critique
    sequence_draw_npcs(sequence=f.sequence, actor=f.narrator, expected_version=f.reload().sequence.version)
    assert f.reload().sequence.phase == Phase.RESOLVED
    assert not f.npcs[1].drawn


def test_a_side_left_with_nobody_able_to_act_loses_the_sequence_at_settling() -> None:
    """Jim alone against one thug who falls into État critique: the draw resolves, and the sequence ends."""
    f = fight(npcs=1)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}))
    savage_wounds_set(character=f.thugs[0], actor=f.narrator, count=4, expected_version=None)
    sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=None)
    f.reload()
    assert f.sequence.phase == Phase.ENDED and f.sequence.winner == "PJ"


def test_a_revers_turned_into_the_fourth_wound_at_settling_does_not_freeze_the_next_draw() -> None:
    """With « Physical Revers become wounds », the thug's Revers décisif is État critique: the next draw does
    not wait for him (before, the draw waited forever and settling was refused)."""
    f = fight(npcs=2)
    Participant.objects.filter(pk=f.npcs[1].pk).update(out_after=None)  # out only by État critique here
    options = settings_for(f.campaign)
    options.revers_to_wounds = True
    options.save()
    savage_wounds_set(character=f.thugs[1], actor=f.narrator, count=3, expected_version=None)
    for seed in range(1, 60):  # the first deal that gives the second thug a Revers or a Revers sérieux
        draw(f.pc, f.player, Split(attack={f.npcs[1].key: 5}), seed=seed)
        draw(f.npcs[0], f.narrator, Split(defence={f.npcs[0].key: 3}), seed=seed)
        draw(f.npcs[1], f.narrator, Split(), seed=seed)  # Combat Médiocre −3 wounds: no card left
        if f.reload().sequence.outcome["targets"].get(f.npcs[1].key, {}).get("severity") in (1, 2):
            break
        sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=None)
    sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=None)
    f.reload()
    assert SavageState.objects.get(character=f.thugs[1]).incapacitated and f.npcs[1].active
    assert f.sequence.phase == Phase.DRAWING
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}))
    draw(f.npcs[0], f.narrator, Split(defence={f.npcs[0].key: 3}))
    assert f.reload().sequence.phase == Phase.RESOLVED


def test_the_narrator_takes_a_participant_out_with_a_reason_and_the_draw_goes_on() -> None:
    f = fight(npcs=2)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}))
    draw(f.npcs[0], f.narrator, Split(defence={f.npcs[0].key: 3}))
    with pytest.raises(PermissionRefused):
        participant_take_out(participant=f.npcs[1], actor=f.player, reason="il fuit", expected_version=None)
    with pytest.raises(ServiceError, match="reason"):
        participant_take_out(participant=f.npcs[1], actor=f.narrator, reason="  ", expected_version=None)
    participant_take_out(participant=f.npcs[1], actor=f.narrator, reason="Il s'enfuit par le quai",
                         expected_version=f.reload().sequence.version)  # fmt: skip
    f.reload()
    assert not f.npcs[1].active and f.sequence.phase == Phase.RESOLVED
    left = Event.objects.get(kind="sequence.left")
    assert left.payload["reason"] == "Il s'enfuit par le quai" and left.payload["name"] == "Truand 2"


def test_the_narrator_ends_a_sequence_at_any_moment_and_the_cards_go_back() -> None:
    f = fight(npcs=1)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}))
    with pytest.raises(PermissionRefused):
        sequence_end(sequence=f.sequence, actor=f.player, reason="fin", expected_version=None)
    sequence_end(sequence=f.sequence, actor=f.narrator, reason="La police arrive", expected_version=None)
    f.reload()
    assert f.sequence.phase == Phase.ENDED and not f.pc.drawn and f.pc.hand == {}
    ended = Event.objects.get(kind="sequence.ended")
    assert ended.payload["reason"] == "La police arrive"
    decks = list(Deck.objects.filter(campaign=f.campaign))
    assert decks and all(not d.in_play for d in decks) and any(d.discard for d in decks)  # no card left in play
    with pytest.raises(ServiceError):
        sequence_end(sequence=f.sequence, actor=f.narrator, reason="encore", expected_version=None)


def test_the_narrators_page_takes_out_and_ends_with_the_reason_in_the_log() -> None:
    f = fight(npcs=2)
    client = Client()
    client.force_login(f.narrator)
    page = client.get(f.sequence.get_absolute_url()).content.decode()
    assert reverse("conflicts:take_out", args=[f.campaign.pk, f.sequence.pk]) in page
    version = f.sequence.version
    client.post(reverse("conflicts:take_out", args=[f.campaign.pk, f.sequence.pk]),
                {"participant": f.npcs[1].pk, "reason": "assommé", "version": version})  # fmt: skip
    assert not f.reload().npcs[1].active
    client.post(reverse("conflicts:end", args=[f.campaign.pk, f.sequence.pk]),
                {"reason": "ils se rendent", "version": f.sequence.version})  # fmt: skip
    assert f.reload().sequence.phase == Phase.ENDED
    log = client.get(reverse("campaigns:log", args=[f.campaign.pk])).content.decode()
    assert "assommé" in log and "ils se rendent" in log
