"""Creation budgets, replaying the seed's examples (I, appendix 2, appendix 3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from characters.rules.creation import CreationOptions, creation_budget, creation_check
from characters.rules.errors import RuleViolation
from characters.rules.ladder import Rank, rank_label
from characters.rules.traits import TraitKind, custom_trait, default_traits

TRAITS = default_traits()


def codes(budget) -> list[str]:  # type: ignore[no-untyped-def]
    return [v.code for v in budget.violations]


def test_jim_bones_spends_two_atouts_in_medecine_and_one_in_psychologie() -> None:
    """« Il en affecte 2 en Médecine […] et 1 en Psychologie » → « Médecine : Moyen (4 cartes) (coût : 2
    Atouts), Psychologie : Médiocre (3 cartes) (coût 1 Atout) ». Section I predates the example list,
    so both traits start at the general default, Faible."""
    medecine, psychologie = custom_trait("Médecine"), custom_trait("Psychologie")
    budget = creation_check(
        mode="standard", total=11, traits=[medecine, psychologie], ranks={"medecine": 4, "psychologie": 3}
    )
    costs = {line.code: line.cost for line in budget.lines}
    assert costs == {"medecine": 2, "psychologie": 1}
    assert rank_label(4) == "Moyen" and rank_label(3) == "Médiocre"
    assert budget.spent == 3 and budget.left == 8


def test_with_the_example_list_medecine_starts_lamentable() -> None:
    """« Médecine (Lamentable) » in the example list: reaching Moyen costs 3 Atouts there."""
    budget = creation_budget(mode="standard", total=11, traits=TRAITS, ranks={"medecine": 4})
    assert budget.lines[0].cost == 3


def test_the_last_atout_is_kept_and_at_least_one_is_spent() -> None:
    """« à l'exception du dernier Atout qui doit être conservé » ; « Vous devez également dépenser au moins un Atout »."""
    assert "creation.keep_last_atout" in codes(
        creation_budget(mode="standard", total=6, traits=TRAITS, ranks={"esprit": 5, "tir": 5})
    )
    assert "creation.spend_at_least_one" in codes(creation_budget(mode="standard", total=6, traits=TRAITS, ranks={}))
    assert creation_budget(mode="standard", total=6, traits=TRAITS, ranks={"esprit": 5, "tir": 4}).valid


def test_no_trait_lowered_below_its_default_in_standard_creation() -> None:
    assert "creation.below_default" in codes(
        creation_budget(mode="standard", total=6, traits=TRAITS, ranks={"esprit": 1})
    )


def test_the_natural_human_maximum_is_exceptionnel_unless_the_narrator_allows() -> None:
    ranks = {"esprit": 8}
    assert "rank.above_maximum" in codes(creation_budget(mode="standard", total=21, traits=TRAITS, ranks=ranks))
    allowed = CreationOptions(permitted=frozenset({"esprit"}))
    assert creation_budget(mode="standard", total=21, traits=TRAITS, ranks=ranks, options=allowed).valid


@pytest.mark.parametrize(
    ("name", "rank", "cost"),
    [
        ("Médecine", Rank.BON, 3),  # Jim: « Médecine (c'est son travail) : Bon (coût : 3 Atouts) »
        ("Psychologie", Rank.MEDIOCRE, 1),  # « Psychologie […] : Médiocre (coût : 1 Atout) »
        ("Fine gâchette", Rank.BON, 3),  # Lisa Benny
        ("Miss collègue", Rank.BON, 3),  # Nathalie Bradford
        ("Punkette endurcie", Rank.MOYEN, 2),  # Janey Brewer
        ("Généticienne", Rank.EXCELLENT, 4),  # Fellini Smith
    ],
)
def test_free_style_characters_of_appendix_2(name: str, rank: int, cost: int) -> None:
    """« Les Atouts sont utilisés normalement mais le joueur peut donner un rang à tout ce qu'il souhaite. »"""
    trait = custom_trait(name)
    budget = creation_check(mode="free", total=11, traits=[trait], ranks={trait.code: rank})
    assert budget.spent == cost
    assert budget.left == 11 - cost  # « Les Atouts non dépensés sont conservés pour être utilisés en cours de jeu. »


def test_jim_free_style_sheet_costs_four_atouts_together() -> None:
    medecine, psychologie = custom_trait("Médecine"), custom_trait("Psychologie")
    budget = creation_check(
        mode="free", total=11, traits=[medecine, psychologie], ranks={"medecine": 5, "psychologie": 3}
    )
    assert budget.spent == 4


class TestStreamlined:
    """Appendix 3: aptitudes start Moyen, « Aptitudes ±3, Champs et Domaines 1 », 15 Atouts, ≤ 3 kept."""

    def test_an_aptitude_rank_costs_three_and_a_field_or_domain_rank_one(self) -> None:
        budget = creation_budget(
            mode="streamlined", total=15, traits=TRAITS, ranks={"esprit": 5, "tir": 3, "telekinesie": 2}
        )
        costs = {line.code: line.cost for line in budget.lines}
        assert costs == {"esprit": 3, "tir": 1, "telekinesie": 2}

    def test_lowering_an_aptitude_refunds_three(self) -> None:
        budget = creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks={"vigueur": 3})
        assert budget.spent == -3 and budget.left == 18

    def test_at_most_three_atouts_kept(self) -> None:
        few = creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks={"esprit": 5, "tir": 3})
        assert "streamlined.too_many_kept" in codes(few)
        enough = creation_budget(
            mode="streamlined",
            total=15,
            traits=TRAITS,
            ranks={"esprit": 6, "presence": 5, "tir": 3, "combat": 3, "art": 3},
        )
        assert enough.spent == 12 and enough.left == 3 and enough.valid

    def test_no_trait_below_faible_or_above_excellent_without_leave(self) -> None:
        low = creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks={"vigueur": 1})
        high = creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks={"tir": 7})
        assert "streamlined.below_faible" in codes(low)
        assert "streamlined.above_excellent" in codes(high)
        leave = CreationOptions(permitted=frozenset({"vigueur"}))
        assert "streamlined.below_faible" not in codes(
            creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks={"vigueur": 1}, options=leave)
        )

    def test_fields_whose_default_is_lamentable_or_abyssal_may_stay_below_faible(self) -> None:
        budget = creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks={"medecine": 1, "telepathie": 0})
        assert "streamlined.below_faible" not in codes(budget)

    def test_spending_more_than_the_budget_is_refused(self) -> None:
        budget = creation_budget(
            mode="streamlined", total=15, traits=TRAITS, ranks={"esprit": 6, "presence": 6, "habilete": 6}
        )
        assert "creation.over_budget" in codes(budget)


def test_a_trait_off_the_list_is_refused() -> None:
    with pytest.raises(RuleViolation) as info:
        creation_check(mode="standard", total=11, traits=TRAITS, ranks={"alchimie": 4})
    assert info.value.code == "creation.unknown_trait"


def test_the_example_lists_load_in_both_languages() -> None:
    kinds = {t.code: t.kind for t in TRAITS}
    assert [c for c, k in kinds.items() if k == TraitKind.APTITUDE] == ["esprit", "habilete", "presence", "vigueur"]
    assert {t.code: t.default for t in TRAITS if t.default != Rank.FAIBLE} == {
        "sciences": 1, "medecine": 1, "telekinesie": 0, "telepathie": 0, "conscience": 0,
    }  # fmt: skip
    assert all(t.name_en and t.description_en and t.description_fr for t in TRAITS)


@given(
    total=st.sampled_from([6, 11, 16, 21]),
    ranks=st.dictionaries(st.sampled_from([t.code for t in TRAITS]), st.integers(0, 9), max_size=6),
)
def test_standard_creation_is_legal_exactly_when_its_rules_hold(total: int, ranks: dict[str, int]) -> None:
    """One Atout a rank from the default, at least one spent, the last kept, nothing past Exceptionnel."""
    defaults = {t.code: t.default for t in TRAITS}
    budget = creation_budget(mode="standard", total=total, traits=TRAITS, ranks=ranks)
    spent = sum(rank - defaults[code] for code, rank in ranks.items())
    assert budget.spent == spent and budget.left == total - spent
    legal = (
        1 <= spent <= total - 1
        and all(rank >= defaults[code] for code, rank in ranks.items())
        and all(rank <= Rank.EXCEPTIONNEL for rank in ranks.values())
    )
    assert budget.valid == legal


def test_three_atouts_kept_is_the_most_four_is_refused() -> None:
    """« Les Atouts qui n'ont pas été dépensés pendant la phase de création des personnages pourront ensuite
    être utilisés en jeu, un maximum de 3 Atouts peuvent être ainsi conservés »: at the boundary, 3 kept is a
    legal sheet and 4 is refused with the figures; 0 kept is legal too."""
    three = {"esprit": 6, "presence": 5, "tir": 3, "combat": 3, "art": 3}
    kept_three = creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks=three)
    assert kept_three.left == 3 and kept_three.valid
    four = {"esprit": 6, "presence": 5, "tir": 3, "combat": 3}
    kept_four = creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks=four)
    assert kept_four.left == 4 and codes(kept_four) == ["streamlined.too_many_kept"]
    assert kept_four.violations[0].params == {"kept": 4, "maximum": 3}
    with pytest.raises(RuleViolation):
        creation_check(mode="streamlined", total=15, traits=TRAITS, ranks=four)
    none = creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks={**three, "athletisme": 5})
    assert none.left == 0 and none.valid


# ------------------------------------------------------------------ every line and every figure (mutation tests)


def test_each_line_of_a_sheet_keeps_its_trait_default_rank_and_cost() -> None:
    """Standard creation (I): one Atout per rank above the default; Médecine's default is Lamentable."""
    budget = creation_check(mode="standard", total=6, traits=TRAITS, ranks={"esprit": 4, "medecine": 2})
    assert [(line.code, line.kind, line.default, line.rank, line.cost) for line in budget.lines] == [
        ("esprit", TraitKind.APTITUDE, Rank.FAIBLE, 4, 2),
        ("medecine", TraitKind.FIELD, Rank.LAMENTABLE, 2, 1),
    ]
    assert (budget.mode, budget.total, budget.spent, budget.left, budget.valid) == ("standard", 6, 3, 3, True)
    assert budget.ranks() == {"esprit": 4, "medecine": 2} and budget.violations == ()


def test_an_unknown_mode_is_refused_and_every_broken_rule_names_its_figures() -> None:
    with pytest.raises(RuleViolation) as unknown:
        creation_budget(mode="epic", total=6, traits=TRAITS, ranks={})
    assert unknown.value.code == "creation.unknown_mode" and unknown.value.params == {"mode": "epic"}
    low = creation_budget(mode="standard", total=6, traits=TRAITS, ranks={"tir": -1, "esprit": 8})
    assert [(v.code, v.params) for v in low.violations] == [
        ("rank.below_abyssal", {"trait": "tir"}),
        ("creation.below_default", {"trait": "tir", "default": Rank.FAIBLE}),
        ("rank.above_maximum", {"trait": "esprit", "maximum": Rank.EXCEPTIONNEL}),
    ]
    assert low.spent == 3
    spent_all = creation_budget(mode="standard", total=6, traits=TRAITS, ranks={"esprit": 7, "tir": 3})
    assert [(v.code, v.params) for v in spent_all.violations] == [
        ("creation.keep_last_atout", {"total": 6, "spent": 6})
    ]
    assert creation_budget(mode="standard", total=6, traits=TRAITS, ranks={"esprit": 7}).valid
    nothing = creation_budget(mode="free", total=6, traits=TRAITS, ranks={})
    assert [(v.code, v.params) for v in nothing.violations] == [("creation.spend_at_least_one", {})]
    over = creation_budget(
        mode="streamlined", total=15, traits=TRAITS, ranks={"tir": 6, "combat": 6, "art": 6, "esprit": 6}
    )
    assert [(v.code, v.params) for v in over.violations] == [("creation.over_budget", {"total": 15, "spent": 18})]
    exact = creation_budget(
        mode="streamlined", total=15, traits=TRAITS, ranks={"tir": 6, "combat": 6, "art": 6, "esprit": 5}
    )
    assert exact.left == 0 and exact.valid
    with pytest.raises(RuleViolation) as first:
        creation_check(mode="standard", total=6, traits=TRAITS, ranks={"tir": 1, "esprit": 8})
    assert first.value.code == "creation.below_default"


def test_the_narrator_may_let_a_trait_pass_the_limits() -> None:
    """« sauf autorisation du Narrateur »: a permitted trait may pass Exceptionnel, or Excellent in streamlined."""
    allowed = CreationOptions(permitted=frozenset({"esprit"}))
    assert creation_budget(mode="standard", total=11, traits=TRAITS, ranks={"esprit": 8}, options=allowed).valid
    higher = CreationOptions(human_maximum=Rank.LEGENDAIRE)
    assert creation_budget(mode="standard", total=11, traits=TRAITS, ranks={"esprit": 8}, options=higher).valid
    streamlined = {"esprit": 7, "tir": 3, "combat": 3, "art": 3}
    assert creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks=streamlined, options=allowed).valid
    refused = creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks=streamlined)
    assert codes(refused) == ["streamlined.above_excellent"] and refused.violations[0].params == {"trait": "esprit"}


def test_streamlined_aptitudes_may_go_down_for_a_refund_to_faible_and_fields_of_a_low_default_stay_low() -> None:
    """Appendix 3: « Aptitudes ±3 »; « Les Caractéristiques ne peuvent pas descendre en dessous de Faible […] à
    l'exception des Champs d'expertise dont le Rang par défaut est Abyssal ou Lamentable »."""
    budget = creation_budget(
        mode="streamlined", total=15, traits=TRAITS, ranks={"vigueur": 3, "esprit": 6, "medecine": 1, "tir": 5}
    )
    assert [line.cost for line in budget.lines] == [-3, 6, 0, 3] and budget.spent == 6
    assert codes(budget) == ["streamlined.too_many_kept"]
    too_low = creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks={"vigueur": 1, "tir": 1})
    assert [(v.code, v.params) for v in too_low.violations][:2] == [
        ("streamlined.below_faible", {"trait": "vigueur"}),
        ("creation.below_default", {"trait": "tir", "default": Rank.FAIBLE}),
    ]


def test_a_sheet_is_saved_with_the_narrators_leave() -> None:
    """« sauf autorisation du Narrateur »: the check that saves a sheet reads the same options as the live budget."""
    allowed = CreationOptions(permitted=frozenset({"esprit"}))
    saved = creation_check(mode="standard", total=11, traits=TRAITS, ranks={"esprit": 8}, options=allowed)
    assert saved.valid and saved.ranks() == {"esprit": 8}
    with pytest.raises(RuleViolation) as refused:
        creation_check(mode="standard", total=11, traits=TRAITS, ranks={"esprit": 8})
    assert refused.value.code == "rank.above_maximum"


def test_an_unknown_trait_is_named_and_the_traits_after_it_still_count() -> None:
    budget = creation_budget(mode="standard", total=6, traits=TRAITS, ranks={"alchimie": 4, "esprit": 4})
    assert [(v.code, v.params) for v in budget.violations] == [("creation.unknown_trait", {"trait": "alchimie"})]
    assert budget.ranks() == {"esprit": 4} and budget.spent == 2


def test_streamlined_limits_at_faible_and_abyssal_exactly() -> None:
    """Appendix 3: an Aptitude starts at Moyen and may go down to Faible, no lower; a field of default Faible may not
    go below it, Médecine (default Lamentable) may stay there; a power domain at its Abyssal default is legal."""
    budget = creation_budget(
        mode="streamlined", total=15, traits=TRAITS, ranks={"vigueur": 2, "tir": 1, "medecine": 1, "esprit": 6}
    )
    assert [(line.code, line.default, line.cost) for line in budget.lines] == [
        ("vigueur", Rank.MOYEN, -6),
        ("tir", Rank.FAIBLE, -1),
        ("medecine", Rank.LAMENTABLE, 0),
        ("esprit", Rank.MOYEN, 6),
    ]
    assert [(v.code, v.params) for v in budget.violations] == [
        ("creation.below_default", {"trait": "tir", "default": Rank.FAIBLE}),
        ("streamlined.below_faible", {"trait": "tir"}),
        ("streamlined.too_many_kept", {"kept": 16, "maximum": 3}),
    ]
    assert creation_check(mode="standard", total=6, traits=TRAITS, ranks={"conscience": 0, "esprit": 3}).valid
