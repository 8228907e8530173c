"""The "Sequences under way" card is built from rows kept by what they show (conflicts/running_card.py): one
player's « your turn » never reaches another's card, a change to what a row shows is seen at once, and
a row rendered for one viewer serves every viewer whose row shows the same."""

from __future__ import annotations

from unittest import mock

import pytest

from campaigns.live import Viewer, extra_fragments, home_subject
from campaigns.models import Membership, Role
from conflicts import running_card
from conflicts.models import Scene
from conflicts.running_table import running_sequences
from conflicts.services.sequences import participant_add, sequence_create
from tests.campaigns.factories import UserFactory, membership
from tests.characters.factories import pc
from tests.conflicts.factories import fight

pytestmark = pytest.mark.django_db


def second_player_in_a_duel_of_their_own(f):  # type: ignore[no-untyped-def]
    other = UserFactory()
    Membership.objects.create(campaign=f.campaign, user=other, role=Role.PLAYER)
    hero = pc(f.campaign, other, name="Rita Hayworth", ranks={"combat": 4, "esprit": 3})
    duel = sequence_create(scene=f.scene, actor=f.narrator, data={"title": "Duel de Rita"})
    participant_add(sequence=duel, actor=f.narrator, character=hero, side="PJ", goal="passer", trait_code="combat")
    return other


def card(member: Membership) -> str:
    return running_card.running_card(running_sequences(member))


def test_a_players_turn_is_on_their_card_only_and_shared_rows_are_rendered_once() -> None:
    f = fight(npcs=1)
    other = second_player_in_a_duel_of_their_own(f)
    jim_side, rita_side = membership(f.campaign, f.player), membership(f.campaign, other)
    with mock.patch.object(running_card, "render_to_string", wraps=running_card.render_to_string) as rendered:
        jim_card, rita_card = card(jim_side), card(rita_side)
        rows = [c for c in rendered.call_args_list if c.args[0] == running_card.ROW]
    assert "Your turn to draw: Jim Bones" in jim_card and "Rita Hayworth" not in jim_card
    assert "Your turn to draw: Rita Hayworth" in rita_card and "Jim Bones" not in rita_card
    # Two sequences, each read by one of them as « your turn » and by the other as a plain line: four rows.
    assert len(rows) == 4
    with mock.patch.object(running_card, "render_to_string", wraps=running_card.render_to_string) as rendered:
        assert card(jim_side) == jim_card and card(rita_side) == rita_card
        assert [c for c in rendered.call_args_list if c.args[0] == running_card.ROW] == []


def test_a_row_follows_what_it_shows_and_reads_as_it_would_without_keeping(settings) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=1)
    jim_side = membership(f.campaign, f.player)
    assert "Les docks" in card(jim_side)
    Scene.objects.filter(pk=f.scene.pk).update(title="Le port")  # a scene renamed: no sequence version bumps
    kept = card(jim_side)
    assert "Le port" in kept and "Les docks" not in kept
    settings.FRAGMENT_CACHE = False
    assert card(jim_side) == kept


def test_the_narrators_npc_turn_never_reaches_a_players_live_card() -> None:
    f = fight(npcs=1)
    other = second_player_in_a_duel_of_their_own(f)
    from campaigns.models import Event

    event = Event.objects.filter(kind__startswith="sequence.").latest("position")
    home = frozenset({home_subject(f.campaign.pk)})
    narrator = "".join(extra_fragments(event, Viewer(membership(f.campaign, f.narrator), watching=home)))
    players = "".join(extra_fragments(event, Viewer(membership(f.campaign, other), watching=home)))
    assert f"Your turn to draw: {f.npcs[0].character.name}" in narrator
    assert f.npcs[0].character.name not in players and "Your turn to draw: Rita Hayworth" in players
