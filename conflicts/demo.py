"""The demo campaign's first conflict: a scene, a sequence with one draw played and the next one open."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from campaigns.models import Role
from characters.models import Character
from characters.services.creation import npc_create
from conflicts import decks as deck_store
from conflicts.models import Participant
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_draw
from conflicts.services.sequences import participant_add, scene_create, sequence_create
from conflicts.services.settling import sequence_settle
from conflicts.setup import budget_of, opponents_of, penalty_of

if TYPE_CHECKING:
    from campaigns.models import Campaign


def demo_sequence(campaign: Campaign) -> None:
    narrator = campaign.memberships.filter(role=Role.NARRATOR).select_related("user").first()
    jim = Character.objects.filter(campaign=campaign, name="Jim Bones").select_related("owner").first()
    lisa = Character.objects.filter(campaign=campaign, name="Lisa Benny").select_related("owner").first()
    if narrator is None or jim is None or lisa is None or jim.owner is None or lisa.owner is None:
        return
    actor = narrator.user
    driver = npc_create(
        campaign=campaign, actor=actor, name="Le chauffeur", concept="Homme de main de la société secrète",
        goal="Ne rien dire", ranks={"combat": 3, "vigueur": 4}, out_after=2,
    )  # fmt: skip
    scene = scene_create(
        campaign=campaign, actor=actor, title="La ruelle derrière le bal",
        description="La voiture PA-1925 est garée dans la ruelle ; son chauffeur fume, adossé au capot.",
    )  # fmt: skip
    sequence = sequence_create(scene=scene, actor=actor, data={"title": "Coincer le chauffeur", "collective": True})
    rng = random.Random(1925)
    participant_add(sequence=sequence, actor=actor, character=jim, side="Jim et Lisa",
                             goal="le faire parler", trait_code="vigueur")  # fmt: skip
    participant_add(sequence=sequence, actor=actor, character=lisa, side="Jim et Lisa",
                             goal="lui couper la retraite", trait_code="habilete")  # fmt: skip
    participant_add(sequence=sequence, actor=actor, character=driver, side="Le chauffeur",
                             goal="s'enfuir", trait_code="combat")  # fmt: skip
    everyone = list(Participant.objects.filter(sequence=sequence).select_related("character").order_by("position"))
    settings = deck_store.table_settings(campaign)
    sequence.refresh_from_db()
    for p in everyone:
        budget = budget_of(p, sequence, settings, penalty=penalty_of(p, sequence), everyone=everyone)
        target = opponents_of(p, everyone)[0]
        attack = budget.free + budget.attack_only
        split = Split(attack={target.key: max(0, attack - 1)}, defence={p.key: budget.total - max(0, attack - 1)})
        owner = p.character.owner or actor
        participant_draw(participant=p, actor=owner, expected_version=None, split=split, rng=rng)
    sequence.refresh_from_db()
    sequence_settle(sequence=sequence, actor=actor, expected_version=sequence.version)
