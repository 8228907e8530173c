"""The live regions of the states pages (campaigns.live's ``?watch=`` subjects)."""

from __future__ import annotations


def round_subject(campaign_id: int) -> str:
    """The round tracker's page."""
    return f"round:{campaign_id}"


def states_subject(character_id: int) -> str:
    """A character's states page (its state panel)."""
    return f"states:{character_id}"
