"""core.prepared: a read compiled once gives the instances the QuerySet gives, and refuses a read that does not
fit (SQL that depends on the arguments' values)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Event, Membership
from conflicts.models import Participant
from core.prepared import PreparedRead
from tests.conflicts.factories import fight

pytestmark = pytest.mark.django_db


def _fields(obj: object) -> list[object]:
    return [getattr(obj, f.attname) for f in obj._meta.concrete_fields]  # type: ignore[attr-defined]


def test_a_prepared_read_gives_the_querysets_instances_with_their_related_rows() -> None:
    f = fight(npcs=3)
    build = lambda sequence_id: (  # noqa: E731
        Participant.objects.filter(sequence_id=sequence_id).select_related("character").order_by("position", "pk")
    )
    read = PreparedRead(build)
    for _ in range(2):  # compiled, then run again with the compiled SQL
        got = read(f.sequence.pk)
        expected = list(build(f.sequence.pk))
        assert [_fields(p) for p in got] == [_fields(p) for p in expected] and len(got) == 4
        with CaptureQueriesContext(connection) as ctx:
            names = [p.character.name for p in got]  # loaded with the row: no query
            hands = [p.hand for p in got]  # a JSON column, converted as the QuerySet converts it
        assert len(ctx.captured_queries) == 0
        assert names == [p.character.name for p in expected] and hands == [p.hand for p in expected]
        assert all(isinstance(h, dict) for h in hands)
    assert read(10**9) == []
    members = PreparedRead(
        lambda campaign_id, user_id: (
            Membership.objects.select_related("campaign", "campaign__stream")
            .filter(campaign_id=campaign_id, user_id=user_id)
            .order_by()[:1]
        )
    )
    with CaptureQueriesContext(connection) as ctx:
        (member,) = members(f.campaign.pk, f.player.pk)
        assert member.campaign.name == f.campaign.name and member.user_id == f.player.pk
    assert len(ctx.captured_queries) == 1  # counted as any query
    assert members(f.campaign.pk, f.narrator.pk)[0].is_narrator


def test_a_read_whose_sql_depends_on_its_arguments_is_refused() -> None:
    since = PreparedRead(lambda moment: Event.objects.filter(created_at__gte=moment))
    with pytest.raises(TypeError):
        since(dt.datetime(2026, 1, 1, tzinfo=dt.UTC))  # adapted by the database: not the argument as it is
    with pytest.raises(TypeError):
        PreparedRead(lambda pk: Event.objects.filter(recipient_id=pk))(None)  # IS NULL: SQL of another shape
    swapped = PreparedRead(lambda a, b: Membership.objects.filter(user_id=b).filter(campaign_id=a))
    with pytest.raises(ImproperlyConfigured):
        swapped(1, 1)  # the SQL takes them in another order, even when the values happen to be equal
    # Django sorts a filter's keywords: the SQL takes the campaign before the primary key.
    sorted_keywords = PreparedRead(lambda pk, campaign_id: Membership.objects.filter(pk=pk, campaign_id=campaign_id))
    with pytest.raises(ImproperlyConfigured):
        sorted_keywords(3, 3)


def test_a_prepared_read_of_a_list_of_ids_and_of_value_tuples() -> None:
    """An ``__in`` tuple is compiled once per length; an empty one reads nothing; ``values_list`` gives tuples."""
    f = fight(npcs=3)
    ids = tuple(p.pk for p in [f.pc, *f.npcs])
    build = lambda pks, floor: (  # noqa: E731
        Participant.objects.filter(pk__in=pks, position__gte=floor).values_list("pk", "side", "split")
    )
    read = PreparedRead(build)
    for chosen in (ids, ids[:2], ids, ids[1:2]):
        assert read(chosen, 0) == list(build(chosen, 0))
    assert sorted(row[0] for row in read(ids, 0)) == sorted(ids)
    with CaptureQueriesContext(connection) as ctx:
        assert read((), 0) == []
    assert len(ctx.captured_queries) == 0
    # Compiled from distinct stand-ins: a repeated id later is one more placeholder, the same rows.
    assert read((ids[0], ids[0]), 0) == list(build((ids[0], ids[0]), 0))


def test_a_read_keeps_its_own_parameters_and_annotations_and_refuses_a_value_made_from_an_argument() -> None:
    """A parameter the query carries whatever the arguments (SQLite's JSON path) is kept as it is; the columns of a
    ``values_list`` read, annotations among them, come in the order it names them; a parameter made from an
    argument (an id plus one) is not the argument as it is, and is refused rather than run with the stand-in's."""
    from django.db.models import F, TextField
    from django.db.models.fields.json import KeyTextTransform
    from django.db.models.functions import Cast

    f = fight(npcs=2)
    build = lambda campaign_id, sequence_key: (  # noqa: E731
        Event.objects.filter(campaign_id=campaign_id)
        .alias(named=Cast(KeyTextTransform("sequence", "payload"), TextField()))
        .filter(named=sequence_key)
        .annotate(kind_text=Cast("kind", TextField()))
        .values_list("kind_text", "pk", "campaign_id")
        .order_by("pk")
    )
    read = PreparedRead(build)
    for _ in range(2):
        got = read(f.campaign.pk, str(f.sequence.pk))
        assert got == list(build(f.campaign.pk, str(f.sequence.pk))) and got
        assert {row[0] for row in got} >= {"sequence.created", "sequence.joined"}
    assert read(f.campaign.pk, str(10**9)) == []
    plus_one = PreparedRead(lambda pk: Event.objects.filter(pk=F("pk")).filter(position=pk + 1))
    with pytest.raises(ImproperlyConfigured):
        plus_one(3)
