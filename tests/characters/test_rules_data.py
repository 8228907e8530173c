"""Data files are validated on load with an error naming the file, the entry and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from characters.rules.equipment import vehicles
from characters.rules.errors import DataError
from characters.rules.ladder import Rank, clamp, rank_label, shift
from characters.rules.psychic import powers
from characters.rules.traits import load_trait_file, traits_from_dicts


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
