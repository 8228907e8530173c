"""The cards' section of the campaign settings page (campaigns/settings_sections.py): how the table draws in
conflicts and Sequences (which cards succeed, the decks, cover) and the decks on the table, each reshuffled with one
tap (the dealer's privilege, conflicts:reshuffle)."""

from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import gettext as _

from campaigns.access import MemberRequest
from campaigns.settings_page import settings_url
from campaigns.settings_sections import SectionAnswer, SettingsSection, register_settings_section, saved_or_refused
from conflicts import decks as deck_store
from conflicts.forms import TableSettingsForm
from conflicts.models import Deck
from conflicts.services.table import table_settings_update


def _context(request: MemberRequest, data: Any = None) -> dict[str, Any]:
    campaign = request.membership.campaign
    settings = deck_store.table_settings(campaign)
    return {
        # auto_id: the settings page holds every section's form, each with a version field.
        "form": TableSettingsForm(
            data, instance=copy.copy(settings), initial={"version": settings.version}, auto_id="id_table_%s"
        ),
        "decks": list(Deck.objects.filter(campaign=campaign).select_related("player")),
        "next_url": settings_url(campaign.pk, "cards"),
    }


def _post(request: MemberRequest) -> SectionAnswer:
    context = _context(request, request.POST)
    form = context["form"]

    def apply() -> None:
        table_settings_update(
            campaign=request.membership.campaign, actor=request.user, expected_version=form.cleaned_data["version"],
            data={k: v for k, v in form.cleaned_data.items() if k != "version"},
        )  # fmt: skip

    answer = saved_or_refused({"form": form}, apply, message=_("Table settings saved."))
    if not answer.saved:
        answer.context.update({k: v for k, v in context.items() if k != "form"})
    return answer


def register() -> None:
    register_settings_section(SettingsSection(
        key="cards", title=lambda: _("Cards, conflicts and Sequences"), order=50,
        template="conflicts/settings_section.html", context=_context, post=_post,
    ))  # fmt: skip
