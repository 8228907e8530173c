"""The "Sequences under way" card is a region (conflicts.running_region.RUNNING): one player's « your turn » never reaches
another's card, a change to what it shows is seen at once, and a card kept for a viewer is served again until the
table changes."""

from __future__ import annotations

from unittest import mock

import pytest

from campaigns.live import Viewer, extra_fragments, home_subject
from campaigns.models import Membership, Role
from conflicts.rules.budget import Split
from conflicts.running_region import running_card
from conflicts.services.sequences import participant_add, sequence_create
from core import kept_regions
from tests.campaigns.factories import UserFactory, membership
from tests.characters.factories import pc
from tests.conflicts.factories import draw, fight

pytestmark = pytest.mark.django_db


def second_player_in_a_duel_of_their_own(f):  # type: ignore[no-untyped-def]
    other = UserFactory()
    Membership.objects.create(campaign=f.campaign, user=other, role=Role.PLAYER)
    hero = pc(f.campaign, other, name="Rita Hayworth", ranks={"combat": 4, "esprit": 3})
    duel = sequence_create(scene=f.scene, actor=f.narrator, data={"title": "Duel de Rita"})
    participant_add(sequence=duel, actor=f.narrator, character=hero, side="PJ", goal="passer", trait_code="combat")
    return other


def card(member: Membership) -> str:
    return str(running_card(member))


def test_a_players_turn_is_on_their_card_only_and_a_kept_card_is_not_rendered_again(settings) -> None:  # type: ignore[no-untyped-def]
    settings.FRAGMENT_CACHE = True
    f = fight(npcs=1)
    other = second_player_in_a_duel_of_their_own(f)
    jim_side, rita_side = membership(f.campaign, f.player), membership(f.campaign, other)
    jim_card, rita_card = card(jim_side), card(rita_side)
    assert "Your turn to draw: Jim Bones" in jim_card and "Rita Hayworth" not in jim_card
    assert "Your turn to draw: Rita Hayworth" in rita_card and "Jim Bones" not in rita_card
    with mock.patch.object(kept_regions, "render_to_string", wraps=kept_regions.render_to_string) as rendered:
        assert card(jim_side) == jim_card and card(rita_side) == rita_card
        assert rendered.call_args_list == []


def test_the_card_follows_what_it_shows_and_reads_as_it_would_without_keeping(settings) -> None:  # type: ignore[no-untyped-def]
    settings.FRAGMENT_CACHE = True
    f = fight(npcs=1)
    jim_side = membership(f.campaign, f.player)
    assert "Your turn to draw: Jim Bones" in card(jim_side)
    draw(f.pc, f.player, Split(defence={f.pc.key: 5}))  # Jim drew: an Event touches sequences:<campaign>
    kept = card(membership(f.campaign, f.player))  # a request's membership: the stream head read afresh
    assert "Bagarre sur le quai" in kept and "Your turn to draw" not in kept
    settings.FRAGMENT_CACHE = False
    assert card(membership(f.campaign, f.player)) == kept


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
