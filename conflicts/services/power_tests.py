"""A psychic power used from the sheet: its Potentiel point spent, then its Test (or its simple conflict).

« L'utilisation des pouvoirs psychiques est résolu à travers un Test dont la Difficulté dépend du rang requis
pour avoir le droit d'utiliser ledit pouvoir ou du niveau de pouvoir exigé par l'effet recherché. » (appendix 1)
« Lorsque la victime peut tenter de résister aux effets d'un pouvoir, le Narrateur choisit une Caractéristique
appropriée … pour le défenseur, le Mage ou Psion utilise quant à lui son Domaine de pouvoir. Le tout est résolu
sous la forme d'un Conflit simple » (VI).

The use and its roll are one transaction: a roll the rules refuse (a character out of action, a player asking
for a resisted use, which the narrator runs) gives the point back, as nothing was written. The sheet's change
is the characters app's ``character.power_used`` event (it refreshes the sheet live); the roll is the ordinary
``test.rolled`` (or ``conflict.simple``) event, which names the power, so its result card and Atout
follow-ups work as for any Test.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from characters.models import Character
from conflicts import sheets
from conflicts.rules.ranks import Difficulty
from conflicts.services.fudge_tests import fudge_test_roll, refuse_out_of_action, simple_conflict_roll


@transaction.atomic
def power_test_roll(
    *, character: Character, actor: User, data: Mapping[str, Any], power: Mapping[str, Any],
    opponent: Character | None = None, opponent_data: Mapping[str, Any] | None = None,
    rng: random.Random | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Use the power of ``power`` (``power_rank``, ``masked``, ``several_objects``, ``fed_by``) of the domain
    ``data["trait_code"]``, then roll: a Test at the Difficulty the use asks for, or, against ``opponent``, a
    simple conflict of the domain against ``opponent_data["trait_code"]``."""
    domain = str(data["trait_code"])
    # Before the point is spent: « Il ne peut plus agir » (État critique), whoever the power is aimed at.
    refuse_out_of_action(character, *([opponent] if opponent is not None else []))
    use = sheets.power_use(
        character=character, actor=actor, domain=domain, power_rank=int(power["power_rank"]),
        masked=bool(power.get("masked")), several_objects=bool(power.get("several_objects")),
        fed_by=str(power.get("fed_by") or ""),
    )  # fmt: skip
    shown = {"power_rank": int(power["power_rank"]), "masked": bool(power.get("masked")),
             "several_objects": bool(power.get("several_objects")), "fed_by": str(power.get("fed_by") or ""),
             "difficulty": use.difficulty, "potential_left": use.potential_left}  # fmt: skip
    if opponent is not None:
        return simple_conflict_roll(first=character, second=opponent, actor=actor, first_data={**data, "power": shown},
                                    second_data=opponent_data or {}, rng=rng)  # fmt: skip
    difficulty = Difficulty[use.difficulty.upper()]
    return fudge_test_roll(character=character, actor=actor, rng=rng,
                           data={**data, "difficulty": int(difficulty), "power": shown})  # fmt: skip
