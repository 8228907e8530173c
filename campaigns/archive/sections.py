"""An app's part of a campaign's archive, declared once: its section's name, its place in the restoring order,
and for each of its models the path from a row to the campaign.

Each app's archive module used to list ``Table``s that repeated the section's name and order, each finding its
rows with ``Model.objects.filter(<path>=campaign)``. A ``Section`` says the name and order once, and
``Section.table`` registers a model by its path (``"campaign"``, or ``"sequence__campaign"`` for a row that
reaches the campaign through another). ``key_renumbered`` is the payload rewrite of the kinds whose payload
names one row under one key (a game's events name ``"game"``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import models

from campaigns.archive.registry import JsonIds, Renumber, Table, register_table

if TYPE_CHECKING:
    from campaigns.models import Campaign


def rows_of(model: type[models.Model], path: str) -> Callable[[Campaign], Iterable[models.Model]]:
    """The campaign's rows of ``model``: those whose ``path`` leads to it."""

    def rows(campaign: Campaign) -> Iterable[models.Model]:
        return model._default_manager.filter(**{path: campaign})

    return rows


@dataclass(frozen=True)
class Section:
    """One app's section of the archive: written under ``name``, restored at ``order`` (``registry.Table``)."""

    name: str
    order: int

    def table(
        self,
        model: type[models.Model],
        *,
        campaign: str = "campaign",
        skip: tuple[str, ...] = (),
        json_ids: dict[str, JsonIds] | None = None,
        after_restore: Callable[[list[Any], Campaign], None] | None = None,
        written_once: bool = False,
    ) -> Table:
        """Register ``model``'s rows whose ``campaign`` path leads to the campaign; the options are ``Table``'s."""
        return register_table(
            Table(
                model=model,
                rows=rows_of(model, campaign),
                section=self.name,
                order=self.order,
                skip=skip,
                json_ids=json_ids or {},
                after_restore=after_restore,
                written_once=written_once,
            )
        )


def key_renumbered(key: str, label: str) -> JsonIds:
    """The rewrite of a JSON object that names a row of ``label`` under ``key`` (anything else unchanged)."""

    def rewrite(value: Any, renumber: Renumber, row: Any) -> Any:
        if isinstance(value, dict) and key in value:
            return {**value, key: renumber(label, value[key])}
        return value

    return rewrite
