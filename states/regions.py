"""The Savage-style states' regions (``core.regions``): a character's state panel and the round tracker.

Each is one named component, as the sheet and the Sequence board are: a context builder (below), one template and
a declaration of what its bytes read. The states page (``states/state.html``), the round tracker page, their htmx
answers, the live pushes (``campaigns.live_regions``: a page watching ``states:<id>`` or ``round:<campaign>``) and
the catch-up (``campaigns.live_catch_up``) all render them here, so no Event kind picks them: an Event refreshes
them when it touched a subject they declare.

- **The state panel** (``states/partials/panel.html``, ``id="savage-panel-<id>"``, watched under ``states:<id>``)
  reads the character (its name, kind, traits the dice derive from: ``character:<id>``), its state row and fatigue
  tracks (``states:<id>``: every Event naming the character touches it, a settle's wounds included) and the table's
  settings (the Savage dice table, whether the campaign plays the states: ``settings:<campaign>``). Viewer: whether
  the reader may change the character and whether they narrate (its buttons). Only a member who may see the
  character (``characters.access.can_view``: an NPC's state is the narrators' and its runner's) gets it.
- **The round tracker** (``states/partials/round.html``, ``id="savage-round-<campaign>"``, watched under
  ``round:<campaign>``) reads the tracker (``round:<campaign>``, touched by the round's own Events), every
  participant's character and state row (``characters:<campaign>``: any Event naming a character) and the settings.
  Viewer: narrators alike, each player alone (the rows they may act on or open). An NPC in the fight shows its
  badges to the table, as the states' Events of a character in the round are the table's.

The badge strip (``states/badges.html``) is markup of the regions that show it (the sheet, the dashboard's panels,
the "now" block, the state panel, the round tracker), each of which declares the states it reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns.event_subjects import CHARACTER, CHARACTERS, ROUND, SETTINGS, STATES
from campaigns.kept import campaign_row, table_head
from campaigns.models import Campaign, Membership
from characters.access import can_edit, can_view
from characters.labels import initiative_card_face
from characters.models import Character
from core.regions import Depends, Region, register, subject
from states.chronicle import action_label, fatigue_source_label, modifier_label, situation_label
from states.models import SavageRound, SavageState
from states.rules.fatigue import ACTIONS
from states.rules.initiative import is_red
from states.rules.situations import Situation
from states.rules.states import pace, roll_penalties
from states.selectors import card_state, fatigue_rows, fatigue_sources, round_of, settings_for, trait_die
from states.services.situations import parry_of


def expected_version(row: SavageState | SavageRound | None, model: type[SavageState | SavageRound]) -> int:
    """The version a form drawn now expects: the row's, or the first one a row gets when it does not exist yet.

    A form drawn before the character had a state used to carry ``version=""``, which skipped the stale check:
    twenty simultaneous "take 1 wound" on a fresh character applied four (issue 14). The services create the
    row at this first version inside their locked transaction, so the first of those requests applies and
    every other one finds a later version and is refused as stale.
    """
    if row is not None:
        return row.version
    default = model._meta.get_field("version").default
    return int(default)


def panel_state(character: Character) -> SavageState | None:
    """The character's state row with what the panel reads of it (its fatigue tracks, the traits its dice derive
    from), or None before its first state change."""
    return (
        SavageState.objects.filter(character=character)
        .select_related("character")
        .prefetch_related("fatigue_tracks", "character__traits")
        .first()
    )


_UNREAD: Any = object()


def panel_context(character: Character, membership: Membership, state: SavageState | None = _UNREAD) -> dict[str, Any]:
    """What the badges and the state panel show for one viewer (``state``: its ``panel_state``, when read)."""
    campaign = character.campaign
    if state is _UNREAD:
        state = panel_state(character)
    context: dict[str, Any] = {
        "character": character,
        "campaign": campaign,
        "membership": membership,
        "enabled": campaign.savage_states,
        "savage": state,
        "can_edit": can_edit(membership, character),
        "is_narrator": membership.is_narrator,
        "wound_steps": range(0, 5),
        "sources": [(key, fatigue_source_label(key)) for key in fatigue_sources()],
        "actions": [(key, action_label(key)) for key in ACTIONS],
        "situation_choices": [(s.value, situation_label(s.value)) for s in Situation],
    }
    if state is not None:
        card = card_state(state)
        options = settings_for(campaign)
        context.update(
            card=card,
            fatigue=[(row, fatigue_source_label(row.source)) for row in fatigue_rows(state)],
            penalties=[(modifier_label(m.key), m.value) for m in roll_penalties(card)],
            pace=pace(state.base_pace, card),
            dice={t: str(trait_die(state, t, settings=options)) for t in ("vigor", "spirit", "agility", "smarts")},
            situations=[(s, situation_label(s)) for s in state.situations],
            parry=parry_of(state),
        )
    context["version"] = expected_version(state, SavageState)
    return context


def round_context(campaign: Campaign, membership: Membership, tracker: SavageRound | None = _UNREAD) -> dict[str, Any]:
    """What the round tracker shows one viewer (``tracker``: the campaign's, when read)."""
    if tracker is _UNREAD:
        tracker = round_of(campaign)
    rows = []
    current = tracker.current_character_id if tracker else None
    if tracker is not None:
        participants = list(tracker.participants.select_related("campaign"))
        states = {s.character_id: s for s in SavageState.objects.filter(character__in=participants)}
        position = {int(pk): i for i, pk in enumerate(tracker.order)}
        participants.sort(key=lambda c: position.get(c.pk, len(position)))
        for character in participants:
            state = states.get(character.pk)
            card = tracker.cards.get(str(character.pk))
            prompts = []
            if state is not None and tracker.active:
                if state.shaken and character.pk == current:
                    prompts.append("shaken")
                # No card in État critique, but the bleeding roll still comes at the start of every round.
                if state.bleeding_out and not state.dead and (character.pk == current or card is None):
                    prompts.append("bleeding")
                if state.incapacitation_roll_due:
                    prompts.append("incapacitation")
            rows.append(
                {
                    "character": character,
                    "savage": state,
                    "card": initiative_card_face(card) if card else None,
                    "red": bool(card and is_red(card)),
                    "current": character.pk == current,
                    "prompts": prompts,
                    "can_edit": can_edit(membership, character),
                    "can_view": can_view(membership, character),
                }
            )
    return {
        "campaign": campaign,
        "membership": membership,
        "tracker": tracker,
        "rows": rows,
        "is_narrator": membership.is_narrator,
        "version": expected_version(tracker, SavageRound),
    }


@dataclass(frozen=True)
class StatePanel:
    """What the state panel region shows: a character and its ``panel_state`` (the page reads it once for the
    panel and the forms beside it)."""

    character: Character
    state: SavageState | None

    @property
    def campaign_id(self) -> int:
        return self.character.campaign_id


def panel_depends(panel: StatePanel, membership: Membership, request: Any = None) -> Depends:
    """The declaration of a character's state panel (see the module's docstring)."""
    character = panel.character
    campaign_id = character.campaign_id
    return Depends(
        campaign_id=campaign_id,
        subjects=frozenset(
            {subject(CHARACTER, character.pk), subject(STATES, character.pk), subject(SETTINGS, campaign_id)}
        ),
        rows=(character.pk, character.version, campaign_row(character.campaign)),
        viewer=(membership.is_narrator, can_edit(membership, character)),
        head=table_head(membership),
    )


def panel_of(character: Character, membership: Membership) -> StatePanel | None:
    """The panel ``membership`` may see of ``character`` (None: an NPC that is not theirs, or no states played)."""
    if not character.campaign.savage_states or not can_view(membership, character):
        return None
    return StatePanel(character, panel_state(character))


def _panel_of(character_id: int, membership: Membership) -> StatePanel | None:
    # This member's campaign only, and only a character they may see: a socket may name any id.
    character = (
        Character.objects.select_related("campaign", "owner")
        .filter(pk=character_id, campaign_id=membership.campaign_id)
        .first()
    )
    return None if character is None else panel_of(character, membership)


PANEL = register(
    Region(
        name="states-panel",
        template="states/partials/panel.html",
        load=_panel_of,
        context=lambda panel, membership, _request: panel_context(panel.character, membership, panel.state),
        depends=panel_depends,
        watch="states",  # the states page watches states:<id> (states.subjects.states_subject)
        element_id=lambda panel: f"savage-panel-{panel.character.pk}",
    )
)


@dataclass(frozen=True)
class RoundOf:
    """What the round tracker region shows: a campaign and its tracker (None before its first fight)."""

    campaign: Campaign
    tracker: SavageRound | None

    @property
    def campaign_id(self) -> int:
        return self.campaign.pk


def round_depends(shown: RoundOf, membership: Membership, request: Any = None) -> Depends:
    """The declaration of the round tracker (see the module's docstring)."""
    campaign = shown.campaign
    return Depends(
        campaign_id=campaign.pk,
        subjects=frozenset(subject(name, campaign.pk) for name in (ROUND, CHARACTERS, SETTINGS)),
        rows=(campaign_row(campaign),),
        viewer=("narrator",) if membership.is_narrator else ("player", membership.user_id),
        head=table_head(membership),
    )


def round_shown(campaign_id: int, membership: Membership) -> RoundOf | None:
    """The member's own campaign's tracker, whatever id a socket names; none where the states are not played (the
    page is 404 there)."""
    if campaign_id != membership.campaign_id or not membership.campaign.savage_states:
        return None
    return RoundOf(membership.campaign, round_of(membership.campaign))


ROUND_TRACKER = register(
    Region(
        name="round",
        template="states/partials/round.html",
        load=round_shown,
        context=lambda shown, membership, _request: round_context(shown.campaign, membership, shown.tracker),
        depends=round_depends,
        watch="round",  # the round tracker page watches round:<campaign> (states.subjects.round_subject)
        element_id=lambda shown: f"savage-round-{shown.campaign.pk}",
    )
)
