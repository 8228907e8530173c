"""One seeded campaign and two games, shared by the security tests (built through the real services)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db.models import Max, Sum

from campaigns import services as campaign_services
from campaigns.models import Campaign, Event, GameSession, Membership, Visibility
from characters.models import Character
from characters.services.creation import npc_create
from conflicts import decks as deck_store
from conflicts.models import Deck, Participant, Scene, Sequence
from conflicts.services.sequences import participant_add, scene_create, sequence_create
from frag.models import Game as FragGame
from tests.campaigns.factories import PASSWORD, UserFactory, campaign_with, membership, narrator_of, players_of
from tests.characters.factories import open_session, pc
from tests.frag.factories import game_with
from tragic import services as tragic_services
from tragic.models import Deck as TragicDeck
from tragic.models import Game as TragicGame

STEEL, GANG = "ready:acier-et-plomb", "ready:la-bande-des-terres-desolees"
SKILLS = ["medecine-1", "troc-1", "science-1"]
NPC_SECRET = "Zorglub-secret-npc-motive"
NARRATOR_SECRET = "Narrator-only-plot-twist-7731"
PRIVATE_NOTE = "Alice-private-note-4412"


@dataclass
class World:
    campaign: Campaign
    narrator: User
    alice: User
    bob: User
    stranger: User
    alice_pc: Character
    bob_pc: Character
    npc: Character
    game_session: GameSession
    public_event: Event
    secret_event: Event
    private_note: Event
    scene: Scene
    sequence: Sequence
    participant: Participant
    npc_participant: Participant
    deck: Deck
    tragic: TragicGame
    tragic_deck: TragicDeck
    frag: FragGame

    def login(self, client: Any, user: User | None) -> Any:
        client.logout()
        if user is not None:
            assert client.login(username=user.username, password=PASSWORD)
        client.cookies["django_language"] = "en"
        return client

    def bob_membership(self) -> Membership:
        return membership(self.campaign, self.bob)


def tragic_duel(alice: User, bob: User, seed: int = 11) -> TragicGame:
    game = tragic_services.game_create(user=alice, deck_ref=STEEL, opponent="invite", seed=seed)
    game = tragic_services.game_join(token=game.invite_token, user=bob, deck_ref=GANG)
    for kind, field, value in (("choose_traits", "traits", []), ("choose_skills", "skills", SKILLS)):
        for user in (alice, bob):
            game = tragic_services.game_act(
                game=game, user=user, action={"kind": kind, field: value}, expected_version=game.version
            )
    return game


def build_world() -> World:
    campaign = campaign_with(players=2, savage_states=True)
    narrator = narrator_of(campaign)
    alice, bob = players_of(campaign)
    alice_pc = pc(campaign, alice, name="Alice PC")
    bob_pc = pc(campaign, bob, name="Bob PC")
    npc = npc_create(campaign=campaign, actor=narrator, name="Le Truand", concept=NPC_SECRET, ranks={"combat": 3})
    game_session = open_session(campaign, narrator)
    public_event = campaign_services.note_write(membership=membership(campaign, bob), text="Bob public note")
    secret_event = campaign_services.event_append(
        campaign=campaign,
        kind="note",
        payload={"text": NARRATOR_SECRET},
        actor=narrator,
        visibility=Visibility.NARRATORS,
    )
    private_note = campaign_services.note_write(membership=membership(campaign, alice), text=PRIVATE_NOTE, private=True)
    scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
    sequence = sequence_create(scene=scene, actor=narrator, data={"title": "Bagarre"})
    participant = participant_add(
        sequence=sequence, actor=narrator, character=alice_pc, side="PJ", goal="passer", trait_code="combat"
    )
    npc_participant = participant_add(
        sequence=sequence, actor=narrator, character=npc, side="Truands", goal="bloquer", trait_code="combat"
    )
    settings = deck_store.table_settings(campaign)
    deck = Deck.objects.filter(campaign=campaign).first() or deck_store.deck_get(
        campaign, "table", "table", None, lock=False
    )
    assert settings is not None and deck is not None
    tragic = tragic_duel(alice, bob)
    tragic_deck = tragic_services.deck_create(owner=alice, name="Mon deck", copy_mode="quad")
    frag = game_with(alice, others=[bob], bots=0)
    sequence.refresh_from_db()
    return World(
        campaign, narrator, alice, bob, UserFactory(), alice_pc, bob_pc, npc, game_session, public_event,
        secret_event, private_note, scene, sequence, participant, npc_participant, deck, tragic, tragic_deck, frag,
    )  # fmt: skip


@pytest.fixture
def world(db: Any) -> World:
    return build_world()


def fingerprint() -> dict[str, tuple[int, int]]:
    """Row count and sum of versions of every model: any write shows up as a difference."""
    result = {}
    for model in apps.get_models():
        if model._meta.app_label in ("sessions", "admin", "contenttypes", "auth"):
            continue
        fields = {f.name for f in model._meta.get_fields()}
        qs = model.objects.all()
        total = 0
        if "version" in fields:
            total = qs.aggregate(v=Sum("version"))["v"] or 0
        elif "updated_at" in fields:
            total = hash(qs.aggregate(v=Max("updated_at"))["v"])
        result[model._meta.label] = (qs.count(), total)
    return result
