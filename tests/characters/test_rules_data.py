"""Data files are validated on load with an error naming the file, the entry and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from characters.rules.equipment import vehicles
from characters.rules.errors import DataError
from characters.rules.ladder import Rank, clamp, rank_label, shift
from characters.rules.psychic import powers
from characters.rules.traits import (
    TraitDef,
    TraitKind,
    custom_trait,
    load_trait_file,
    slugify_code,
    trait_added,
    trait_index,
    trait_moved,
    trait_removed,
    trait_replaced,
    traits_from_dicts,
)


def test_a_bad_entry_names_file_entry_and_field(tmp_path: Path) -> None:
    path = tmp_path / "maison.toml"
    path.write_text('[[trait]]\ncode = "esprit"\nkind = "aptitude"\nname_fr = "Esprit"\nname_en = "Mind"\n\n'
                    '[[trait]]\ncode = "tir"\nkind = "skill"\nname_fr = "Tir"\nname_en = "Shooting"\n')  # fmt: skip
    with pytest.raises(DataError, match=r"maison.toml, entry 2 \(tir\), field 'kind'"):
        load_trait_file(path)


def test_a_default_off_the_ladder_is_refused() -> None:
    with pytest.raises(DataError, match="field 'default'"):
        traits_from_dicts(
            [{"code": "x", "kind": "field", "name_fr": "X", "name_en": "X", "default": 12}], source="list"
        )


def test_vehicles_and_powers_load() -> None:
    moto = next(v for v in vehicles() if v.code == "motorbike")
    assert (moto.speed, moto.robustness) == (3, -1)
    bus = next(v for v in vehicles() if v.code == "bus_lorry")
    assert (bus.speed, bus.robustness) == (-1, 5)
    assert {p.code for p in powers() if p.domain == "conscience"} >= {"heat_resistance", "regeneration"}
    assert next(p for p in powers() if p.code == "mind_control").rank == Rank.EXCELLENT


def test_the_ladder_reads_in_french_and_english() -> None:
    assert [rank_label(v) for v in range(9)] == [
        "Abyssal", "Lamentable", "Faible", "Médiocre", "Moyen", "Bon", "Excellent", "Exceptionnel", "Légendaire",
    ]  # fmt: skip
    assert rank_label(5, "en") == "Good"
    assert rank_label(10) == "Légendaire +2"
    assert clamp(-2) == 0 and clamp(9, highest=7) == 7 and shift(4, -3, floor=Rank.FAIBLE) == 2


# ------------------------------------------------------------------ the trait list, entry by entry (mutation tests)
# III: « La valeur par défaut des Champs d'expertise est Faible, sauf mention contraire »; « Les Domaines de pouvoir
# ont, par défaut, un Rang de départ Abyssal »; a campaign's narrator edits the list one trait at a time.

GOOD = {"code": "tir", "kind": "field", "name_fr": " Tir ", "name_en": "Shooting"}


def _refusal(entry: dict, match: str) -> None:
    with pytest.raises(DataError) as refused:
        traits_from_dicts([GOOD | {"code": "esprit", "kind": "aptitude"}, entry], source="maison.toml")
    assert str(refused.value) == match


@pytest.mark.parametrize("field", ["code", "kind", "name_fr", "name_en"])
@pytest.mark.parametrize("value", [None, "  ", 3])
def test_each_required_field_needs_a_non_empty_text(field: str, value: object) -> None:
    entry = {k: v for k, v in GOOD.items() if k != field} if value is None else GOOD | {field: value}
    _refusal(entry, f"maison.toml, entry 2, field '{field}': a non-empty text is required")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"code": "Tir"}, "maison.toml, entry 2 (Tir), field 'code': lowercase letters, digits and _ only"),
        ({"code": "a" * 41}, f"maison.toml, entry 2 ({'a' * 41}), field 'code': lowercase letters, digits and _ only"),
        ({"kind": "skill"}, "maison.toml, entry 2 (tir), field 'kind': one of aptitude, field, power_domain"),
        ({"default": -1}, "maison.toml, entry 2 (tir), field 'default': a rank value from 0 to 8"),
        ({"default": 9}, "maison.toml, entry 2 (tir), field 'default': a rank value from 0 to 8"),
        ({"default": True}, "maison.toml, entry 2 (tir), field 'default': a rank value from 0 to 8"),
        ({"default": "2"}, "maison.toml, entry 2 (tir), field 'default': a rank value from 0 to 8"),
        ({"description_fr": 1}, "maison.toml, entry 2 (tir), field 'description_fr': a text is required"),
        ({"description_en": None}, "maison.toml, entry 2 (tir), field 'description_en': a text is required"),
        ({"technical": "yes"}, "maison.toml, entry 2 (tir), field 'technical': true or false"),
        ({"zone": 1, "colour": 2}, "maison.toml, entry 2 (tir), field 'colour': unknown field"),
        ({"code": "esprit"}, "maison.toml, entry 2 (esprit), field 'code': duplicated"),
    ],
)
def test_a_bad_trait_entry_names_the_file_the_entry_and_the_field(extra: dict, message: str) -> None:
    _refusal(GOOD | extra, message)


def test_an_entry_that_is_not_a_table_is_refused() -> None:
    with pytest.raises(DataError) as refused:
        traits_from_dicts([GOOD, "tir"], source="maison.toml")  # type: ignore[list-item]
    assert str(refused.value) == "maison.toml, entry 2: a table of fields is required"


def test_a_trait_reads_every_field_and_each_kind_has_its_default() -> None:
    rows = [
        GOOD | {"description_fr": "Armes", "description_en": "Guns", "technical": True, "default": 0},
        {"code": "esprit", "kind": "aptitude", "name_fr": "Esprit", "name_en": "Mind"},
        {"code": "soin", "kind": "field", "name_fr": "Soin", "name_en": "Care"},
        {"code": "psi", "kind": "power_domain", "name_fr": "Psi", "name_en": "Psi"},
        {"code": "bon", "kind": "power_domain", "name_fr": "Bon", "name_en": "Good", "default": 8},
    ]
    tir, esprit, soin, psi, bon = traits_from_dicts(rows, source="list")
    assert tir == TraitDef("tir", TraitKind.FIELD, "Tir", "Shooting", "Armes", "Guns", Rank.ABYSSAL, True)
    assert (tir.name(), tir.name("en-gb"), tir.description(), tir.description("en")) == (
        "Tir",
        "Shooting",
        "Armes",
        "Guns",
    )
    assert tir.to_dict() == {
        "code": "tir", "kind": "field", "name_fr": "Tir", "name_en": "Shooting", "description_fr": "Armes",
        "description_en": "Guns", "default": 0, "technical": True,
    }  # fmt: skip
    assert type(tir.to_dict()["kind"]) is str
    assert (esprit.default, soin.default, psi.default, bon.default) == (Rank.FAIBLE, Rank.FAIBLE, Rank.ABYSSAL, 8)
    assert (esprit.description_fr, esprit.description_en, esprit.technical) == ("", "", False)


def test_a_trait_file_that_is_not_toml_or_lists_no_trait_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("[[trait]\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"^broken.toml: not valid TOML \("):
        load_trait_file(broken)
    for text in ("", "trait = 3\n", "trait = []\n"):
        empty = tmp_path / "empty.toml"
        empty.write_text(text, encoding="utf-8")
        with pytest.raises(DataError) as refused:
            load_trait_file(empty)
        assert str(refused.value) == "empty.toml: at least one [[trait]] entry is required"


def _trait(code: str, kind: TraitKind = TraitKind.FIELD) -> TraitDef:
    return TraitDef(code, kind, code.title(), code.title())


LIST = (_trait("esprit", TraitKind.APTITUDE), _trait("force", TraitKind.APTITUDE), _trait("tir"), _trait("soin"))


def _codes(traits: tuple[TraitDef, ...]) -> list[str]:
    return [t.code for t in traits]


def test_a_new_trait_goes_after_the_last_of_its_kind_or_at_the_end() -> None:
    assert _codes(trait_added(LIST, _trait("vigueur", TraitKind.APTITUDE))) == [
        "esprit",
        "force",
        "vigueur",
        "tir",
        "soin",
    ]
    assert _codes(trait_added(LIST, _trait("nage"))) == ["esprit", "force", "tir", "soin", "nage"]
    assert _codes(trait_added(LIST, _trait("psi", TraitKind.POWER_DOMAIN))) == ["esprit", "force", "tir", "soin", "psi"]
    assert _codes(trait_added((), _trait("psi", TraitKind.POWER_DOMAIN))) == ["psi"]
    with pytest.raises(DataError, match=r"^trait list, entry 5 \(tir\), field 'code': duplicated$"):
        trait_added(LIST, _trait("tir"))


def test_a_trait_is_replaced_or_removed_in_its_place_and_an_unknown_one_is_a_key_error() -> None:
    assert trait_index(LIST, "esprit") == 0 and trait_index(LIST, "soin") == 3
    assert _codes(trait_replaced(LIST, "tir", _trait("arc"))) == ["esprit", "force", "arc", "soin"]
    assert _codes(trait_replaced(LIST, "esprit", _trait("mind", TraitKind.APTITUDE))) == [
        "mind",
        "force",
        "tir",
        "soin",
    ]
    with pytest.raises(DataError, match="duplicated"):
        trait_replaced(LIST, "tir", _trait("soin"))
    assert _codes(trait_removed(LIST, "force")) == ["esprit", "tir", "soin"]
    assert _codes(trait_removed(LIST, "esprit")) == ["force", "tir", "soin"]
    with pytest.raises(KeyError, match="nage"):
        trait_removed(LIST, "nage")


def test_a_trait_moves_past_its_neighbour_of_the_same_kind_and_stays_at_an_end() -> None:
    assert _codes(trait_moved(LIST, "tir", 1)) == ["esprit", "force", "soin", "tir"]
    assert _codes(trait_moved(LIST, "soin", -1)) == ["esprit", "force", "soin", "tir"]
    assert _codes(trait_moved(LIST, "force", -2)) == ["force", "esprit", "tir", "soin"]
    assert trait_moved(LIST, "force", 1) == LIST and trait_moved(LIST, "tir", -1) == LIST
    assert trait_moved(LIST, "esprit", -1) == LIST and trait_moved(LIST, "soin", 5) == LIST


def test_a_player_named_trait_and_its_code() -> None:
    """Free style (appendix 2): the player names the trait; « Fine gâchette » → ``fine_gachette``."""
    assert slugify_code("  Fine gâchette ! ") == "fine_gachette"
    assert slugify_code("???") == "trait" and len(slugify_code("x" * 60)) == 40
    own = custom_trait("  Fine gâchette ")
    assert own == TraitDef("fine_gachette", TraitKind.FIELD, "Fine gâchette", "Fine gâchette", default=Rank.FAIBLE)
    assert custom_trait("Psi", TraitKind.POWER_DOMAIN).default == Rank.ABYSSAL
