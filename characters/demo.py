"""Full sheets for the demo campaign's characters, written through the real services."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from campaigns.models import Role
from characters.models import Character, CharacterKind, EquipmentCategory, ReversDomain, ReversNature
from characters.rules.atouts import GainReason, Pool
from characters.services.atouts import atout_gain
from characters.services.equipment import equipment_add
from characters.services.revers import revers_inflict
from characters.services.sheet import character_update, trait_set

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign

# Ranks by trait code; names are given for traits outside the campaign's list.
JIM = {"medecine": 5, "esprit": 4, "presence": 3, "vigueur": 3, "connaissances": 3, "psychologie": 3}
LISA = {"esprit": 4, "habilete": 4, "discretion": 4, "manipulation": 4, "interaction": 3, "telepathie": 2}
GARNIER = {"esprit": 4, "combat": 4, "tir": 4, "interaction": 3}
CUSTOM_NAMES = {"psychologie": "Psychologie"}


def demo_characters(campaign: Campaign, players: Sequence[User]) -> tuple[Character, Character, Character]:
    """The demo's cast, before its first session: the two players' characters and the narrator's NPC."""
    jim = Character.objects.create(
        campaign=campaign, owner=players[0], name="Jim Bones", concept="Médecin de campagne hanté par la guerre",
        goal="Retrouver son frère disparu",
    )  # fmt: skip
    lisa = Character.objects.create(
        campaign=campaign, owner=players[1], name="Lisa Benny", concept="Journaliste intrépide du Petit Parisien",
        goal="Publier le scoop qui fera tomber la société secrète",
    )  # fmt: skip
    inspector = Character.objects.create(
        campaign=campaign, kind=CharacterKind.NPC, name="Inspecteur Garnier", concept="Policier las et incorruptible",
        goal="Garder la paix dans son quartier",
    )  # fmt: skip
    return jim, lisa, inspector


def demo_sheets(campaign: Campaign) -> None:
    narrator = campaign.memberships.filter(role=Role.NARRATOR).select_related("user").first()
    if narrator is None:
        return
    actor = narrator.user
    sheets = {"Jim Bones": (JIM, 3), "Lisa Benny": (LISA, 2), "Inspecteur Garnier": (GARNIER, 2)}
    for character in Character.objects.filter(campaign=campaign, name__in=sheets):
        ranks, kept = sheets[character.name]
        for code, rank in ranks.items():
            trait_set(character=character, actor=actor, code=code, rank=rank, name=CUSTOM_NAMES.get(code, ""))
        atout_gain(
            character=character, actor=actor, amount=kept, reason=GainReason.CREATION, pool=Pool.CREATION,
            note="Atouts gardés à la création", game_session=False,
        )  # fmt: skip
        if character.kind == CharacterKind.NPC:
            character_update(
                character=character, actor=actor, expected_version=Character.objects.get(pk=character.pk).version,
                data={"out_after_revers": 2, "narrator_notes": "Sait qui conduisait la voiture PA-1925."},
            )  # fmt: skip
    jim = Character.objects.filter(campaign=campaign, name="Jim Bones").first()
    lisa = Character.objects.filter(campaign=campaign, name="Lisa Benny").first()
    if jim is not None:
        equipment_add(
            character=jim,
            actor=actor,
            data={"category": EquipmentCategory.GEAR, "name": "Trousse de médecin", "bonus": 1},
        )
        equipment_add(
            character=jim, actor=actor,
            data={"category": EquipmentCategory.WEAPON, "name": "Revolver d'ordonnance", "bonus": 1, "era": 2, "firearm": True},
        )  # fmt: skip
    if lisa is not None:
        equipment_add(
            character=lisa, actor=actor, data={"category": EquipmentCategory.GEAR, "name": "Appareil photo", "bonus": 1}
        )
        revers_inflict(
            character=lisa, actor=actor, domain=ReversDomain.SOCIAL, severity=1, nature=ReversNature.BLUNT,
            source="Éconduite au bal par la comtesse",
        )  # fmt: skip
