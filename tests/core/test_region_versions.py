"""The regions' versions read once per render pass (core.regions.version_pass): a page of N regions costs one
version query, not N, and never serves a version an Event has moved since."""

from __future__ import annotations

import pytest
from django.db import transaction

from campaigns.event_subjects import write_versions
from core.regions import subject, version_pass, versions
from tests.campaigns.factories import campaign_with

pytestmark = pytest.mark.django_db


def _subjects(*names: str) -> frozenset[str]:
    return frozenset(names)


def test_a_pass_reads_a_campaigns_versions_once_for_every_region(django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    campaign = campaign_with()
    one, two = subject("character", 1), subject("settings", campaign.pk)
    write_versions(campaign.pk, _subjects(one, two), 5)
    with django_assert_num_queries(2):  # no pass: one query per region
        assert versions(_subjects(one), campaign.pk) == {one: 5}
        assert versions(_subjects(two), campaign.pk) == {two: 5}
    with version_pass(), django_assert_num_queries(1):
        assert versions(_subjects(one), campaign.pk) == {one: 5}
        assert versions(_subjects(two, "cast:999"), campaign.pk) == {two: 5}  # never touched: absent, 0
        assert versions(_subjects(one, two), campaign.pk) == {one: 5, two: 5}


def test_an_event_during_the_pass_is_read_again(django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    campaign = campaign_with()
    one = subject("character", 1)
    write_versions(campaign.pk, _subjects(one), 5)
    with version_pass():
        assert versions(_subjects(one), campaign.pk) == {one: 5}
        write_versions(campaign.pk, _subjects(one), 6)  # what event_append does, in the Event's transaction
        assert versions(_subjects(one), campaign.pk) == {one: 6}


def test_nothing_is_kept_from_inside_a_transaction_opened_during_the_pass(django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    """Its writes could be rolled back: a version read there is read again afterwards."""
    campaign = campaign_with()
    one = subject("character", 1)
    write_versions(campaign.pk, _subjects(one), 5)
    with version_pass():
        try:
            with transaction.atomic():
                write_versions(campaign.pk, _subjects(one), 6)
                assert versions(_subjects(one), campaign.pk) == {one: 6}
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
        assert versions(_subjects(one), campaign.pk) == {one: 5}


def test_a_pass_hands_what_it_read_to_the_pass_around_it(django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    """The live pages' copies rendered by the request that committed an Event (``campaigns.live_announce``) hand their
    reads to the request's own pass: its answer finds the versions and facts they read, not a second query."""
    from core.regions import pass_fact

    campaign = campaign_with()
    one = subject("character", 1)
    write_versions(campaign.pk, _subjects(one), 5)
    loads: list[str] = []
    with version_pass():
        with version_pass(hand_over=True):
            versions(_subjects(one), campaign.pk)
            pass_fact("story", lambda: loads.append("inner") or "told")
        with django_assert_num_queries(0):
            assert versions(_subjects(one), campaign.pk) == {one: 5}
        assert pass_fact("story", lambda: loads.append("outer") or "again") == "told"
        with version_pass():  # without ``hand_over``: what it reads stays its own
            pass_fact("other", lambda: loads.append("kept apart") or "x")
        pass_fact("other", lambda: loads.append("outer") or "y")
    assert loads == ["inner", "kept apart", "outer"]


def test_a_pass_that_wrote_hands_nothing_over(django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    """Reads from before a write of the inner pass name a table that no longer stands: the outer pass reads again."""
    campaign = campaign_with()
    one = subject("character", 1)
    write_versions(campaign.pk, _subjects(one), 5)
    with version_pass():
        with version_pass(hand_over=True):
            versions(_subjects(one), campaign.pk)
            write_versions(campaign.pk, _subjects(one), 6)
        with django_assert_num_queries(1):
            assert versions(_subjects(one), campaign.pk) == {one: 6}


def test_a_pass_hands_nothing_to_a_pass_at_another_depth() -> None:
    """Reads made outside a transaction the outer pass is inside of (or the reverse) are not its to keep."""
    from core.regions import pass_fact

    loads: list[str] = []
    with version_pass():
        with transaction.atomic(), version_pass(hand_over=True):
            pass_fact("story", lambda: loads.append("inner") or "told")
        pass_fact("story", lambda: loads.append("outer") or "again")
    assert loads == ["inner", "outer"]


def test_subjects_read_by_a_declaration_must_be_of_the_kinds_it_declares_in_a_pass_or_not() -> None:
    """``Depends.more`` names subjects by reading (a board's participants): ``changed_by`` skips it for an Event that
    touched no subject of ``more_kinds``, so a subject of another kind would hide a change. It is refused, every time,
    inside a render pass (where a set read once is checked once) as outside."""
    from core.regions import Depends

    shared = frozenset({"character:1", "states:1"})
    stray = frozenset({"character:1", "sequence:4"})

    def declared(found: frozenset[str]) -> Depends:
        return Depends(1, frozenset({"sequence:9"}), more=lambda: found, more_kinds=frozenset({"character", "states"}))

    assert declared(shared).all_subjects() == {"sequence:9", "table:1", *shared}
    with version_pass():
        for _ in range(2):  # the same set, declared by two pages
            assert declared(shared).changed_by({"states:1"})
            with pytest.raises(ValueError, match="not of the declared kinds"):
                declared(stray).all_subjects()
    with pytest.raises(ValueError, match="sequence:4"):
        declared(stray).changed_by({"character:1"})
