"""Reads of conflicts: scenes, a sequence as one viewer may see it, and exact odds of a split."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404

from campaigns.models import Campaign, Membership
from conflicts import decks as deck_store
from conflicts import sheets
from conflicts.models import Deck, Participant, Phase, Scene, Sequence
from conflicts.rules.budget import Budget, Split
from conflicts.rules.cards import Card, SuccessRule
from conflicts.rules.deck import DeckState, draw_pool
from conflicts.rules.errors import RuleError
from conflicts.rules.odds import Pool, target_odds
from conflicts.services.changes import controls, runs_itself
from conflicts.setup import (
    attack_draws,
    budget_of,
    costs_of,
    default_split,
    effect_of,
    era_armour,
    era_defence_weight,
    opponents_of,
    penalty_of,
    split_from,
)
from conflicts.snapshot import SequenceSnapshot
from conflicts.snapshot import of as snapshot_of
from conflicts.story import Story, sequence_story
from core.prepared import PreparedRead
from core.regions import pass_fact


def scenes_of(campaign: Campaign) -> QuerySet[Scene]:
    return Scene.objects.filter(campaign=campaign).prefetch_related(
        Prefetch("sequences", queryset=Sequence.objects.order_by("created_at", "pk"))
    )


# The reads of every Sequence page, odds keystroke and draw, compiled once (core.prepared): compiling them cost more
# than running them.
_sequence = PreparedRead(  # the arguments in the SQL's order: Django sorts a filter's keywords
    lambda campaign_id, sequence_id: (
        Sequence.objects.select_related("scene").filter(campaign_id=campaign_id, pk=sequence_id).order_by("pk")[:1]
    )
)
_sequence_of_participant = PreparedRead(
    lambda campaign_id, participant_id: (
        Sequence.objects.select_related("scene")
        .filter(campaign_id=campaign_id, participants=participant_id)
        .order_by("pk")[:1]
    )
)
_participants = PreparedRead(
    lambda sequence_id: (
        Participant.objects.filter(sequence_id=sequence_id).select_related("character").order_by("position", "pk")
    )
)
_decks = PreparedRead(lambda campaign_id: Deck.objects.filter(campaign_id=campaign_id))


def sequence_for(membership: Membership, sequence_id: int) -> Sequence:
    found = _sequence(int(membership.campaign_id), int(sequence_id))
    if not found:
        raise Http404
    sequence = found[0]
    sequence.campaign = membership.campaign  # the member's campaign, already read: the same row
    return sequence


def sequence_of_participant(membership: Membership, participant_id: int) -> Sequence:
    """The sequence of this member's campaign that ``participant_id`` takes part in (404 otherwise), in one query."""
    found = _sequence_of_participant(int(membership.campaign_id), int(participant_id))
    if not found:
        raise Http404
    sequence = found[0]
    sequence.campaign = membership.campaign  # the member's campaign, already read: the same row
    return sequence


def participants_of(sequence: Sequence) -> list[Participant]:
    """With their characters; not the owners' user rows: who runs a character is its ``owner_id``, and the
    users' columns were a sixth of the read."""
    participants = _participants(int(sequence.pk))
    for p in participants:
        p.sequence = sequence  # as ``sequence.participants`` sets it: no query for it
    return participants


def shared_snapshot(sequence: Sequence) -> SequenceSnapshot:
    """What the rules read of ``sequence`` as the database holds it (``conflicts.snapshot``), read once per render pass
    for every viewer (``core.regions.pass_fact``: the twenty pages a live draw is rendered for each build a board)."""
    found: SequenceSnapshot = pass_fact(
        ("sequence snapshot", int(sequence.pk)), lambda: snapshot_of(sequence, shared_participants(sequence))
    )
    return found


def shared_participants(sequence: Sequence) -> list[Participant]:
    """``participants_of``, read once per render pass for every viewer (a board's declaration and its snapshot)."""
    found: list[Participant] = pass_fact(("sequence participants", int(sequence.pk)), lambda: participants_of(sequence))
    return found


def campaign_decks(campaign_id: int) -> list[Deck]:
    """The campaign's decks, in their model's order (holder, kind, pk): read once per render pass (the boards and deck
    lists of a live draw's twenty pages)."""
    found: list[Deck] = pass_fact(("campaign decks", int(campaign_id)), lambda: _decks(int(campaign_id)))
    return found


def visible_decks(membership: Membership, decks: list[Deck] | None = None) -> list[Deck]:
    """Decks this member deals from or may shuffle: all of them for narrators. ``decks``: the campaign's, when
    the caller has read them (``Board.campaign_decks``), in the model's order (holder, kind, pk)."""
    if decks is None:
        decks = campaign_decks(membership.campaign_id)
    if membership.is_narrator:
        return list(decks)
    return [d for d in decks if d.holder in ("table", "players") or d.player_id == membership.user_id]


@dataclass
class ShownCard:
    code: str
    red: bool
    success: bool
    ref: str
    flipped: bool


@dataclass
class ParticipantView:
    participant: Participant
    controlled: bool
    secret: bool  # NPC details the viewer may not see
    budget: Budget | None
    split: dict[str, Any]
    attack_cards: list[tuple[str, list[ShownCard]]] = field(default_factory=list)
    defence_cards: list[ShownCard] = field(default_factory=list)
    received: dict[str, Any] = field(default_factory=dict)
    blocked: str = ""  # why the state cards keep this participant from drawing (states.bridge)
    shaken: bool = False  # Shaken: defence cards only
    bulk: BulkSplit | None = None  # narrators: an NPC still to draw, as the "draw for all NPCs" form sets it


@dataclass(frozen=True)
class BulkSplit:
    """An NPC's split as three fields of the console's bulk draw: attack cards on one opponent, the rest in
    defence. An NPC whose saved split says more (several targets, covering a teammate) keeps it: no fields."""

    attack: int
    target: str
    defence: int
    opponents: list[tuple[str, str]]


@dataclass
class Board:
    sequence: Sequence
    views: list[ParticipantView]
    sides: list[tuple[str, list[ParticipantView]]]
    mine: list[ParticipantView]
    outcome: dict[str, Any]
    is_narrator: bool
    penalties: dict[int, int]
    story: Story | None = None  # told lazily: a board found kept reads none of it
    lowered: dict[int, int] = field(default_factory=dict)
    effects: dict[int, Any] = field(default_factory=dict)
    npcs_to_draw: int = 0  # narrators: NPCs nobody else runs, still to draw in this draw
    to_draw: int = 0
    standing: int = 0

    decks: dict[tuple[str, str, int | None], DeckState] | None = None
    deck_rows: list[Deck] | None = None
    snapshot: SequenceSnapshot | None = None  # what it was built from (``as_spectators_read_it`` reads it again)

    @property
    def campaign_decks(self) -> list[Deck]:
        """The campaign's decks (in their model's order), read once for the page's deck list and the odds."""
        if self.deck_rows is None:
            self.deck_rows = campaign_decks(self.sequence.campaign_id)
        return self.deck_rows

    @property
    def states(self) -> dict[tuple[str, str, int | None], DeckState]:
        """The decks as they stand, read the first time a draw panel's odds need them (the console has none)."""
        if self.decks is None:
            self.decks = {(d.kind, d.holder, d.player_id): deck_store.state_of(d) for d in self.campaign_decks}
        return self.decks


def _shown(part: str, key: str, codes: list[str], flipped: set[str], rule: SuccessRule) -> list[ShownCard]:
    out = []
    for i, code in enumerate(codes):
        card = Card.parse(code)
        ref = f"{part}:{key}:{i}"
        out.append(ShownCard(code, card.suit.red, card.is_success(rule) != (ref in flipped), ref, ref in flipped))
    return out


def sequence_board(
    sequence: Sequence, membership: Membership, participants: list[Participant] | None = None, *, story: bool = True,
    snapshot: SequenceSnapshot | None = None,
) -> Board:  # fmt: skip
    """Everything the sequence page shows to one viewer. Players never see an NPC's trait value or split
    before its cards are drawn; drawn cards are on the table for everyone. ``story=False``: without the
    sequence told from the log (the odds endpoint shows none of it). ``snapshot``: the rows a use case just
    decided on and wrote (``conflicts.snapshot``), read again from nowhere."""
    if snapshot is None:
        snapshot = snapshot_of(sequence, participants) if participants is not None else shared_snapshot(sequence)
    sequence, everyone = snapshot.sequence, snapshot.everyone
    penalties, lowered, effects = snapshot.penalties, snapshot.lowered, snapshot.effects
    views = []
    for p in everyone:
        if not controls(membership, p):
            # The rows nobody controls read the same for every viewer: built once per snapshot (the pass's one snapshot
            # of a live draw's twenty boards: ``shared_snapshot``), and only each viewer's own built for them.
            views.append(spectator_view(snapshot, p))
            continue
        view = _view(snapshot, p, controlled=True)
        if membership.is_narrator and view.budget is not None and sequence.phase == Phase.DRAWING and not p.drawn:
            view.bulk = (
                _bulk(p, everyone, view.budget, view.shaken, sequence.collective)
                if runs_itself(p) and p.active
                else None
            )
        views.append(view)
    sides: dict[str, list[ParticipantView]] = {}
    for v in views:
        sides.setdefault(v.participant.side, []).append(v)
    return Board(
        sequence=sequence,
        snapshot=snapshot,
        views=views,
        sides=list(sides.items()),
        mine=[v for v in views if v.controlled and v.participant.active],
        outcome=sequence.outcome,
        is_narrator=membership.is_narrator,
        penalties=penalties,
        lowered=lowered,
        effects=effects,
        story=sequence_story(sequence, membership) if story else None,
        npcs_to_draw=sum(
            1
            for v in views
            if v.participant.active and not v.participant.drawn and not v.blocked and runs_itself(v.participant)
        ),
        # Who the draw waits for: a participant who cannot act (État critique…) is not (services.drawing).
        to_draw=sum(1 for v in views if v.participant.active and not v.participant.drawn and not v.blocked),
        standing=sum(1 for v in views if v.participant.active and not v.blocked),
    )


def _view(snapshot: SequenceSnapshot, p: Participant, *, controlled: bool) -> ParticipantView:
    """Participant ``p`` as a viewer who controls it (or not) reads it: players never see an NPC's trait value or
    split before its cards are drawn, nor a budget they do not control; drawn cards are on the table for everyone."""
    sequence, everyone, settings = snapshot.sequence, snapshot.everyone, snapshot.settings
    penalties, lowered, effects = snapshot.penalties, snapshot.lowered, snapshot.effects
    rule = deck_store.success_rule(settings)
    show_budget = controlled and sequence.phase != Phase.ENDED
    budget = (
        budget_of(p, sequence, settings, penalty=penalty_of(p, sequence, penalties), everyone=everyone,
                  lowered=lowered, effects=effects)
        if show_budget
        else None
    )  # fmt: skip
    flipped = set(p.hand.get("flipped", []))
    names = {q.key: q.character.name for q in everyone} if p.hand.get("attack") else {}
    effect = effect_of(p, sequence, effects)
    return ParticipantView(
        participant=p,
        controlled=controlled,
        secret=not controlled and p.character.kind == "npc",
        budget=budget,
        split=p.split if (controlled or p.drawn or p.character.kind != "npc") else {},
        attack_cards=[
            (names.get(k, k), _shown("attack", k, v, flipped, rule)) for k, v in p.hand.get("attack", {}).items()
        ],
        defence_cards=[c for k, v in p.hand.get("defence", {}).items() for c in _shown("defence", k, v, flipped, rule)],
        received=sequence.outcome.get("targets", {}).get(p.key, {}) if sequence.phase == Phase.RESOLVED else {},
        blocked=sheets.states_refusal(effect),
        shaken=bool(effect.shaken),
    )


def spectator_view(snapshot: SequenceSnapshot, p: Participant) -> ParticipantView:
    """``p`` as a viewer who does not control it reads it, built once per snapshot for every such viewer."""
    view = snapshot.spectator_views.get(p.pk)
    if view is None:
        view = snapshot.spectator_views[p.pk] = _view(snapshot, p, controlled=False)
    return view


def as_spectators_read_it(board: Board) -> Board:
    """``board`` as a player who controls none of it reads it: each participant as ``spectator_view`` shows it (no
    budget; an NPC's split and trait value hidden until it has drawn). The players' board is kept so, for every
    player who reads its story alike, and each player's own rows are put in afterwards (``conflicts.regions``)."""
    if board.is_narrator or not any(v.controlled for v in board.views):
        return board
    assert board.snapshot is not None  # every board is built from one (``sequence_board``)
    views = [spectator_view(board.snapshot, v.participant) if v.controlled else v for v in board.views]
    sides: dict[str, list[ParticipantView]] = {}
    for v in views:
        sides.setdefault(v.participant.side, []).append(v)
    return replace(board, views=views, sides=list(sides.items()), mine=[])


def _bulk(
    p: Participant, everyone: list[Participant], budget: Budget, shaken: bool, collective: bool
) -> BulkSplit | None:
    opponents = [(q.key, q.character.name) for q in everyone if q.side != p.side and q.active]
    saved = split_from(p.split)
    if len(saved.attack) > 1 or set(saved.defence) - {p.key} or not opponents:
        return None  # more than the bulk form's fields can say: the row shows it as text
    split = default_split(p, everyone, budget, shaken=shaken, collective=collective)
    if len(split.attack) > 1 or set(split.defence) - {p.key}:
        return None
    target, attack = next(iter(split.attack.items()), (opponents[0][0], 0))
    return BulkSplit(attack=attack, target=target, defence=split.defence_cards, opponents=opponents)


def deck_states(campaign: Campaign) -> dict[tuple[str, str, int | None], DeckState]:
    return {(d.kind, d.holder, d.player_id): deck_store.state_of(d) for d in campaign_decks(campaign.pk)}


@dataclass
class OpponentOdds:
    participant: Participant
    attack: int
    drawn: int
    chances: tuple[float, float, float, float]
    defence_known: bool
    defence_note: str  # "drawn", "declared", "unknown"
    teammates_pending: int = 0  # cards teammates declared against this opponent and have yet to draw, counted

    @property
    def percents(self) -> list[str]:
        return [f"{100 * p:.1f}" for p in self.chances]


def _pool(state_cards: tuple[Card, ...], rule: SuccessRule) -> Pool:
    return Pool(len(state_cards), sum(1 for c in state_cards if c.is_success(rule)))


def _declared_visible(membership: Membership, p: Participant) -> bool:
    """A declared split is the table's for a PC, the narrators' (and its runner's) for an NPC."""
    return bool(p.split) and (p.character.kind != "npc" or controls(membership, p))  # controls: narrators too


def split_odds(
    sequence: Sequence,
    me: Participant,
    split: Split,
    membership: Membership,
    participants: list[Participant] | None = None,
    states: dict[tuple[str, str, int | None], DeckState] | None = None,
) -> list[OpponentOdds]:
    """Exact chances of 0, 1, 2 and 3+ Revers on each opponent for this split, over the cards left.

    Counted, on each opponent, every card of this draw that will land on it as far as the viewer can know:
    your attack cards (cover applied); the successes teammates already put on it (drawn) and the cards they
    declared against it and have yet to draw; its defence, and its teammates' defence covering it, drawn or
    declared where you may see the split. Cards of the same deck are drawn without replacement whatever the
    order (the groups are enumerated together); cards nobody has declared, or aimed elsewhere, do not change
    the chances of yours: a card not yet seen is as likely to be any card left, whoever draws first
    (docs/rules-decisions.md, « Exact odds »). The deck is taken as it is now, reshuffled first if the
    draws counted need more than its pile (as dealing will do); if teammates' cards would need a reshuffle
    that your own draw does not, they are left out (dealing order would decide it) and the odds are yours.
    """
    everyone = participants if participants is not None else participants_of(sequence)
    settings = deck_store.table_settings(sequence.campaign)
    rule = deck_store.success_rule(settings)
    by_key = {p.key: p for p in everyone}
    states = states if states is not None else deck_states(sequence.campaign)
    attack_address = deck_store.deck_address(settings, me, "attack")
    defence_address = deck_store.deck_address(settings, me, "defence")
    my_attack = attack_draws(split, by_key, settings)
    my_demand = {attack_address: sum(my_attack.values())}
    my_demand[defence_address] = my_demand.get(defence_address, 0) + split.defence_cards
    costs = costs_of(sequence, everyone)
    out = []
    for opp in everyone:
        if opp.side == me.side or not opp.active:
            continue
        known_attack = 0
        mates: list[tuple[tuple[str, str, int | None], int]] = []
        mate_costs = [costs.get((me.key, opp.key), 1)]
        for mate in everyone:
            if mate.side != me.side or mate.pk == me.pk or not mate.active:
                continue
            if mate.drawn:
                known_attack += _successes(mate, "attack", opp.key, rule)
            elif _declared_visible(membership, mate):
                n = attack_draws(split_from(mate.split), by_key, settings).get(opp.key, 0)
                if n:
                    mates.append((deck_store.deck_address(settings, mate, "attack"), n))
                    mate_costs.append(costs.get((mate.key, opp.key), 1))
        known_defence = known_armour = 0
        defence: list[tuple[tuple[str, str, int | None], int]] = []
        armour: list[tuple[tuple[str, str, int | None], int, int]] = []
        weight = era_defence_weight(opp, opponents_of(opp, everyone))
        a_weight, a_cards = era_armour(opp, opponents_of(opp, everyone))
        a_cards = a_cards if a_weight > weight else 0
        note = "drawn" if opp.drawn else "declared" if _declared_visible(membership, opp) else "unknown"
        for protector in everyone:
            if protector.side != opp.side or not protector.active:
                continue
            if protector.drawn:
                known_defence += _successes(protector, "defence", opp.key, rule)
                if protector is opp and a_cards:
                    known_armour += (a_weight - weight) * _successes(opp, "defence", opp.key, rule, first=a_cards)
            elif _declared_visible(membership, protector):
                n = int(protector.split.get("defence", {}).get(opp.key, 0))
                address = deck_store.deck_address(settings, protector, "defence")
                if n and protector is opp and a_cards:
                    # « Chaque succès d'une armure du futur annule deux succès »: its own cards only.
                    armour.append((address, min(n, a_cards), a_weight))
                    n -= min(n, a_cards)
                if n:
                    defence.append((address, n))
        odds = _odds_on(
            states, rule, my_demand, [(attack_address, my_attack.get(opp.key, 0))], mates, defence,
            known_attack=known_attack, known_defence=known_defence, defence_weight=weight, cost=max(mate_costs),
            armour=armour, known_armour_cancels=known_armour,
        )  # fmt: skip
        if odds is None:
            continue
        chances, attack_n, mates_n = odds
        out.append(OpponentOdds(opp, split.attack.get(opp.key, 0), attack_n, chances, note != "unknown", note, mates_n))
    return out


Address = tuple[str, str, int | None]


def _odds_on(
    states: dict[Address, DeckState], rule: SuccessRule, my_demand: dict[Address, int],
    mine: list[tuple[Address, int]], mates: list[tuple[Address, int]], defence: list[tuple[Address, int]],
    *, known_attack: int, known_defence: int, defence_weight: int, cost: int,
    armour: list[tuple[Address, int, int]] | None = None, known_armour_cancels: int = 0,
) -> tuple[tuple[float, float, float, float], int, int] | None:  # fmt: skip
    """The chances on one target; teammates' pending cards only where they fit in the pile with yours."""
    for with_mates in (True, False):
        groups = mine + (mates if with_mates else [])
        demand = dict(my_demand)
        armoured = [(a, n) for a, n, _w in armour or []]
        for address, n in (mates if with_mates else []) + defence + armoured:
            demand[address] = demand.get(address, 0) + n
        if (
            with_mates
            and mates
            and any(
                (state := states.get(a)) is not None and n > len(state.pile) and my_demand.get(a, 0) <= len(state.pile)
                for a, n in demand.items()
            )
        ):
            continue
        pools: dict[Hashable, Pool] = {}
        for address, n in demand.items():
            state = states.get(address)
            pools[address] = _pool(draw_pool(state, n) if state is not None else _fresh_cards(address), rule)
        left = {a: pool.size for a, pool in pools.items()}
        attack = []
        for address, n in groups:
            taken = min(n, left[address])
            left[address] -= taken
            attack.append((address, taken))
        defence_n = []
        for address, n in defence:
            taken = min(n, left[address])
            left[address] -= taken
            defence_n.append((address, taken))
        armour_n = []
        for address, n, w in armour or []:
            taken = min(n, left[address])
            left[address] -= taken
            armour_n.append((address, taken, w))
        try:
            odds = target_odds(
                pools=pools, attack=attack, defence=defence_n, known_attack=known_attack,
                known_defence=known_defence, defence_weight=defence_weight, cost=cost,
                armour=armour_n, known_armour_cancels=known_armour_cancels,
            )  # fmt: skip
        except RuleError:
            continue
        mates_n = sum(n for _a, n in attack[len(mine) :])
        return odds.chances, attack[0][1] if mine else 0, mates_n
    return None


def _fresh_cards(address: tuple[str, str, int | None]) -> tuple[Card, ...]:
    from conflicts.rules.cards import DeckKind, composition

    return composition(DeckKind(address[0]))


def _successes(p: Participant, part: str, key: str, rule: SuccessRule, *, first: int | None = None) -> int:
    flipped = set(p.hand.get("flipped", []))
    codes = p.hand.get(part, {}).get(key, [])[:first]
    return sum(1 for i, c in enumerate(codes) if Card.parse(c).is_success(rule) != (f"{part}:{key}:{i}" in flipped))
