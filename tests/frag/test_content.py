"""Maps and cards are data, validated on load with errors naming the file and the place."""

from __future__ import annotations

import pytest

from frag.engine import ContentError
from frag.engine.board import available_maps, load_board, parse_board
from frag.engine.cards import DECKS, load_cards, parse_card_file

MAP_HEAD = 'title = { fr = "T", en = "T" }\ndescription = { fr = "T", en = "T" }\n'


def parse(grid: str):  # type: ignore[no-untyped-def]
    return parse_board(MAP_HEAD + f"grid = '''{grid}'''\n", source="frag/maps/bad.toml", name="bad")


def test_the_two_shipped_maps_load_with_every_respawn_square() -> None:
    assert set(available_maps()) >= {"entrepot", "raffinerie"}
    for name in ("entrepot", "raffinerie"):
        board = load_board(name)
        assert sorted(board.respawn) == [1, 2, 3, 4, 5, 6]
        assert board.acid and board.teleporters and board.doors and board.weapon_pickups and board.gadget_pickups
        assert any(p.half for p in board.places), "each map has diagonal walls"
        assert board.title["fr"] and board.title["en"]


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ("\n#####\n#1Q2#\n#3456\n#####\n", "row 2, column 3: unknown square 'Q'"),
        ("\n#####\n#12#\n#####\n", "row 2, column 5: row has 4 squares"),
        ("\n#####\n#123#\n#45.#\n#####\n", "respawn squares 6 are missing"),
        ("\n######\n#1234#\n#56.1#\n######\n", "row 3, column 5: respawn square 1 appears twice"),
        ("\n#####\n#123#\n#4D6#\n#5..#\n#####\n", "row 3, column 3: a door needs walls"),
        ("\n#####\n#1T3#\n#456#\n#2..#\n#####\n", "row 2, column 3: a teleporter needs"),
        ("\n#####\n#123.\n#456#\n#####\n", "row 2, column 5: the board must be closed"),
        ("\n######\n#123##\n#456#.#\n######\n", "row 3"),
    ],
)
def test_a_bad_map_names_the_file_row_and_column(grid: str, message: str) -> None:
    with pytest.raises(ContentError) as error:
        parse(grid)
    assert str(error.value).startswith("frag/maps/bad.toml: ")
    assert message in str(error.value)


def test_a_sealed_room_is_refused() -> None:
    with pytest.raises(ContentError, match=r"row 4, column 7: this square cannot be reached"):
        parse("\n########\n#123456#\n#....###\n#....#.#\n########\n")


def test_the_decks_have_at_least_twenty_cards_each_in_french_and_english() -> None:
    cards = load_cards("standard")
    for deck in DECKS:
        kinds = [c for c in cards.cards.values() if c.deck == deck]
        assert len(kinds) >= 20, deck
        assert all(c.name["fr"] and c.name["en"] and c.text["fr"] and c.text["en"] for c in kinds)
    assert {c.letter for c in cards.cards.values() if c.deck == "gadget"} == {"A", "W", "M", "H"}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            'id = "x"\nname = { fr = "X", en = "X" }\ntext = { fr = "X", en = "X" }\nammo = 3',
            "card 'x': field 'dice' is missing",
        ),
        (
            'id = "x"\nname = { fr = "X" }\ntext = { fr = "X", en = "X" }\ndice = 2\nammo = 3',
            "card 'x': field 'name.en' is missing",
        ),
        (
            'id = "x"\nname = { fr = "X", en = "X" }\ntext = { fr = "X", en = "X" }\ndice = "2"\nammo = 3',
            "card 'x': field 'dice' has the wrong type",
        ),
        (
            'id = "x"\nname = { fr = "X", en = "X" }\ntext = { fr = "X", en = "X" }\ndice = 40\nammo = 3',
            "field 'dice' must be between 1 and 12",
        ),
        (
            'id = "x"\nname = { fr = "X", en = "X" }\ntext = { fr = "X", en = "X" }\ndice = 2\nammo = 3\nrange = 2',
            "unknown field 'range'",
        ),
    ],
)
def test_a_bad_weapon_card_names_the_file_the_card_and_the_field(entry: str, message: str) -> None:
    with pytest.raises(ContentError) as error:
        parse_card_file(f"[[card]]\n{entry}\n", source="frag/cards/x/weapons.toml", deck="weapon")
    assert str(error.value).startswith("frag/cards/x/weapons.toml: ")
    assert message in str(error.value)


def test_a_bad_special_card_names_the_field() -> None:
    entry = 'id = "s"\nname = { fr = "S", en = "S" }\ntext = { fr = "S", en = "S" }\neffect = "modifier"\nstat = "luck"\nop = "add"\nvalue = 1\nscope = "self"\nduration = "turn"'
    with pytest.raises(ContentError, match="card 's': field 'stat' must be one of"):
        parse_card_file(f"[[card]]\n{entry}\n", source="specials.toml", deck="special")


GADGET_HEAD = 'name = { fr = "G", en = "G" }\ntext = { fr = "G", en = "G" }\n'


@pytest.mark.parametrize(
    ("text", "deck", "message"),
    [
        # A non-table entry used to crash with AttributeError.
        ('card = ["x"]\n', "gadget", "entry 1: a card is a table of fields"),
        # The entry without an id is named by its place in the file.
        (
            f'[[card]]\nid = "a"\n{GADGET_HEAD}letter = "H"\neffect = "heal"\nvalue = 1\n'
            f'[[card]]\n{GADGET_HEAD}letter = "H"\neffect = "heal"\nvalue = 1\n',
            "gadget",
            "entry 2: field 'id' is missing",
        ),
        # « Les cartes Gadget sont marquées d'une lettre » : a Special has none.
        (
            f'[[card]]\nid = "s"\n{GADGET_HEAD}letter = "A"\neffect = "disconnect"\n',
            "special",
            "unknown field 'letter'",
        ),
        (
            f'[[card]]\nid = "a"\n{GADGET_HEAD}letter = "A"\neffect = "armour"\nvalue = -2\n',
            "gadget",
            "card 'a': field 'value' must be between 1 and 6",
        ),
        (
            f'[[card]]\nid = "h"\n{GADGET_HEAD}letter = "H"\neffect = "heal"\nvalue = 0\n',
            "gadget",
            "card 'h': field 'value' must be between 1 and 12",
        ),
    ],
)
def test_a_bad_card_entry_names_the_file_the_entry_and_the_field(text: str, deck: str, message: str) -> None:
    with pytest.raises(ContentError) as error:
        parse_card_file(text, source="frag/cards/x/cards.toml", deck=deck)
    assert str(error.value).startswith("frag/cards/x/cards.toml: ")
    assert message in str(error.value)


# La Raffinerie as it shipped: its one-way door at row 12, column 8 (1-based) opened north out of a wall.
OLD_RAFFINERIE_ROW = "#######^######...\\...#########"


def test_a_one_way_door_that_opens_out_of_a_wall_is_refused() -> None:
    """« vous pouvez passer à travers les portes, en respectant le sens des flèches » : reachability follows the arrows,
    so a door square that can only be entered from a wall is unreachable, and the map is refused at its square."""
    with pytest.raises(ContentError, match=r"row 4, column 3: this square cannot be reached"):
        parse("\n#####\n#123#\n#456#\n##^##\n##.##\n#####\n".replace("##.##", "#####", 1))
    # The arrow pointing into a room that is otherwise sealed: that room cannot be reached either.
    with pytest.raises(ContentError, match=r"this square cannot be reached"):
        parse("\n#####\n#123#\n#456#\n##^##\n#...#\n#####\n")
    # The same door the other way round (pointing into the room) is fine.
    parse("\n#####\n#123#\n#456#\n##v##\n#...#\n#####\n")
    shipped = load_board("raffinerie")
    assert OLD_RAFFINERIE_ROW not in shipped.grid
    old = "\n".join(OLD_RAFFINERIE_ROW if row == "###^##########...\\...#########" else row for row in shipped.grid)
    with pytest.raises(ContentError, match=r"row 12, column 8: this square cannot be reached"):
        parse("\n" + old + "\n")
