"""How each Savage-style state event reads in the log, in French and in English (states/chronicle.py).

Describers read the payload only (names, dice, outcomes), so an unsaved Event is enough: no database. Each case
is one event kind (or one branch of it) with the words a table must read in both languages: the dice and the
outcome of a roll, the plural of a count, the effect of a third level of Fatigue.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

import states.chronicle  # noqa: F401 - registers the describers
from campaigns.chronicle import describe, kind_label
from campaigns.models import Event
from states.chronicle import action_label, fatigue_source_label, modifier_label, outcome_label, trait_label

SUCCESS = {"die": "d6", "trait_faces": [4], "total": 4, "outcome": "success"}
FAILURE = {"die": "d6", "trait_faces": [2], "total": 2, "outcome": "failure"}


def _text(kind: str, payload: dict[str, Any], language: str) -> str:
    with translation.override(language):
        return describe(Event(kind=kind, payload=payload))


# (kind, payload, French words, English words): every words' string must be in the sentence.
CASES: list[tuple[str, dict[str, Any], list[str], list[str]]] = [
    (
        "savage.settings_changed",
        {"changed": {"revers_to_wounds": [False, True], "rank_3": ["d6", "d8"], "reads_vigor": ["", "Force"]}},
        [
            "quelqu’un a modifié les réglages des états à la Savage : dé de trait au rang Médiocre : d6 → d8",
            "Vigueur lue depuis : l’Aptitude qui porte son nom → Force",
            "les Revers physiques deviennent des Blessures : non → oui.",
        ],
        [
            "someone changed the Savage-style settings: trait die at rank Mediocre: d6 → d8",
            "Vigour read from: the Aptitude bearing its name → Force · physical Revers become wounds: no → yes.",
        ],
    ),
    (
        "savage.settings_changed",
        {"revers_to_wounds": True},
        ["quelqu’un a modifié les réglages", "les Revers physiques deviennent des Blessures."],
        ["someone changed the Savage-style settings: physical Revers become wounds."],
    ),
    (
        "savage.settings_changed",
        {},
        ["les Revers restent des Revers."],
        ["someone changed the Savage-style settings: Revers stay Revers."],
    ),
    (
        "savage.sheet_changed",
        {"character": "Jim", "dice": {"vigor": "d8", "smarts": "d6", "luck": "d4"}},
        ["Dés de Trait de Jim : Vigueur d8, Intellect d6, luck d4."],
        ["Jim's trait dice: Vigour d8, Smarts d6, luck d4."],
    ),
    ("savage.shaken_set", {"character": "Jim", "shaken": True}, ["Jim est Secoué."], ["Jim is Shaken."]),
    ("savage.shaken_set", {"character": "Jim"}, ["Jim n’est plus Secoué."], ["Jim is no longer Shaken."]),
    (
        "savage.shaken_roll",
        {
            "character": "Jim",
            "result": "ends_acts",
            "roll": {
                "die": "d8",
                "trait_faces": [3],
                "wild_faces": [6, 2],
                "total": 6,
                "outcome": "raise",
                "raises": 2,
                "target": 5,
                "modifiers": [{"key": "wounds", "value": -2}, {"key": "aim", "value": 2}],
            },
        },
        [
            "Jim fait un jet d’Âme pour se reprendre",
            "d8 [3] · dé Joker [6+2] · blessures −2 · viser +2 = 6",
            "(seuil 5) → 2 relances",
            "n’est plus Secoué et agit normalement.",
        ],
        [
            "Jim rolls Spirit to recover: d8 [3] · Wild Die [6+2] · wounds −2 · aim +2 = 6 (target 5) → 2 raises;",
            "is no longer Shaken and acts normally.",
        ],
    ),
    (
        "savage.token_spent",
        {"character": "Jim"},
        ["Jim dépense un Jeton pour ne plus être Secoué"],
        ["Jim spends a token to shake off Shaken and acts normally."],
    ),
    (
        "savage.token_awarded",
        {"character": "Jim", "count": 2, "state": {"tokens": 3}},
        ["Jim reçoit 2 Jetons (3 désormais)."],
        ["Jim receives 2 tokens (3 now)."],
    ),
    (
        "savage.incapacitation_roll",
        {"character": "Jim", "roll": FAILURE, "result": "permanent_injury_and_bleeding"},
        ["Jim, en État critique, fait un jet de Vigueur : d6 [2] = 2 → échec"],
        ["Jim, incapacitated, rolls Vigour: d6 [2] = 2 → failure; suffers a permanent injury and is bleeding out."],
    ),
    (
        "savage.wounds_taken",
        {"character": "Jim", "incoming": 3, "soak_roll": SUCCESS, "soaked": 1, "state": {"wounds": 2}},
        [
            "Jim subit 3 Blessures.",
            "Encaissement avec un Jeton : d6 [4] = 4 → succès ; 1 Blessure de moins.",
            "Blessures : 2.",
        ],
        ["Jim takes 3 wounds.", "Soak with a token: d6 [4] = 4 → success; 1 wound fewer.", "Wounds: 2."],
    ),
    (
        "savage.wounds_taken",
        {"character": "Jim", "incoming": 1, "state": {"wounds": 4}, "incapacitated_now": True},
        ["Jim subit 1 Blessure.", "Quatrième Blessure : État critique, le jet de Vigueur est attendu."],
        ["Jim takes 1 wound.", "Fourth wound: Incapacitated, the Vigour roll is due."],
    ),
    (
        "savage.wounds_set",
        {"character": "Jim", "from": 1, "to": 4, "incapacitated_now": True},
        ["Blessures de Jim : 1 → 4.", "Quatrième Blessure : État critique"],
        ["Jim's wounds: 1 → 4.", "Fourth wound: Incapacitated"],
    ),
    (
        "savage.revers_wounds",
        {"character": "Jim", "severity": 3, "taken": 2, "incapacitated_now": True},
        ["Le Revers de Jim (gravité 3) devient 2 Blessures.", "Quatrième Blessure"],
        ["Jim's Revers (severity 3) becomes 2 wounds.", "Fourth wound"],
    ),
    (
        "savage.revers_wounds",
        {"character": "Jim", "severity": 1, "taken": 1},
        ["Le Revers de Jim (gravité 1) devient 1 Blessure."],
        ["Jim's Revers (severity 1) becomes 1 wound."],
    ),
    (
        "savage.bleeding_set",
        {"character": "Jim", "bleeding_out": True},
        ["Jim est victime d’une Hémorragie."],
        ["Jim is bleeding out."],
    ),
    ("savage.bleeding_set", {"character": "Jim"}, ["L’Hémorragie de Jim a cessé."], ["Jim is no longer bleeding out."]),
    (
        "savage.bleeding_roll",
        {"character": "Jim", "roll": FAILURE, "result": "unconscious", "unconscious_faces": [2, 3]},
        [
            "Jim, victime d’une Hémorragie, fait un jet de Vigueur : d6 [2] = 2 → échec",
            "perd connaissance pendant 5 heures",
        ],
        ["Jim, bleeding out, rolls Vigour: d6 [2] = 2 → failure; falls unconscious for 5 hours."],
    ),
    (
        "savage.bleeding_roll",
        {"character": "Jim", "roll": {**FAILURE, "outcome": "critical_failure"}, "result": "dies"},
        ["→ échec critique ; meurt."],
        ["→ critical failure; dies."],
    ),
    (
        "savage.fatigue_gained",
        {
            "character": "Jim",
            "source": "cold",
            "total": 3,
            "critical_now": True,
            "effect": "unconscious_for",
            "hours": 4,
            "faces": [2, 2],
        },
        [
            "Jim gagne un niveau de Fatigue (Froid) : 3.",
            "Troisième niveau : s’effondre, inconscient pour 4 heures.",
            "[2+2]",
        ],
        ["Jim gains a level of Fatigue (Cold): 3.", "Third level: collapses, unconscious for 4 hours. [2+2]"],
    ),
    (
        "savage.fatigue_gained",
        {
            "character": "Jim",
            "source": "drowning",
            "total": 3,
            "critical_now": True,
            "effect": "death_in_rounds",
            "rounds": 5,
        },
        ["(Noyade)", "meurt en 5 rounds s’il n’est pas sorti de l’eau", "jet de Soins à −4"],
        ["(Drowning)", "dies in 5 rounds unless pulled out; revived within 5 minutes by a Healing roll at −4."],
    ),
    (
        "savage.fatigue_gained",
        {"character": "Jim", "source": "hunger", "total": 1},
        ["Jim gagne un niveau de Fatigue (Faim) : 1."],
        ["Jim gains a level of Fatigue (Hunger): 1."],
    ),
    (
        "savage.fatigue_lost",
        {"character": "Jim", "source": "thirst"},
        ["Jim perd un niveau de Fatigue (Soif)."],
        ["Jim loses a level of Fatigue (Thirst)."],
    ),
    (
        "savage.recovery_action",
        {
            "character": "Jim",
            "action": "treatment",
            "effects": [
                {"source": "disease", "days": 3, "faces": [1, 2]},
                {"source": "poison", "accelerated": True},
                {"source": "radiation"},
            ],
        },
        [
            "Jim : traitement.",
            "Maladie : symptômes disparus dans 3 jours [1+2]",
            "Poison : récupération accélérée",
            "Irradiations : la récupération commence",
        ],
        [
            "Jim: treatment. Disease: symptoms gone in 3 days [1+2]; Poison: recovery sped up; Radiation: recovery begins."
        ],
    ),
    (
        "savage.recovery_action",
        {"character": "Jim", "action": "food", "effects": [{"source": "hunger", "days": 1, "faces": [1]}]},
        ["Faim : symptômes disparus dans 1 jour [1]"],
        ["Jim: food. Hunger: symptoms gone in 1 day [1]."],
    ),
    (
        "savage.time_passed",
        {
            "character": "Jim",
            "recovered": {"hunger": 2, "sleep": 1},
            "vigor_rolls": [SUCCESS],
            "woke_up": True,
            "injury_healed": True,
            "died_of": "poison",
        },
        [
            "Le temps passe pour Jim",
            "2 niveaux de Faim disparus",
            "1 niveau de Sommeil disparu",
            "d6 [4] = 4 → succès",
            "se réveille",
            "la blessure de 24 heures est guérie",
            "meurt : Poison",
        ],
        [
            "Time passes for Jim: 2 levels of Hunger gone; 1 level of Sleep gone; d6 [4] = 4 → success; wakes up; "
            "the 24-hour injury is healed; dies of Poison."
        ],
    ),
    (
        "savage.situation_set",
        {"character": "Jim", "situation": "cover_heavy", "on": True},
        ["Jim : couverture importante."],
        ["Jim: heavy cover."],
    ),
    (
        "savage.situation_set",
        {"character": "Jim", "situation": "prone", "on": False},
        ["Jim : fin de « à terre »."],
        ["Jim: no more prone."],
    ),
    (
        "savage.total_defence",
        {"character": "Jim", "roll": SUCCESS, "parry": 7},
        ["Jim passe en défense totale : d6 [4] = 4 → succès ; Parade 7 jusqu’à sa prochaine action"],
        ["Jim goes into total defence: d6 [4] = 4 → success; Parry 7 until their next action, no movement."],
    ),
    (
        "savage.trick_ended",
        {"character": "Jim"},
        ["Jim agit : le malus de −2 en Parade de la ruse prend fin."],
        ["Jim acts: the trick's −2 Parry ends."],
    ),
    (
        "savage.roll",
        {
            "character": "Jim",
            "trait": "agility",
            "roll": SUCCESS,
            "target": 6,
            "parry": {"value": 5},
            "damage_bonus": 4,
        },
        ["Jim fait un jet (Agilité) : d6 [4] = 4 → succès.", "Cible : 6.", "Parade 5.", "Surprise : +4 aux dégâts."],
        ["Jim rolls Agility: d6 [4] = 4 → success. Target: 6. Parry 5. Surprise: +4 damage."],
    ),
    (
        "savage.trick",
        {
            "character": "Harvey",
            "trickster": "Jim",
            "attribute": "smarts",
            "attacker_roll": SUCCESS,
            "defender_roll": FAILURE,
            "result": "distracted_and_shaken",
        },
        [
            "Jim tente une ruse contre Harvey (Intellect) : d6 [4] = 4 → succès contre d6 [2] = 2 → échec",
            "Harvey est distrait (−2 en Parade jusqu’à sa prochaine action) et Secoué.",
        ],
        [
            "Jim tries a trick on Harvey (Smarts): d6 [4] = 4 → success against d6 [2] = 2 → failure;",
            "Harvey is distracted (−2 Parry until their next action) and Shaken.",
        ],
    ),
    (
        "savage.trick",
        {
            "character": "Harvey",
            "trickster": "Jim",
            "attribute": "agility",
            "attacker_roll": FAILURE,
            "defender_roll": SUCCESS,
            "result": "fails",
        },
        ["(Agilité)", "la ruse échoue"],
        ["(Agility)", "; the trick fails."],
    ),
    (
        "savage.round_participants",
        {"names": ["Jim", "Harvey"]},
        ["Au combat : Jim, Harvey."],
        ["In the fight: Jim, Harvey."],
    ),
    (
        "savage.round_dealt",
        {
            "number": 2,
            "cards": {"Jim": "Kc", "Harvey": "10h"},
            "order": ["Jim", "Harvey"],
            "without_card": ["Bob"],
            "ended": ["aim", "defend"],
        },
        ["Round 2 : Jim R♣, Harvey 10♥.", "Sans carte (État critique) : Bob.", "Fin de : viser, défense."],
        ["Round 2: Jim K♣, Harvey 10♥. No card (incapacitated): Bob. Now over: aim, defend."],
    ),
    (
        "savage.round_turn",
        {"number": 2, "character": "Jim", "ended": ["trick"]},
        ["Round 2 : au tour de Jim. Fin de : ruse."],
        ["Round 2: Jim's turn. Now over: trick."],
    ),
    ("savage.round_turn", {"number": 2, "character": "Jim"}, ["au tour de Jim."], ["Round 2: Jim's turn."]),
    ("savage.round_turn", {"number": 3}, ["Round 3 : tout le monde a agi."], ["Round 3: everyone has acted."]),
    ("savage.round_ended", {}, ["quelqu’un met fin au combat."], ["someone ends the fight."]),
]


@pytest.mark.parametrize(("kind", "payload", "french", "english"), CASES, ids=[c[0] for c in CASES])
def test_each_event_kind_reads_in_french_and_in_english(
    kind: str, payload: dict[str, Any], french: list[str], english: list[str]
) -> None:
    fr, en = _text(kind, payload, "fr"), _text(kind, payload, "en")
    for words in french:
        assert words in fr, (words, fr)
    for words in english:
        assert words in en, (words, en)


def test_a_count_of_one_is_singular_and_more_is_plural() -> None:
    one = {"character": "Jim", "recovered": {"hunger": 1}}
    assert "1 niveau de Faim disparu;" not in _text("savage.time_passed", one, "fr")  # the last part ends the line
    assert "1 niveau de Faim disparu." in _text("savage.time_passed", one, "fr")
    assert "1 level of Hunger gone." in _text("savage.time_passed", one, "en")
    bleeding = {"character": "Jim", "roll": FAILURE, "result": "unconscious", "unconscious_faces": [1]}
    assert "perd connaissance pendant 1 heure." in _text("savage.bleeding_roll", bleeding, "fr")
    assert "falls unconscious for 1 hour." in _text("savage.bleeding_roll", bleeding, "en")


def test_the_kinds_have_a_label_in_the_filter_in_both_languages() -> None:
    with translation.override("fr"):
        assert kind_label("savage.bleeding_roll") == "Jet d’Hémorragie"
        assert kind_label("savage.round_participants") == "Suivi des rounds"
    with translation.override("en"):
        assert kind_label("savage.bleeding_roll") == "Bleeding out roll"
        assert kind_label("savage.total_defence") == "Total defence"


def test_an_unknown_key_reads_as_itself_rather_than_failing() -> None:
    """A payload from a newer or older release names a key the labels do not know: the key is shown as is."""
    with translation.override("fr"):
        assert trait_label("") == "Caractéristique"
        assert trait_label("fighting") == "fighting"
        assert modifier_label("gang_up") == "gang_up"
        assert outcome_label("odd") == "odd"
        assert outcome_label("raise", 1) == "relance"
        assert fatigue_source_label("heat") == "heat"
        assert action_label("rest") == "rest"
        unknown = {"character": "Jim", "roll": SUCCESS, "result": "new_result"}
        assert _text("savage.shaken_roll", unknown, "fr").endswith("; new_result.")
