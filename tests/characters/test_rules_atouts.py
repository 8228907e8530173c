"""Atout uses and their rules (II, IV, appendices 3 and 4), with hypothesis invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from characters.rules.atouts import (
    AtoutUse,
    Balances,
    Pool,
    RollHistory,
    SpendRequest,
    in_play_raise_cost,
    in_play_rank_cost,
    progression_cost,
    session_award,
    spend_plan,
)
from characters.rules.errors import RuleViolation
from characters.rules.ladder import Rank
from characters.rules.traits import TraitKind


def refused(request: SpendRequest, balances: Balances) -> str:
    with pytest.raises(RuleViolation) as info:
        spend_plan(request, balances)
    return info.value.code


@pytest.mark.parametrize(
    ("from_rank", "cost"),
    [(Rank.LAMENTABLE, 3), (Rank.FAIBLE, 3), (Rank.MEDIOCRE, 3), (Rank.MOYEN, 6), (Rank.BON, 12), (Rank.EXCELLENT, 24)],
)
def test_streamlined_progression_table(from_rank: int, cost: int) -> None:
    """« Augmentation des Champs et Domaines » ; « Augmentation des Aptitudes : Tripler les coûts »."""
    assert progression_cost(TraitKind.FIELD, from_rank, scheme="streamlined") == cost
    assert progression_cost(TraitKind.POWER_DOMAIN, from_rank, scheme="streamlined") == cost
    assert progression_cost(TraitKind.APTITUDE, from_rank, scheme="streamlined") == cost * 3


def test_standard_progression_is_one_atout_per_rank() -> None:
    """IV « augmenter une Caractéristique […] d'un rang entre deux sessions de jeu »."""
    assert progression_cost(TraitKind.APTITUDE, Rank.BON, scheme="one_per_rank") == 1


def test_jim_raises_tir_in_play_with_two_creation_atouts_and_his_explanation() -> None:
    """« Le joueur précise que "Jim a grandi en allant à la chasse avec son père et son frère" et dépense 2
    Atouts en Tir » — creation Atouts, during a session, with a plausible explanation."""
    request = SpendRequest(
        use=AtoutUse.RAISE_IN_PLAY, amount=2, in_session=True, expected_cost=2,
        justification="Jim a grandi en allant à la chasse avec son père et son frère",
    )  # fmt: skip
    assert spend_plan(request, Balances(creation=8, experience=1)) == {Pool.CREATION: 2}


def test_experience_atouts_cannot_raise_permanently_during_a_session() -> None:
    """IV « Les Atouts gagnés par le biais de l'expérience ne peuvent pas être utilisés pour augmenter
    définitivement une Caractéristique pendant une session de jeu »."""
    request = SpendRequest(use=AtoutUse.RAISE_IN_PLAY, amount=1, in_session=True, expected_cost=1, justification="x")
    assert refused(request, Balances(creation=0, experience=5)) == "atout.raise_in_play.creation_only"


def test_a_raise_in_play_needs_its_explanation_and_an_open_session() -> None:
    assert refused(SpendRequest(use=AtoutUse.RAISE_IN_PLAY, in_session=True), Balances(3, 0)) == (
        "atout.raise_in_play.justification"
    )
    assert refused(SpendRequest(use=AtoutUse.RAISE_IN_PLAY, justification="x"), Balances(3, 0)) == (
        "atout.raise_in_play.in_session"
    )


def test_between_sessions_a_raise_costs_the_progression_cost() -> None:
    request = SpendRequest(use=AtoutUse.RAISE_BETWEEN_SESSIONS, amount=3, expected_cost=6)
    assert refused(request, Balances(0, 10)) == "atout.raise_cost"
    assert refused(SpendRequest(use=AtoutUse.RAISE_BETWEEN_SESSIONS, in_session=True), Balances(0, 10)) == (
        "atout.raise_between_sessions.not_in_session"
    )


def test_save_your_skin_needs_a_story() -> None:
    """« Il suffit de raconter comment le personnage arrive à se sortir d'un tel pétrin »."""
    assert refused(SpendRequest(use=AtoutUse.SAVE_YOUR_SKIN), Balances(1, 0)) == "atout.save_your_skin.justification"
    assert spend_plan(SpendRequest(use=AtoutUse.SAVE_YOUR_SKIN, justification="le tas de fumier"), Balances(1, 0))


def test_one_temporary_bonus_per_roll_unless_countered() -> None:
    """« Il n'est normalement possible de dépenser qu'un seul point de cette manière, à moins que la
    tentative ne soit contrée. » Countered, the first may spend again: chains go on."""
    first = SpendRequest(use=AtoutUse.TEMPORARY_BONUS, roll=RollHistory())
    assert spend_plan(first, Balances(0, 3))
    again = SpendRequest(use=AtoutUse.TEMPORARY_BONUS, roll=RollHistory(own_bonuses=1))
    assert refused(again, Balances(0, 3)) == "atout.temporary_bonus.once_per_roll"
    after_counter = SpendRequest(use=AtoutUse.TEMPORARY_BONUS, roll=RollHistory(own_bonuses=1, countered=1))
    assert spend_plan(after_counter, Balances(0, 3))
    chain = SpendRequest(use=AtoutUse.TEMPORARY_BONUS, roll=RollHistory(own_bonuses=2, countered=2))
    assert spend_plan(chain, Balances(0, 3))


def test_helping_costs_two_atouts_once_per_roll_per_helper() -> None:
    """« Deux Atouts permettent de donner un bonus de +1 » ; « qu'une fois par jet de dé ou tirage »."""
    helping = SpendRequest(use=AtoutUse.HELP_OTHER, amount=2, justification="je tiens la corde", targets_other=True,
                           roll=RollHistory())  # fmt: skip
    assert spend_plan(helping, Balances(0, 2)) == {Pool.EXPERIENCE: 2}
    twice = SpendRequest(use=AtoutUse.HELP_OTHER, amount=2, justification="x", targets_other=True,
                         roll=RollHistory(helped=True))  # fmt: skip
    assert refused(twice, Balances(0, 4)) == "atout.help_other.once_per_roll"
    one = SpendRequest(use=AtoutUse.HELP_OTHER, amount=1, justification="x", targets_other=True, roll=RollHistory())
    assert refused(one, Balances(0, 4)) == "atout.help_other.two_atouts"
    allowed = SpendRequest(use=AtoutUse.HELP_OTHER, amount=1, justification="x", targets_other=True,
                           roll=RollHistory(), single_atout_help=True)  # fmt: skip
    assert spend_plan(allowed, Balances(0, 4))


def test_other_uses_cost_one_atout_and_draw_on_experience_first() -> None:
    for use in (AtoutUse.REROLL, AtoutUse.CHANGE_RESULT, AtoutUse.MONOLOGUE, AtoutUse.RIGHT_MOMENT):
        assert spend_plan(SpendRequest(use=use), Balances(creation=2, experience=1)) == {Pool.EXPERIENCE: 1}
        assert refused(SpendRequest(use=use, amount=2), Balances(5, 5)) == "atout.one_atout"
    assert spend_plan(SpendRequest(use=AtoutUse.REROLL), Balances(creation=2, experience=0)) == {Pool.CREATION: 1}


def test_taking_a_revers_for_another_costs_one_atout_per_revers() -> None:
    request = SpendRequest(use=AtoutUse.TAKE_REVERS, amount=2, targets_other=True)
    assert spend_plan(request, Balances(1, 1)) == {Pool.EXPERIENCE: 1, Pool.CREATION: 1}


def test_end_of_session_award_and_the_narrators_adjustment() -> None:
    """IV « chaque personnage gagne un Atout » ; « Le Narrateur peut réduire ou augmenter le nombre »."""
    assert session_award(1, None) == 1
    assert session_award(1, 3) == 3
    assert session_award(1, 0) == 0


uses = st.sampled_from([u for u in AtoutUse if u not in (AtoutUse.RAISE_IN_PLAY, AtoutUse.RAISE_BETWEEN_SESSIONS)])


@given(
    creation=st.integers(0, 5),
    experience=st.integers(0, 5),
    use=uses,
    amount=st.integers(-1, 4),
    justification=st.sampled_from(["", "une histoire"]),
)
def test_a_spend_never_takes_more_than_there_is(
    creation: int, experience: int, use: AtoutUse, amount: int, justification: str
) -> None:
    """Whatever is asked, a legal plan pays exactly ``amount`` and leaves no pool negative."""
    balances = Balances(creation, experience)
    request = SpendRequest(use=use, amount=amount, justification=justification, roll=RollHistory(), targets_other=True)
    try:
        plan = spend_plan(request, balances)
    except RuleViolation:
        return
    assert sum(plan.values()) == amount
    after = balances.after(plan)
    assert after.creation >= 0 and after.experience >= 0
    assert after.total == balances.total - amount


# ------------------------------------------------------------------ each refusal and each price exactly (mutation tests)


def test_past_exceptionnel_the_streamlined_cost_keeps_doubling_and_abyssal_costs_as_lamentable() -> None:
    """Appendix 3 stops at « Excellent → Exceptionnel 24 »; each rank beyond costs twice the last (48, 96…)."""
    assert progression_cost(TraitKind.FIELD, Rank.EXCEPTIONNEL, scheme="streamlined") == 48
    assert progression_cost(TraitKind.FIELD, Rank.LEGENDAIRE, scheme="streamlined") == 96
    assert progression_cost(TraitKind.APTITUDE, Rank.EXCEPTIONNEL, scheme="streamlined") == 144
    assert progression_cost(TraitKind.POWER_DOMAIN, Rank.ABYSSAL, scheme="streamlined") == 3
    assert progression_cost(TraitKind.FIELD, -1, scheme="streamlined") == 3
    assert progression_cost(TraitKind.FIELD, Rank.EXCEPTIONNEL, scheme="one_per_rank") == 1


def test_raising_in_play_costs_the_creation_price_per_rank_gained() -> None:
    """« le joueur […] dépense 2 Atouts en Tir […] un rang Moyen »; streamlined: Aptitudes ±3, the rest 1."""
    assert in_play_rank_cost(TraitKind.APTITUDE, streamlined=True) == 3
    assert in_play_rank_cost(TraitKind.FIELD, streamlined=True) == 1
    assert in_play_rank_cost(TraitKind.APTITUDE, streamlined=False) == 1
    assert in_play_raise_cost(Rank.FAIBLE, Rank.MOYEN) == 2
    assert in_play_raise_cost(Rank.FAIBLE, Rank.MOYEN, per_rank=3) == 6
    for to_rank in (Rank.FAIBLE, Rank.LAMENTABLE):
        with pytest.raises(RuleViolation) as refused_raise:
            in_play_raise_cost(Rank.FAIBLE, to_rank)
        assert refused_raise.value.code == "atout.raise.must_go_up"


@pytest.mark.parametrize(
    ("request_", "code", "params"),
    [
        (SpendRequest(AtoutUse.REROLL, amount=0), "atout.amount_positive", {}),
        (SpendRequest(AtoutUse.COUNTER, targets_other=True), "atout.needs_roll", {"use": "counter"}),
        (SpendRequest(AtoutUse.TAKE_REVERS), "atout.needs_other_character", {"use": "take_revers"}),
        (SpendRequest(AtoutUse.MONOLOGUE, amount=2), "atout.one_atout", {"use": "monologue"}),
        (SpendRequest(AtoutUse.RIGHT_MOMENT, amount=2), "atout.one_atout", {"use": "right_moment"}),
        (SpendRequest(AtoutUse.REROLL, amount=2), "atout.one_atout", {"use": "reroll"}),
        (SpendRequest(AtoutUse.CHANGE_RESULT, amount=2), "atout.one_atout", {"use": "change_result"}),
        (
            SpendRequest(AtoutUse.SAVE_YOUR_SKIN, amount=2, justification="x"),
            "atout.one_atout",
            {"use": "save_your_skin"},
        ),
        (
            SpendRequest(AtoutUse.NARRATIVE_CONTROL, amount=2, justification="x"),
            "atout.one_atout",
            {"use": "narrative_control"},
        ),
        (
            SpendRequest(AtoutUse.COUNTER, amount=2, roll=RollHistory(), targets_other=True),
            "atout.counter.one_at_a_time",
            {},
        ),
        (
            SpendRequest(AtoutUse.RAISE_BETWEEN_SESSIONS, amount=3, expected_cost=6),
            "atout.raise_cost",
            {"cost": 6, "amount": 3},
        ),
        (SpendRequest(AtoutUse.REROLL, amount=1), None, {}),
    ],
)
def test_each_refusal_names_its_rule_and_its_figures(request_: SpendRequest, code: str | None, params: dict) -> None:
    """Appendix 4: one Atout for a monologue, a re-roll, a changed result, narrative control, saving one's skin;
    a counter or help belongs to a roll; taking a Revers is for another character; a raise pays its price."""
    balances = Balances(creation=5, experience=5)
    if code is None:
        assert spend_plan(request_, balances) == {Pool.EXPERIENCE: 1}
        return
    with pytest.raises(RuleViolation) as info:
        spend_plan(request_, balances)
    assert info.value.code == code and info.value.params == params


def test_a_spend_takes_experience_first_then_creation_and_names_what_is_missing() -> None:
    """Every use but a raise in play draws on experience Atouts first (creation ones stay for raises)."""
    reroll = SpendRequest(AtoutUse.REROLL)
    assert spend_plan(reroll, Balances(creation=2, experience=0)) == {Pool.CREATION: 1}
    take = SpendRequest(AtoutUse.TAKE_REVERS, amount=3, targets_other=True)
    assert spend_plan(take, Balances(creation=2, experience=1)) == {Pool.EXPERIENCE: 1, Pool.CREATION: 2}
    assert spend_plan(take, Balances(creation=0, experience=3)) == {Pool.EXPERIENCE: 3}
    with pytest.raises(RuleViolation) as short:
        spend_plan(take, Balances(creation=1, experience=1))
    assert short.value.code == "atout.not_enough" and short.value.params == {"balance": 2, "amount": 3}
    raise_ = SpendRequest(AtoutUse.RAISE_IN_PLAY, amount=2, justification="entraînement", in_session=True)
    assert spend_plan(raise_, Balances(creation=2, experience=0)) == {Pool.CREATION: 2}
    with pytest.raises(RuleViolation) as creation_only:
        spend_plan(raise_, Balances(creation=1, experience=9))
    assert creation_only.value.params == {"creation": 1, "amount": 2}
    assert Balances(3, 4).after({Pool.CREATION: 1}) == Balances(2, 4)
    assert Balances(3, 4).after({Pool.EXPERIENCE: 2}) == Balances(3, 2) and Balances(3, 4).total == 7


def test_two_ranks_past_exceptionnel_cost_four_times_as_much_again() -> None:
    """The doubling goes on: 48, 96, 192, 384 for a field."""
    costs = [progression_cost(TraitKind.FIELD, rank, scheme="streamlined") for rank in range(7, 11)]
    assert costs == [48, 96, 192, 384]


def test_one_bonus_at_a_time_and_help_costs_two_by_their_exact_rules() -> None:
    """« Il n'est normalement possible de dépenser qu'un seul point de cette manière »; « Deux Atouts permettent de
    donner un bonus de +1 Carte ou de +1 Rang à un autre personnage »."""
    balances = Balances(creation=5, experience=5)
    bonus = SpendRequest(AtoutUse.TEMPORARY_BONUS, amount=2, roll=RollHistory())
    assert refused(bonus, balances) == "atout.temporary_bonus.one_at_a_time"
    help_ = SpendRequest(
        AtoutUse.HELP_OTHER, amount=3, justification="je le couvre", roll=RollHistory(), targets_other=True
    )
    with pytest.raises(RuleViolation) as info:
        spend_plan(help_, balances)
    assert info.value.code == "atout.help_other.two_atouts" and info.value.params == {"cost": 2}
    assert str(info.value) == "atout.help_other.two_atouts: {'cost': 2}"
    assert str(RuleViolation("atout.amount_positive")) == "atout.amount_positive"
