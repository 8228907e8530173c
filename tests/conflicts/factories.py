"""A table ready for a conflict, built through the real services."""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.contrib.auth.models import User

from campaigns.models import Campaign
from characters.models import Character
from characters.services.creation import npc_create
from conflicts.models import Participant, Scene, Sequence
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_draw
from conflicts.services.sequences import participant_add, scene_create, sequence_create
from tests.characters.factories import pc, table


@dataclass
class Fight:
    campaign: Campaign
    narrator: User
    player: User
    hero: Character
    thugs: list[Character]
    scene: Scene
    sequence: Sequence
    pc: Participant
    npcs: list[Participant]

    def reload(self) -> Fight:
        self.sequence.refresh_from_db()
        self.pc.refresh_from_db()
        for n in self.npcs:
            n.refresh_from_db()
        return self


def npc(campaign: Campaign, narrator: User, name: str, combat: int = 3, out_after: int | None = None) -> Character:
    return npc_create(
        campaign=campaign, actor=narrator, name=name, concept="Truand", ranks={"combat": combat}, out_after=out_after
    )


def fight(npcs: int = 2, hero_combat: int = 5, out_after: int | None = None, **sequence: object) -> Fight:
    """Jim (Combat Bon) against ``npcs`` thugs (Combat Médiocre) in the scene « Les docks »."""
    campaign, narrator, players = table(players=1)
    hero = pc(campaign, players[0], ranks={"combat": hero_combat, "esprit": 3})
    thugs = [npc(campaign, narrator, f"Truand {i + 1}", out_after=out_after) for i in range(npcs)]
    scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
    seq = sequence_create(scene=scene, actor=narrator, data={"title": "Bagarre sur le quai", **sequence})
    me = participant_add(sequence=seq, actor=narrator, character=hero, side="PJ", goal="passer", trait_code="combat")
    others = [
        participant_add(
            sequence=seq, actor=narrator, character=t, side="Truands", goal="l'arrêter", trait_code="combat"
        )
        for t in thugs
    ]
    seq.refresh_from_db()
    return Fight(campaign, narrator, players[0], hero, thugs, scene, seq, me, others)


def draw(p: Participant, actor: User, split: Split, seed: int = 1, version: int | None = None) -> Participant:
    p.sequence.refresh_from_db()
    return participant_draw(
        participant=p,
        actor=actor,
        expected_version=version if version is not None else p.sequence.version,
        split=split,
        rng=random.Random(seed),
    )
