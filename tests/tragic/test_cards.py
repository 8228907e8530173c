"""Cards are data: the starter set, the ready libraries, and loading errors that say where."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tragic.helpers import pass_all
from tragic.engine.card_files import default_pool, load_cards, load_decklists
from tragic.engine.cards import ATTRIBUTES, CARD_TYPES, KEYWORDS, CardError
from tragic.engine.decks import validate_library


def test_the_starter_set_covers_the_issue():
    pool = default_pool()
    cards = list(pool.cards.values())
    assert len(cards) >= 120
    assert {c.type for c in cards} == set(CARD_TYPES)
    assert {c.attribute for c in cards if c.type not in ("trait", "skill")} == set(ATTRIBUTES)
    assert set().union(*(c.keywords for c in cards)) == set(KEYWORDS)
    assert len(pool.of_type("trait")) >= 10
    assert len(pool.of_type("skill")) >= 12
    for card in cards:
        assert card.name and card.name_en and card.text and card.text_en, card.id


def test_two_ready_libraries_of_sixty_cards():
    decks = load_decklists()
    assert len(decks) >= 2
    for deck in decks.values():
        report = validate_library(list(deck.cards), default_pool(), copy_mode=deck.copy_mode, profile="wiki")
        assert report.ok and not report.warnings, (deck.id, report.errors, report.warnings)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    return path


BASE = 'id = "x-1"\nname = "X"\nname_en = "X"\ntext = "t"\ntext_en = "t"\n'


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('type = "sorcery"\n', "type"),
        ('type = "action"\nlevel = 4\n', "level"),
        ('type = "action"\ncost = { Z = 1 }\n', "cost.Z"),
        ('type = "action"\nkeywords = { FLYING = true }\n', "keywords.FLYING"),
        ('type = "action"\nkeywords = { CIBLAGE = 2 }\n', "keywords.CIBLAGE"),
        ('type = "attack"\n', "attack"),
        ('type = "attack"\nattack = { damage_type = "acid" }\n', "attack.damage_type"),
        ('type = "ally"\npower = 2\n', "life"),
        ('type = "action"\neffects = [{ op = "teleport" }]\n', "effects[0].op"),
        ('type = "action"\neffects = [{ op = "draw" }]\n', "effects[0].n"),
        ('type = "action"\neffects = [{ op = "draw", n = 1, colour = "red" }]\n', "effects[0].colour"),
        ('type = "reaction"\n', "reacts_to"),
        ('type = "special"\n', "attribute"),
        ('type = "trait"\npassive = { wings = true }\n', "passive.wings"),
        ('type = "action"\nslot = "head"\n', "slot"),
        ('type = "action"\nlevel = "two"\n', "level"),
        # A misspelt field is refused, never loaded as a 0 (« powr = 5 »): issue 15.
        ('type = "ally"\nlife = 2\npowr = 5\n', "powr"),
        ('type = "attack"\nattack = { scael = "S" }\n', "attack.scael"),
        ('type = "skill"\nability = { cots = { S = 1 } }\n', "ability.cots"),
        # Typed passives: checked at loading, not a TypeError at the reveal.
        ('type = "trait"\npassive = { armour = { generic = "three" } }\n', "passive.armour.generic"),
        ('type = "trait"\npassive = { draw = 1 }\nmalus = { draw = "one" }\n', "malus.draw"),
        ('type = "trait"\nmalus = { special = { S = true } }\n', "malus.special.S"),
    ],
)
def test_a_broken_card_names_file_card_and_field(tmp_path, body, field):
    path = write(tmp_path, "[[cards]]\n" + BASE + body)
    with pytest.raises(CardError) as error:
        load_cards([path])
    assert (error.value.file, error.value.card, error.value.field) == ("broken.toml", "x-1", field)
    assert "broken.toml" in str(error.value) and "x-1" in str(error.value)


# docs/tragic.md: « Every error when loading names the file, the card id … and the field ». Each effect
# parameter has a type; one of the wrong type used to load and raise a TypeError in play (issue 27, item 8:
# ``power = "lots"`` on ``buff_allies``, played with an ally on the table).
@pytest.mark.parametrize(
    ("effect", "field"),
    [
        ('{ op = "buff_allies", power = "lots" }', "power"),
        ('{ op = "buff_allies", power = 1, life = 1.5 }', "life"),
        ('{ op = "buff_allies", power = true }', "power"),
        ('{ op = "buff_allies", power = 1, until = "forever" }', "until"),
        ('{ op = "draw", n = true }', "n"),
        ('{ op = "draw", n = "2" }', "n"),
        ('{ op = "heal", n = -1 }', "n"),
        ('{ op = "damage", n = 2, damage_type = 3 }', "damage_type"),
        ('{ op = "damage", n = 2, target = "everyone" }', "target"),
        ('{ op = "radiation", n = 1, target = 1 }', "target"),
        ('{ op = "search", card_type = ["ally"], n = 1 }', "card_type"),
        ('{ op = "search", card_type = "ally", attribute = "Z", n = 1 }', "attribute"),
        ('{ op = "destroy", card_type = "anything" }', "card_type"),
        ('{ op = "destroy", card_type = "item", irrevocably = "yes" }', "irrevocably"),
        ('{ op = "grant_keyword", keyword = "FLYING", n = 1 }', "keyword"),
        ('{ op = "grant_keyword", keyword = 7, n = 1 }', "keyword"),
        ('{ op = "return_from_discard", card_type = 1 }', "card_type"),
    ],
)
def test_an_effect_value_of_the_wrong_type_is_refused_at_load(tmp_path, effect, field):
    path = write(tmp_path, "[[cards]]\n" + BASE + f'type = "action"\neffects = [{effect}]\n')
    with pytest.raises(CardError) as error:
        load_cards([path])
    assert (error.value.file, error.value.card, error.value.field) == ("broken.toml", "x-1", f"effects[0].{field}")


def test_every_effect_parameter_has_a_type():
    """A parameter the schema lists but no type checks would load any value: each one is typed."""
    from tragic.engine.cards import EFFECT_OPS, EFFECT_PARAM_TYPES

    assert set().union(*EFFECT_OPS.values()) <= set(EFFECT_PARAM_TYPES)


def test_an_ability_effect_is_checked_too(tmp_path):
    body = 'type = "skill"\nability = { effects = [{ op = "buff_allies", power = "lots" }] }\n'
    with pytest.raises(CardError) as error:
        load_cards([write(tmp_path, "[[cards]]\n" + BASE + body)])
    assert error.value.field == "ability.effects[0].power"


def test_every_shipped_card_passes_the_typed_effects():
    from tragic.engine.card_files import CARDS_DIR

    assert len(load_cards(CARDS_DIR.glob("*.toml")).cards) == len(default_pool().cards)


def test_a_card_without_an_id_is_named_by_its_entry(tmp_path):
    path = write(tmp_path, "[[cards]]\n" + BASE + 'type = "action"\n' + '[[cards]]\nname = "Y"\ntype = "action"\n')
    with pytest.raises(CardError) as error:
        load_cards([path])
    assert (error.value.file, error.value.card, error.value.field) == ("broken.toml", "entry 2", "id")


def test_duplicate_ids_and_bad_toml_are_reported(tmp_path):
    card = "[[cards]]\n" + BASE + 'type = "action"\n'
    with pytest.raises(CardError) as error:
        load_cards([write(tmp_path, card + card)])
    assert error.value.field == "id"
    with pytest.raises(CardError, match="not valid TOML"):
        load_cards([write(tmp_path, "[[cards]\n")])


def test_a_new_card_is_data_not_python():
    """A card given in the config plays like any other, with no code."""
    from tests.tragic.helpers import events_of, give, started, turn_of

    custom = {
        "id": "lance-flammes-2",
        "name": "Lance-flammes",
        "name_en": "Flamer",
        "type": "attack",
        "level": 2,
        "cost": {"any": 1},
        "attack": {"flat": 7, "damage_type": "fire"},
        "text": "7 feu",
        "text_en": "7 fire",
    }
    state = turn_of(started(extra_cards=[custom]), 0)
    uid = give(state, 0, "lance-flammes-2")
    state.apply({"kind": "play", "player": 0, "card": uid, "pay": {"L": 1}, "target": {"player": 1}})
    events = pass_all(state)
    assert events_of(events, "attack")[0]["raw"] == 7
