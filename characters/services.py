"""Use cases of the characters app. Each one is atomic, locks the sheet it changes, checks the rules
in ``characters.rules`` and appends one Event (``character.*``) through ``campaigns.services.event_append``.

Refusals raise ``core.errors.ServiceError`` (``PermissionRefused``, ``StaleState``) with a message in
the user's language that names the broken rule, and change nothing.

Stable interface for resolution (issue 4) and states (issue 5): ``atout_spend``, ``atout_gain``,
``revers_inflict``, ``revers_heal``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from campaigns.models import Campaign, CreationMode, GameSession, Membership, SessionStatus, Visibility
from campaigns.services import event_append
from characters.models import (
    AtoutEntry,
    Character,
    CharacterKind,
    CharacterRules,
    CharacterTrait,
    Equipment,
    EquipmentCategory,
    PowerFeed,
    Progression,
    Revers,
    ReversDomain,
    ReversNature,
)
from characters.rule_messages import rule_message
from characters.rules import creation as creation_rules
from characters.rules import psychic
from characters.rules.atouts import (
    PROGRESSION_ONE_PER_RANK,
    PROGRESSION_STREAMLINED,
    AtoutUse,
    Balances,
    GainReason,
    Pool,
    RollHistory,
    SpendRequest,
    in_play_raise_cost,
    in_play_rank_cost,
    progression_cost,
    session_award,
    spend_plan,
)
from characters.rules.equipment import check_quality, vehicles
from characters.rules.errors import RuleViolation
from characters.rules.ladder import Rank
from characters.rules.revers import (
    check_severity,
    first_aid_required_rank,
    first_aid_result,
    out_of_action,
    recover,
    recovery_days,
)
from characters.rules.traits import TraitDef, TraitKind, creation_default, custom_trait, traits_from_dicts
from characters.selectors import character_rules, ranks_lowered, trait_def_map, trait_defs, trait_value
from core.errors import PermissionRefused, ServiceError, StaleState

# ---------------------------------------------------------------- helpers


def _refuse(violation: RuleViolation, names: Mapping[str, str] | None = None) -> ServiceError:
    return ServiceError(rule_message(violation, names))


def _membership(campaign_id: int, user: User | None) -> Membership | None:
    if user is None:
        return None
    return Membership.objects.filter(campaign_id=campaign_id, user=user).first()


def _require_member(campaign_id: int, actor: User | None) -> Membership:
    membership = _membership(campaign_id, actor)
    if membership is None:
        raise PermissionRefused(_("You are not a member of this campaign."))
    return membership


def _require_narrator(campaign_id: int, actor: User | None) -> Membership:
    membership = _require_member(campaign_id, actor)
    if not membership.is_narrator:
        raise PermissionRefused(_("Only a narrator can do this."))
    return membership


def _require_editor(character: Character, actor: User | None) -> Membership:
    """« Owner and narrators edit »: the player who runs the character, or a narrator."""
    membership = _require_member(character.campaign_id, actor)
    if not membership.is_narrator and character.owner_id != membership.user_id:
        raise PermissionRefused(_("Only this character's player or a narrator can change this sheet."))
    return membership


def _lock(character: Character) -> Character:
    return Character.objects.select_for_update(of=("self",)).select_related("campaign", "owner").get(pk=character.pk)


def _visibility(character: Character) -> dict[str, Any]:
    """PCs' changes are public; an NPC's are the narrators' (and the player running it as an ally)."""
    if character.kind == CharacterKind.PC:
        return {"visibility": Visibility.EVERYONE}
    if character.owner_id:
        return {"visibility": Visibility.PLAYER, "recipient": character.owner}
    return {"visibility": Visibility.NARRATORS}


def _append(character: Character, kind: str, actor: User | None, payload: Mapping[str, Any]) -> None:
    event_append(
        campaign=character.campaign,
        kind=kind,
        actor=actor,
        payload={"character": character.name, "character_id": character.pk, **payload},
        characters=[character],
        **_visibility(character),
    )


def _open_session(campaign: Campaign) -> GameSession | None:
    return campaign.game_sessions.filter(status=SessionStatus.OPEN).first()


def _bump(character: Character, *fields: str) -> None:
    character.version += 1
    character.save(update_fields=["version", *fields])


def _names(defs: Iterable[TraitDef]) -> dict[str, str]:
    return {t.code: t.name_fr for t in defs}


def _balances(character: Character) -> Balances:
    return Balances(creation=character.atouts_creation, experience=character.atouts_experience)


def _write_entries(
    character: Character,
    plan: Mapping[Pool, int],
    *,
    sign: int,
    actor: User | None,
    game_session: GameSession | None,
    use: str = "",
    reason: str = "",
    justification: str = "",
    context: Mapping[str, Any] | None = None,
    refunds: AtoutEntry | None = None,
) -> AtoutEntry:
    """Write one ledger entry per pool (a shared ``group``) and move the cached balances."""
    entries = []
    for pool, amount in plan.items():
        entry = AtoutEntry(
            character=character,
            delta=sign * amount,
            pool=pool,
            use=use,
            reason=reason,
            justification=justification,
            context=dict(context or {}),
            game_session=game_session,
            actor=actor,
            refunds=refunds,
        )
        entry.full_clean(exclude=["character", "game_session", "actor", "refunds"])
        entry.save()
        entries.append(entry)
        if pool == Pool.CREATION:
            character.atouts_creation += sign * amount
        else:
            character.atouts_experience += sign * amount
    group = entries[0].pk
    AtoutEntry.objects.filter(pk__in=[e.pk for e in entries]).update(group=group)
    for entry in entries:
        entry.group = group
    if character.atouts_creation < 0 or character.atouts_experience < 0:
        raise ServiceError(_("An Atout balance cannot go below zero."))  # guarded by spend_plan; never partial
    return entries[0]


# ---------------------------------------------------------------- creation


def progression_scheme(rules: CharacterRules, campaign: Campaign, character: Character | None = None) -> str:
    """The price list of raises: the campaign's rule if set, else the mode the character was made under (a
    Standard character keeps Standard prices after the campaign switches to Streamlined)."""
    if rules.progression:
        return str(rules.progression)
    mode = (character.creation_mode if character is not None else "") or campaign.creation_mode
    return PROGRESSION_STREAMLINED if mode == CreationMode.STREAMLINED else PROGRESSION_ONE_PER_RANK


def creation_total(campaign: Campaign, rules: CharacterRules) -> int:
    if campaign.creation_mode == CreationMode.STREAMLINED:
        return int(rules.streamlined_atouts)
    return int(campaign.starting_atouts)


def creation_traits(
    campaign: Campaign, rules: CharacterRules, custom: Iterable[Mapping[str, str]] = ()
) -> tuple[TraitDef, ...]:
    """The traits a new character may rate: the campaign's list plus, where allowed, player-named ones."""
    defs = list(trait_defs(rules))
    custom = list(custom)
    if custom and not (campaign.creation_mode == CreationMode.FREE or rules.players_name_traits):
        raise ServiceError(_("In this campaign, traits come from the narrator's list."))
    known = {t.code for t in defs}
    for item in custom:
        name = (item.get("name") or "").strip()
        if not name:
            continue
        trait = custom_trait(name, TraitKind(item.get("kind") or TraitKind.FIELD))
        if trait.code not in known:
            defs.append(trait)
            known.add(trait.code)
    return tuple(defs)


@transaction.atomic
def character_create(
    *,
    campaign: Campaign,
    actor: User,
    name: str,
    concept: str,
    goal: str,
    ranks: Mapping[str, int],
    custom_traits: Iterable[Mapping[str, str]] = (),
    owner: User | None = None,
    permitted: Iterable[str] = (),
) -> Character:
    """Create a PC through the campaign's creation mode, or refuse naming the broken rule.

    « Le processus de création commence par une courte phrase […] le concept […] ce qu'il recherche
    à accomplir […] Un nom peut également s'avérer utile. »
    """
    membership = _require_member(campaign.pk, actor)
    owner = owner or actor
    if owner != actor and not membership.is_narrator:
        raise PermissionRefused(_("Only a narrator can create a character for another player."))
    name, concept, goal = name.strip(), concept.strip(), goal.strip()
    if not name:
        raise ServiceError(_("Give your character a name."))
    if not concept:
        raise ServiceError(_("Write the concept: a short sentence that says who the character is."))
    if not goal:
        raise ServiceError(_("Write the goal: what the character seeks to achieve now."))
    rules = character_rules(campaign)
    defs = creation_traits(campaign, rules, custom_traits)
    options = creation_rules.CreationOptions(
        human_maximum=int(rules.human_maximum),
        permitted=frozenset(permitted) if membership.is_narrator else frozenset(),
    )
    try:
        budget = creation_rules.creation_check(
            mode=str(campaign.creation_mode),
            total=creation_total(campaign, rules),
            traits=defs,
            ranks=ranks,
            options=options,
        )
    except RuleViolation as violation:
        raise _refuse(violation, _names(defs)) from violation
    character = Character(
        campaign=campaign, owner=owner, kind=CharacterKind.PC, name=name, concept=concept, goal=goal,
        creation_mode=str(campaign.creation_mode),
    )  # fmt: skip
    character.full_clean()
    character.save()
    by_code = {t.code: t for t in defs}
    listed = {t.code for t in trait_defs(rules)}
    for code, rank in ranks.items():
        trait = by_code[code]
        if rank == trait.default and code in listed:
            continue  # a listed trait at its default needs no line
        CharacterTrait.objects.create(
            character=character,
            code=code,
            kind=trait.kind,
            name_fr=trait.name_fr,
            name_en=trait.name_en,
            rank=rank,
            custom=code not in listed,
        )
    if budget.left:
        _write_entries(
            character, {Pool.CREATION: budget.left}, sign=1, actor=actor, game_session=None, reason=GainReason.CREATION
        )
        character.save(update_fields=["atouts_creation"])
    _append(
        character,
        "character.created",
        actor,
        {
            "mode": str(campaign.creation_mode),
            "spent": budget.spent,
            "kept": budget.left,
            "traits": dict(ranks),
        },
    )
    return character


@transaction.atomic
def npc_create(
    *,
    campaign: Campaign,
    actor: User,
    name: str,
    concept: str,
    goal: str = "",
    ranks: Mapping[str, int] | None = None,
    atouts: int = 0,
    out_after: int | None = None,
) -> Character:
    """VII-1: « Un Concept (ou quelques phrases) et quelques Atouts, qui peuvent être dépensés à l'avance
    ou en cours de jeu » — no budget to respect, the narrator rates what matters."""
    _require_narrator(campaign.pk, actor)
    if not name.strip():
        raise ServiceError(_("Give your character a name."))
    rules = character_rules(campaign)
    defs = trait_def_map(rules)
    character = Character(
        campaign=campaign,
        kind=CharacterKind.NPC,
        name=name.strip(),
        concept=concept.strip(),
        goal=goal.strip(),
        out_after_revers=out_after or rules.npc_out_after,
        creation_mode=str(campaign.creation_mode),
    )
    character.full_clean()
    character.save()
    for code, rank in (ranks or {}).items():
        trait = defs.get(code) or custom_trait(code)
        CharacterTrait.objects.create(
            character=character, code=trait.code, kind=trait.kind, name_fr=trait.name_fr, name_en=trait.name_en,
            rank=rank, custom=code not in defs,
        )  # fmt: skip
    if atouts > 0:
        _write_entries(
            character, {Pool.CREATION: atouts}, sign=1, actor=actor, game_session=None, reason=GainReason.CREATION
        )
        character.save(update_fields=["atouts_creation"])
    _append(character, "character.created", actor, {"mode": "npc", "kept": atouts, "traits": dict(ranks or {})})
    return character


# ---------------------------------------------------------------- sheet edits

OWNER_FIELDS = ("name", "concept", "goal")
NARRATOR_FIELDS = ("narrator_notes", "award_adjustment", "out_after_revers", "scales")


@transaction.atomic
def character_update(*, character: Character, actor: User, data: Mapping[str, Any], expected_version: int) -> Character:
    """Edit the words of a sheet; narrator-only fields (notes, award, NPC threshold, scales) for narrators."""
    membership = _require_editor(character, actor)
    character = _lock(character)
    if character.version != expected_version:
        raise StaleState(_("Someone changed this sheet first. Reload the page and try again."))
    allowed = OWNER_FIELDS + (NARRATOR_FIELDS if membership.is_narrator else ())
    changed = {}
    for field in allowed:
        if field in data and getattr(character, field) != data[field]:
            changed[field] = data[field]
            setattr(character, field, data[field])
    if not changed:
        return character
    character.full_clean()
    _bump(character, *changed)
    # Narrator notes never go into a log entry a player could read.
    public = sorted(f for f in changed if f in OWNER_FIELDS)
    _append(
        character, "character.updated", actor, {"fields": public, "narrator_only": sorted(set(changed) - set(public))}
    )
    return character


@transaction.atomic
def trait_set(
    *, character: Character, actor: User, code: str, rank: int, name: str = "", kind: str = TraitKind.FIELD
) -> CharacterTrait:
    """A narrator's quick edit: set a trait's rank outright (no Atout moves). A new code needs a name."""
    _require_narrator(character.campaign_id, actor)
    character = _lock(character)
    if rank < Rank.ABYSSAL:
        raise _refuse(RuleViolation("rank.below_abyssal", trait=code))
    defs = trait_def_map(character_rules(character.campaign))
    row = CharacterTrait.objects.filter(character=character, code=code).first()
    old = row.rank if row else (defs[code].default if code in defs else Rank.FAIBLE)
    if row is None:
        trait = defs.get(code) or (custom_trait(name, TraitKind(kind)) if name.strip() else None)
        if trait is None:
            raise ServiceError(_("Name the new trait."))
        row = CharacterTrait(
            character=character, code=trait.code, kind=trait.kind, name_fr=trait.name_fr, name_en=trait.name_en,
            rank=rank, custom=trait.code not in defs,
        )  # fmt: skip
    row.rank = rank
    row.save()
    _bump(character)
    _append(
        character,
        "character.trait_set",
        actor,
        {"trait": row.code, "trait_name": row.name_fr, "trait_name_en": row.name_en, "from": old, "to": rank},
    )
    return row


@transaction.atomic
def trait_veto(*, character: Character, actor: User, code: str) -> int:
    """Free style: « tant que le Narrateur ne met pas son veto ». The narrator strikes a player-named
    trait; the ranks bought in it return to the creation pool. Returns the Atouts refunded."""
    _require_narrator(character.campaign_id, actor)
    character = _lock(character)
    row = CharacterTrait.objects.filter(character=character, code=code, custom=True).first()
    if row is None:
        raise ServiceError(_("Only a player-named trait can be vetoed."))
    refund = max(0, row.rank - Rank.FAIBLE)
    row.delete()
    if refund:
        _write_entries(
            character, {Pool.CREATION: refund}, sign=1, actor=actor, game_session=None, reason=GainReason.REFUND,
            justification=_("Trait vetoed by the narrator"),
        )  # fmt: skip
    _bump(character, "atouts_creation")
    _append(
        character,
        "character.trait_vetoed",
        actor,
        {"trait_name": row.name_fr, "trait_name_en": row.name_en, "refund": refund},
    )
    return refund


# ---------------------------------------------------------------- Atouts


def _roll_history(character: Character, roll: str) -> tuple[RollHistory, list[AtoutEntry]]:
    entries = list(
        AtoutEntry.objects.filter(character__campaign_id=character.campaign_id, context__roll=roll, delta__lt=0)
        .exclude(refunded_by__isnull=False)
        .order_by("pk")
    )
    own = {e.group for e in entries if e.character_id == character.pk and e.use == AtoutUse.TEMPORARY_BONUS}
    countered = {
        e.group for e in entries if e.use == AtoutUse.COUNTER and e.context.get("target_character") == character.pk
    }
    helped = any(e.character_id == character.pk and e.use == AtoutUse.HELP_OTHER for e in entries)
    return RollHistory(own_bonuses=len(own), countered=len(countered), helped=helped), entries


def _target(character: Character, context: Mapping[str, Any]) -> Character | None:
    target_id = context.get("target_character")
    if target_id is None:
        return None
    target = Character.objects.filter(pk=target_id, campaign_id=character.campaign_id).first()
    if target is None or target.pk == character.pk:
        raise ServiceError(_("Choose another character of this campaign."))
    return target


@transaction.atomic
def atout_spend(
    *,
    character: Character,
    actor: User,
    use: str,
    amount: int = 1,
    justification: str = "",
    context: Mapping[str, Any] | None = None,
) -> AtoutEntry:
    """Spend Atouts for one of the uses of II, IV and appendix 4; returns the (first) ledger entry.

    ``context`` carries what the use is about: ``roll`` (an id of the roll or draw, for temporary
    bonuses, counters and help), ``target_character`` (help, counter, take a Revers), ``trait``
    (raises). Raises ``ServiceError`` naming the broken rule, changing nothing.
    """
    _require_editor(character, actor)
    character = _lock(character)
    context = dict(context or {})
    try:
        use = AtoutUse(use)
    except ValueError as exc:
        raise ServiceError(_("Unknown use of an Atout.")) from exc
    campaign = character.campaign
    game_session = _open_session(campaign)
    target = _target(character, context)
    rules = character_rules(campaign)
    roll_history = None
    if "roll" in context:
        context["roll"] = str(context["roll"])
        roll_history, _entries = _roll_history(character, context["roll"])
        if use == AtoutUse.COUNTER and target is not None:
            target_history, _unused = _roll_history(target, context["roll"])
            if target_history.own_bonuses <= target_history.countered:
                raise _refuse(RuleViolation("atout.counter.no_target"))
    raise_row, expected_cost, to_rank = None, None, None
    if use in (AtoutUse.RAISE_IN_PLAY, AtoutUse.RAISE_BETWEEN_SESSIONS):
        raise_row, expected_cost, to_rank = _raise_plan(character, rules, use, amount, context)
    request = SpendRequest(
        use=use,
        amount=amount,
        justification=justification,
        in_session=game_session is not None,
        roll=roll_history,
        expected_cost=expected_cost,
        targets_other=target is not None,
        single_atout_help=rules.single_atout_help,
    )
    try:
        plan = spend_plan(request, _balances(character))
    except RuleViolation as violation:
        raise _refuse(violation, {context.get("trait", ""): raise_row.name_fr if raise_row else ""}) from violation
    entry = _write_entries(
        character, plan, sign=-1, actor=actor, game_session=game_session, use=use,
        justification=justification.strip(), context=context,
    )  # fmt: skip
    payload: dict[str, Any] = {
        "use": str(use),
        "amount": amount,
        "pools": {str(k): v for k, v in plan.items()},
        "justification": justification.strip(),
        "context": context,
        "balance": character.atout_balance,
    }
    if raise_row is not None and to_rank is not None:
        payload.update({"trait": raise_row.code, "trait_name": raise_row.name_fr, "trait_name_en": raise_row.name_en,
                        "from": raise_row.rank, "to": to_rank})  # fmt: skip
        raise_row.rank = to_rank
        raise_row.save()
    if target is not None:
        payload["target"] = target.name
    _bump(character, "atouts_creation", "atouts_experience")
    _append(character, "character.atout_spent", actor, payload)
    return entry


def _raise_plan(
    character: Character, rules: CharacterRules, use: AtoutUse, amount: int, context: Mapping[str, Any]
) -> tuple[CharacterTrait, int, int]:
    code = context.get("trait")
    if not code:
        raise ServiceError(_("Choose the trait to raise."))
    defs = trait_def_map(rules)
    row = CharacterTrait.objects.filter(character=character, code=code).first()
    if row is None:
        trait = defs.get(code)
        if trait is None:
            raise _refuse(RuleViolation("creation.unknown_trait", trait=code))
        row = CharacterTrait(
            character=character, code=code, kind=trait.kind, name_fr=trait.name_fr, name_en=trait.name_en,
            rank=trait.default,
        )  # fmt: skip
    if use == AtoutUse.RAISE_IN_PLAY:
        # « dépense 2 Atouts en Tir […] un rang Moyen » : one creation Atout per rank gained; in streamlined
        # creation « Aptitudes ±3 » and « aucune Caractéristique ne peut avoir un Rang […] supérieur à Excellent »
        # (appendix 3): ``amount`` is the Atouts paid, a whole number of ranks.
        streamlined = character.campaign.creation_mode == CreationMode.STREAMLINED
        per_rank = in_play_rank_cost(TraitKind(row.kind), streamlined=streamlined)
        to_rank = row.rank + max(amount // per_rank, 1)
        cost = in_play_raise_cost(row.rank, to_rank, per_rank=per_rank)
        if streamlined and to_rank > Rank.EXCELLENT:
            raise _refuse(RuleViolation("streamlined.above_excellent", trait=code), {code: row.name_fr})
    else:
        to_rank = row.rank + 1
        cost = progression_cost(
            TraitKind(row.kind), row.rank, scheme=progression_scheme(rules, character.campaign, character)
        )
    if to_rank > rules.human_maximum:
        raise _refuse(RuleViolation("rank.above_maximum", trait=code, maximum=int(rules.human_maximum)),
                      {code: row.name_fr})  # fmt: skip
    return row, cost, to_rank


def trait_raise(
    *, character: Character, actor: User, trait_code: str, justification: str = "", ranks: int = 1
) -> AtoutEntry:
    """Raise a trait permanently: in play with creation Atouts and a plausible explanation (II), or
    between sessions at the campaign's progression cost (IV, appendix 3)."""
    in_session = _open_session(character.campaign) is not None
    if in_session:
        return atout_spend(
            character=character, actor=actor, use=AtoutUse.RAISE_IN_PLAY, amount=ranks * _in_play_per_rank(character, trait_code),
            justification=justification, context={"trait": trait_code},
        )  # fmt: skip
    rules = character_rules(character.campaign)
    rank = CharacterTrait.objects.filter(character=character, code=trait_code).values_list("rank", flat=True).first()
    defs = trait_def_map(rules)
    trait = defs.get(trait_code)
    kind = TraitKind(
        CharacterTrait.objects.filter(character=character, code=trait_code).values_list("kind", flat=True).first()
        or (trait.kind if trait else TraitKind.FIELD)
    )
    current = rank if rank is not None else (trait.default if trait else Rank.FAIBLE)
    cost = progression_cost(kind, current, scheme=progression_scheme(rules, character.campaign, character))
    return atout_spend(
        character=character, actor=actor, use=AtoutUse.RAISE_BETWEEN_SESSIONS, amount=cost,
        justification=justification, context={"trait": trait_code},
    )  # fmt: skip


def _in_play_per_rank(character: Character, trait_code: str) -> int:
    rules = character_rules(character.campaign)
    row = CharacterTrait.objects.filter(character=character, code=trait_code).first()
    trait = trait_def_map(rules).get(trait_code)
    kind = TraitKind(row.kind if row else (trait.kind if trait else TraitKind.FIELD))
    return in_play_rank_cost(kind, streamlined=character.campaign.creation_mode == CreationMode.STREAMLINED)


def raise_cost(character: Character, trait_code: str) -> int:
    """What the next raise of a trait costs now (in play: the creation price of one rank)."""
    if _open_session(character.campaign) is not None:
        return _in_play_per_rank(character, trait_code)
    rules = character_rules(character.campaign)
    row = CharacterTrait.objects.filter(character=character, code=trait_code).first()
    trait = trait_def_map(rules).get(trait_code)
    kind = TraitKind(row.kind if row else (trait.kind if trait else TraitKind.FIELD))
    current = row.rank if row else (trait.default if trait else Rank.FAIBLE)
    return progression_cost(kind, current, scheme=progression_scheme(rules, character.campaign, character))


@transaction.atomic
def atout_gain(
    *,
    character: Character,
    actor: User,
    amount: int,
    reason: str = GainReason.NARRATOR,
    pool: str = Pool.EXPERIENCE,
    note: str = "",
    game_session: GameSession | None | bool = True,
) -> AtoutEntry:
    """Give Atouts: a narrator's gift or adjustment, or the end-of-session award (IV)."""
    _require_narrator(character.campaign_id, actor)
    if amount < 1:
        raise _refuse(RuleViolation("atout.amount_positive"))
    character = _lock(character)
    if game_session is True:
        game_session = _open_session(character.campaign)
    entry = _write_entries(
        character, {Pool(pool): amount}, sign=1, actor=actor, game_session=game_session or None,
        reason=GainReason(reason), justification=note.strip(),
    )  # fmt: skip
    _bump(character, "atouts_creation", "atouts_experience")
    _append(
        character,
        "character.atout_gained",
        actor,
        {"amount": amount, "reason": str(reason), "note": note.strip(), "balance": character.atout_balance},
    )
    return entry


@transaction.atomic
def atout_refund(*, entry: AtoutEntry, actor: User) -> AtoutEntry:
    """« Le Narrateur a un droit de veto sur ce type d'utilisation, si cela est le cas, le joueur ne
    dépense pas d'Atout […] et peut même rendre l'Atout au joueur » (narrative control)."""
    character = entry.character
    _require_narrator(character.campaign_id, actor)
    character = _lock(character)
    entries = list(AtoutEntry.objects.select_for_update().filter(character=character, group=entry.group, delta__lt=0))
    if not entries or entries[0].use != AtoutUse.NARRATIVE_CONTROL:
        raise _refuse(RuleViolation("atout.refund.not_refundable"))
    if AtoutEntry.objects.filter(refunds__in=entries).exists():
        raise _refuse(RuleViolation("atout.refund.already"))
    plan = {Pool(e.pool): -e.delta for e in entries}
    refund = _write_entries(
        character, plan, sign=1, actor=actor, game_session=_open_session(character.campaign),
        reason=GainReason.REFUND, refunds=entries[0],
    )  # fmt: skip
    _bump(character, "atouts_creation", "atouts_experience")
    _append(
        character, "character.atout_refunded", actor, {"amount": sum(plan.values()), "balance": character.atout_balance}
    )
    return refund


def run_session_award(game_session: GameSession, actor: User) -> None:
    """Hook of ``campaigns.hooks.on_session_close``: each PC and ally gains the campaign's award,
    or the narrator's figure for that character; the figure is then cleared."""
    campaign = game_session.campaign
    characters = (
        Character.objects.select_for_update()
        .filter(campaign=campaign)
        .exclude(kind=CharacterKind.NPC, owner__isnull=True)
    )
    for character in characters:
        amount = session_award(campaign.session_award, character.award_adjustment)
        character.campaign = campaign
        if amount:
            _write_entries(
                character, {Pool.EXPERIENCE: amount}, sign=1, actor=actor, game_session=game_session,
                reason=GainReason.SESSION_AWARD,
            )  # fmt: skip
        character.award_adjustment = None
        _bump(character, "atouts_experience", "award_adjustment")
        if amount:
            event_append(
                campaign=campaign,
                kind="character.atout_gained",
                actor=actor,
                game_session=game_session,
                payload={"character": character.name, "character_id": character.pk, "amount": amount,
                         "reason": str(GainReason.SESSION_AWARD), "note": "", "balance": character.atout_balance},
                characters=[character],
                **_visibility(character),
            )  # fmt: skip


# ---------------------------------------------------------------- Revers


@transaction.atomic
def revers_inflict(
    *,
    character: Character,
    actor: User | None,
    domain: str,
    severity: int,
    source: str,
    payload: Mapping[str, Any] | None = None,
    nature: str = ReversNature.BLUNT,
    domain_name: str = "",
) -> Revers:
    """Write a Revers on the sheet (severity 1 Revers, 2 sérieux, 3 décisif) in a domain.

    ``domain`` is physical, social, mental or ``named`` with ``domain_name``; ``nature`` says how it
    heals (blunt and social by the day, deep wounds by the week).
    """
    if actor is not None:
        _require_member(character.campaign_id, actor)
    character = _lock(character)
    try:
        check_severity(severity)
    except RuleViolation as violation:
        raise _refuse(violation) from violation
    if domain not in ReversDomain.values:
        raise ServiceError(_("Unknown Revers domain."))
    if domain == ReversDomain.NAMED and not domain_name.strip():
        raise ServiceError(_("Name the domain of this Revers."))
    if nature not in ReversNature.values:
        raise ServiceError(_("Unknown kind of healing."))
    revers = Revers(
        character=character, domain=domain, domain_name=domain_name.strip(), severity=severity,
        initial_severity=severity, nature=nature, source=source.strip()[:200], payload=dict(payload or {}),
    )  # fmt: skip
    revers.full_clean(exclude=["character"])
    revers.save()
    active = list(Revers.objects.filter(character=character, severity__gt=0).values_list("severity", flat=True))
    threshold = character.out_after_revers if character.kind == CharacterKind.NPC else None
    _bump(character)
    _append(
        character,
        "character.revers_inflicted",
        actor,
        {
            "revers_id": revers.pk, "domain": domain, "domain_name": revers.domain_name, "severity": severity,
            "nature": nature, "source": revers.source,
            "out_of_action": out_of_action(active, npc_threshold=threshold),
        },
    )  # fmt: skip
    return revers


@transaction.atomic
def revers_heal(*, revers: Revers, actor: User, steps: int = 1) -> Revers:
    """The narrator heals a Revers by ``steps`` (all of it with steps=3)."""
    _require_narrator(revers.character.campaign_id, actor)
    character = _lock(revers.character)
    revers = Revers.objects.select_for_update().get(pk=revers.pk)
    if revers.severity == 0:
        raise ServiceError(_("This Revers is already healed."))
    old = revers.severity
    revers.severity = max(0, old - max(1, steps))
    revers.recovery_seconds = 0
    if revers.severity == 0:
        revers.healed_at = character.campaign.game_clock
    revers.save()
    _bump(character)
    _append(character, "character.revers_healed", actor, {"revers_id": revers.pk, "from": old, "to": revers.severity,
                                                           "domain": revers.domain, "domain_name": revers.domain_name})  # fmt: skip
    return revers


@transaction.atomic
def first_aid(*, revers: Revers, actor: User, success: bool, healer: Character | None = None) -> Revers:
    """« Celui qui tente de dispenser les premiers soins doit réussir un Test de Médecine » : the
    resolution part rolls the test (difficulty from ``first_aid_required_rank``); this records it."""
    character = _lock(revers.character)
    _require_member(character.campaign_id, actor)
    revers = Revers.objects.select_for_update().get(pk=revers.pk)
    if revers.severity == 0:
        raise ServiceError(_("This Revers is already healed."))
    rules = character_rules(character.campaign)
    old = revers.severity
    required = first_aid_required_rank(old)
    if success:
        revers.stabilised = True
        revers.severity = first_aid_result(old, success=True, lowers_wound=rules.first_aid_lowers_wound)
        if revers.severity == 0:
            revers.healed_at = character.campaign.game_clock
        revers.save()
    _bump(character)
    _append(
        character,
        "character.first_aid",
        actor,
        {"revers_id": revers.pk, "success": success, "required_rank": required, "from": old, "to": revers.severity,
         "healer": healer.name if healer else ""},
    )  # fmt: skip
    return revers


def run_clock_recovery(campaign: Campaign, old: dt.datetime, new: dt.datetime, actor: User) -> None:
    """Hook of ``campaigns.hooks.on_clock_advance``: Revers heal one card per period elapsed
    (« une Carte par jour » blunt and social, « 1 Carte par semaine » deep wounds, campaign settings),
    and Vigour lost to psychic fatigue returns one rank per 15 minutes."""
    elapsed = int((new - old).total_seconds())
    revers_rows = (
        Revers.objects.select_for_update()
        .select_related("character")
        .filter(character__campaign=campaign, severity__gt=0)
    )
    for revers in revers_rows:
        days = recovery_days(
            revers.nature, light_days=campaign.revers_recovery_light_days, deep_days=campaign.revers_recovery_deep_days
        )
        new_severity, carried = recover(revers.severity, revers.recovery_seconds + elapsed, days * 86400)
        old_severity = revers.severity
        revers.severity, revers.recovery_seconds = new_severity, carried
        if new_severity == 0:
            revers.healed_at = new
        revers.save(update_fields=["severity", "recovery_seconds", "healed_at"])
        if new_severity != old_severity:
            character = revers.character
            character.campaign = campaign
            _append(character, "character.revers_recovered", actor,
                    {"revers_id": revers.pk, "from": old_severity, "to": new_severity, "domain": revers.domain,
                     "domain_name": revers.domain_name})  # fmt: skip
    stopped = _clock_healing(campaign, elapsed, new, actor)
    _clock_psychic_rest(campaign, elapsed, new, actor, stopped)


def _recoverable_points(character: Character) -> list[tuple[CharacterTrait, int]]:
    """Potentiel rows to give back and the points that stay spent: « Les points dépensés pour alimenter le
    pouvoir de régénération ne peuvent être récupérés tant que le pouvoir de régénération est actif », « Les
    points dépensés pour accélérer les soins ne peuvent pas être récupérés tant que l'adepte n'a pas arrêté
    ce processus »."""
    rows = CharacterTrait.objects.select_for_update().filter(character=character, potential_used__gt=0)
    domain = psychic.healing_power(character.healing_power).domain if character.healing_power else None
    result = []
    for row in rows:
        kept = character.healing_points if row.code == domain else 0
        if row.potential_used > kept:
            result.append((row, min(kept, row.potential_used)))
    return result


def _give_back(
    character: Character, points: list[tuple[CharacterTrait, int]] | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Rest: Potentiel back (but the points feeding a running healing power), fed traits back to their rank.
    ``points``: ``_recoverable_points(character)`` when the caller has read it already."""
    domains = []
    for row, kept in _recoverable_points(character) if points is None else points:
        domains.append({"code": row.code, "name_fr": row.name_fr, "name_en": row.name_en,
                        "points": row.potential_used - kept})  # fmt: skip
        row.potential_used = kept
        row.save(update_fields=["potential_used"])
    feeds = list(PowerFeed.objects.select_for_update().filter(character=character, ranks_lost__gt=0))
    restored = []
    for feed in feeds:
        name_fr, name_en = _trait_names(character, feed.trait)
        restored.append({"code": feed.trait, "name_fr": name_fr, "name_en": name_en, "ranks": feed.ranks_lost})
    PowerFeed.objects.filter(character=character, ranks_lost__gt=0).update(ranks_lost=0)
    PowerFeed.objects.filter(character=character, allowed=False).delete()
    return domains, restored


def _clock_psychic_rest(
    campaign: Campaign, elapsed: int, new: dt.datetime, actor: User, stopped: Mapping[int, int] | None = None
) -> None:
    """The game clock as rest for psychic powers (``psychic.rest_recovery``): Vigour lost to fatigue comes
    back one rank per 15 minutes, Potentiel in full and fed traits to their rank after the campaign's night
    of rest; one event each. ``stopped``: characters whose healing power ended during this move, with the
    seconds of it left after the end (their rest starts there)."""
    stopped = stopped or {}
    night_hours = character_rules(campaign).potential_rest_hours
    used = set(
        CharacterTrait.objects.filter(character__campaign=campaign, potential_used__gt=0).values_list(
            "character_id", flat=True
        )
    )
    fed = set(
        PowerFeed.objects.filter(character__campaign=campaign, ranks_lost__gt=0).values_list("character_id", flat=True)
    )
    resting = Character.objects.select_for_update().filter(campaign=campaign)
    for character in resting.filter(Q(vigour_lost__gt=0) | Q(pk__in=used | fed)):
        points = _recoverable_points(character) if character.pk in used else []
        spent = character.pk in fed or bool(points)
        recovery = psychic.rest_recovery(
            rested_seconds=character.rested_seconds, elapsed_seconds=stopped.get(character.pk, elapsed),
            vigour_lost=character.vigour_lost, potential_used=spent, night_hours=night_hours,
        )  # fmt: skip
        before = character.vigour_lost
        character.campaign = campaign
        character.vigour_lost, character.rested_seconds = recovery.vigour_lost, recovery.rested_seconds
        _bump(character, "vigour_lost", "rested_seconds")
        if recovery.vigour_lost != before:
            _append(character, "character.vigour_recovered", actor, {"from": before, "to": recovery.vigour_lost})
        if recovery.potential_back:
            domains, restored = _give_back(character, points)
            _append(character, "character.potential_recovered", actor,
                    {"domains": domains, "restored": restored, "hours": night_hours, "at": new.isoformat()})  # fmt: skip


def _physical_wounds(character: Character, campaign: Campaign) -> list[tuple[Revers, psychic.Wound]]:
    """Physical Revers as a healing power sees them: a wound healing a card a month or slower is « monthly »."""
    rows = Revers.objects.select_for_update().filter(character=character, domain=ReversDomain.PHYSICAL, severity__gt=0)
    result = []
    for revers in rows:
        days = recovery_days(
            revers.nature, light_days=campaign.revers_recovery_light_days, deep_days=campaign.revers_recovery_deep_days
        )
        result.append((revers, psychic.Wound(revers.pk, revers.severity, psychic.is_monthly(days))))
    return result


def _healing_end(character: Character, actor: User | None, reason: str, payload: Mapping[str, Any]) -> None:
    """A healing power stops: its points become ordinary spent points, given back by the next rest, counted
    from now."""
    power, points = character.healing_power, character.healing_points
    character.healing_power, character.healing_seconds, character.healing_points = "", 0, 0
    character.rested_seconds = 0
    _bump(character, "healing_power", "healing_seconds", "healing_points", "rested_seconds")
    _append(character, "character.healing_stopped", actor,
            {"power": power, "reason": reason, "points": points, **payload})  # fmt: skip


def _clock_healing(campaign: Campaign, elapsed: int, new: dt.datetime, actor: User) -> dict[int, int]:
    """Each running healing power over the clock's move (``psychic.heal``): heal, pay, or stop.
    Returns the characters whose healing stopped, with the game seconds of the move left after it."""
    stopped: dict[int, int] = {}
    for character in Character.objects.select_for_update().filter(campaign=campaign).exclude(healing_power=""):
        character.campaign = campaign
        power = psychic.healing_power(character.healing_power)
        wounds = _physical_wounds(character, campaign)
        row = CharacterTrait.objects.select_for_update().filter(character=character, code=power.domain).first()
        left = psychic.potential(row.rank) - row.potential_used if row else 0
        result = psychic.heal(
            power, wounds=[w for _r, w in wounds], carried_seconds=character.healing_seconds,
            elapsed_seconds=elapsed, potential_left=left,
            cycles_paid=character.healing_points // power.cost_per_cycle, domain_rank=row.rank if row else 0,
        )  # fmt: skip
        healed = []
        for revers, wound in wounds:
            after = result.severities[wound.key]
            if after != revers.severity:
                healed.append({"revers_id": revers.pk, "from": revers.severity, "to": after})
                revers.severity = after
                if after == 0:
                    revers.healed_at = new
                revers.save(update_fields=["severity", "healed_at"])
        if result.points and row is not None:
            row.potential_used += result.points
            row.save(update_fields=["potential_used"])
        character.healing_points += result.points
        character.healing_seconds = result.carried_seconds
        _bump(character, "healing_points", "healing_seconds")
        if result.cycles:
            _append(character, "character.healing_cycle", actor,
                    {"power": power.code, "cycles": result.cycles, "points": result.points, "healed": healed,
                     "potential_left": left - result.points})  # fmt: skip
        if result.stopped:
            _healing_end(character, actor, result.stopped, {"potential_left": left - result.points})
            stopped[character.pk] = result.seconds_after_stop
    return stopped


# ---------------------------------------------------------------- equipment


@transaction.atomic
def equipment_add(*, character: Character, actor: User, data: Mapping[str, Any]) -> Equipment:
    _require_editor(character, actor)
    character = _lock(character)
    category = data.get("category")
    item = Equipment(
        character=character,
        category=category,
        name=(data.get("name") or "").strip(),
        bonus=int(data.get("bonus") or 0),
        era=int(data.get("era") if data.get("era") is not None else 2),
        firearm=bool(data.get("firearm")),
        bulletproof=bool(data.get("bulletproof")),
        vehicle_code=data.get("vehicle_code") or "",
    )
    try:
        if category == EquipmentCategory.GEAR:
            check_quality(item.bonus)
    except RuleViolation as violation:
        raise _refuse(violation) from violation
    if category == EquipmentCategory.WEAPON and not 0 <= item.bonus <= 3:
        raise ServiceError(_("Weapons give +0 (light) to +3 (massive)."))
    if category == EquipmentCategory.ARMOUR and not 1 <= item.bonus <= 3:
        raise ServiceError(_("Armour gives +1 (light) to +3 (heavy)."))
    if category == EquipmentCategory.SHIELD:
        item.bonus = 1
    if category == EquipmentCategory.VEHICLE:
        vehicle = next((v for v in vehicles() if v.code == item.vehicle_code), None)
        if vehicle is None:
            raise ServiceError(_("Choose a vehicle from the table."))
        item.name = item.name or vehicle.name_fr
    if not item.name:
        raise ServiceError(_("Name the item."))
    item.full_clean(exclude=["character"])
    item.save()
    _bump(character)
    _append(
        character, "character.equipment_added", actor, {"item": item.name, "category": category, "bonus": item.bonus}
    )
    return item


@transaction.atomic
def equipment_remove(*, item: Equipment, actor: User) -> None:
    _require_editor(item.character, actor)
    character = _lock(item.character)
    name, category = item.name, item.category
    item.delete()
    _bump(character)
    _append(character, "character.equipment_removed", actor, {"item": name, "category": category})


# ---------------------------------------------------------------- psychic powers


@transaction.atomic
def power_use(
    *, character: Character, actor: User, domain: str, power_rank: int, masked: bool = False,
    several_objects: bool = False, fed_by: str = "",
) -> psychic.PowerUse:  # fmt: skip
    """Spend one Potentiel point on a power; returns the Test's required rank and difficulty.

    ``fed_by``: a trait the narrator lets feed this domain pays instead, one rank lower until rest
    (``psychic.feed``). A domain lowered by feeding another is used at its lowered rank."""
    _require_editor(character, actor)
    character = _lock(character)
    row = CharacterTrait.objects.select_for_update().filter(character=character, code=domain).first()
    rank = row.rank if row else Rank.ABYSSAL
    rules = character_rules(character.campaign)
    vigour = CharacterTrait.objects.filter(character=character, code="vigueur").values_list("rank", flat=True).first()
    feed = None
    if fed_by:
        feed = (
            PowerFeed.objects.select_for_update()
            .filter(character=character, domain=domain, trait=fed_by, allowed=True)
            .first()
        )
        if feed is None:
            raise ServiceError(_("The narrator has not let this trait feed this domain."))
    try:
        result = psychic.power_use(
            domain_rank=rank - ranks_lowered(character, domain),
            power_rank=power_rank,
            potential_left=psychic.potential(rank) - (row.potential_used if row else 0),
            masked=masked,
            several_objects=several_objects,
            fatigue_rule=rules.psychic_fatigue,
            vigour=vigour if vigour is not None else Rank.FAIBLE,
            vigour_lost=character.vigour_lost,
            fed=feed is not None,
        )
        if feed is not None:
            lowered = psychic.feed(
                trait_rank=trait_value(character, fed_by, fed=False), ranks_lost=ranks_lowered(character, fed_by)
            )
    except RuleViolation as violation:
        raise _refuse(violation) from violation
    assert row is not None
    fed_payload: dict[str, Any] = {}
    if feed is not None:
        feed.ranks_lost += 1
        feed.save(update_fields=["ranks_lost"])
        name_fr, name_en = _trait_names(character, fed_by)
        fed_payload = {"fed_by": fed_by, "fed_by_name": name_fr, "fed_by_name_en": name_en, "lowered": lowered}
    else:
        row.potential_used += 1
        row.save(update_fields=["potential_used"])
    character.vigour_lost = result.vigour_lost
    character.rested_seconds = 0
    _bump(character, "vigour_lost", "rested_seconds")
    _append(
        character,
        "character.power_used",
        actor,
        {"domain": domain, "domain_name": row.name_fr, "domain_name_en": row.name_en,
         "required_rank": result.required_rank, "difficulty": result.difficulty, "power_level": result.power_level,
         "potential_left": result.potential_left, "masked": masked, "collapsed": result.collapsed,
         **fed_payload},
    )  # fmt: skip
    return result


@transaction.atomic
def character_rest(*, character: Character, actor: User) -> Character:
    """« ces "points de pouvoirs" […] sont habituellement récupérés à l'issue d'une bonne nuit de repos » ;
    a trait that fed a domain is « réduit d'un cran jusqu'à ce que le personnage puisse prendre du repos »;
    the points feeding a running regeneration stay spent."""
    _require_editor(character, actor)
    character = _lock(character)
    domains, restored = _give_back(character)
    character.vigour_lost = 0
    _bump(character, "vigour_lost")
    _append(character, "character.rested", actor, {"domains": domains, "restored": restored})
    return character


def _trait_facts(character: Character, code: str) -> tuple[str, str, str] | None:
    """``(name_fr, name_en, kind)`` of a trait: its sheet row, else its definition; None for a trait neither
    the sheet nor the campaign's list knows (its rank: ``selectors.trait_value``)."""
    row = (
        CharacterTrait.objects.filter(character=character, code=code).values_list("name_fr", "name_en", "kind").first()
    )
    if row is not None:
        return row[0], row[1], str(row[2])
    known = trait_def_map(character_rules(character.campaign)).get(code)
    return (known.name_fr, known.name_en, str(known.kind)) if known is not None else None


def _trait_names(character: Character, code: str) -> tuple[str, str]:
    facts = _trait_facts(character, code)
    return (facts[0], facts[1]) if facts is not None else (code, code)


def _feed_payload(character: Character, domain: str, trait: str) -> dict[str, Any]:
    """What the feed_allowed / feed_revoked events carry (characters.chronicle_kinds reads it)."""
    domain_fr, domain_en = _trait_names(character, domain)
    trait_fr, trait_en = _trait_names(character, trait)
    return {"domain": domain, "domain_name": domain_fr, "domain_name_en": domain_en, "trait": trait,
            "trait_name": trait_fr, "trait_name_en": trait_en}  # fmt: skip


@transaction.atomic
def feed_allow(*, character: Character, actor: User, domain: str, trait: str) -> PowerFeed:
    """« Le Narrateur peut également décider qu'une Aptitude, un autre Champ d'expertise ou un autre Domaine
    de pouvoir peut servir à alimenter un Domaine de pouvoir donné » (VI): the narrator lets ``trait`` feed
    ``domain`` on this character's sheet."""
    _require_narrator(character.campaign_id, actor)
    character = _lock(character)
    domain_facts = _trait_facts(character, domain)
    if domain_facts is None or domain_facts[2] != TraitKind.POWER_DOMAIN:
        raise ServiceError(_("Choose a power domain to feed."))
    if trait == domain or _trait_facts(character, trait) is None:
        raise ServiceError(_("Choose another trait of the sheet to feed the domain."))
    feed, _created = PowerFeed.objects.select_for_update().get_or_create(
        character=character, domain=domain, trait=trait
    )
    if not _created and feed.allowed:
        raise ServiceError(_("This trait already feeds this domain."))
    feed.allowed = True
    feed.save(update_fields=["allowed"])
    _bump(character)
    _append(character, "character.feed_allowed", actor, _feed_payload(character, domain, trait))
    return feed


@transaction.atomic
def feed_revoke(*, feed: PowerFeed, actor: User) -> None:
    """The narrator withdraws a feed; a trait it lowered stays lowered until rest."""
    _require_narrator(feed.character.campaign_id, actor)
    character = _lock(feed.character)
    feed = PowerFeed.objects.select_for_update().get(pk=feed.pk)
    if not feed.allowed:
        raise ServiceError(_("This feed was already withdrawn."))
    domain, trait = feed.domain, feed.trait
    if feed.ranks_lost:
        feed.allowed = False
        feed.save(update_fields=["allowed"])
    else:
        feed.delete()
    _bump(character)
    _append(character, "character.feed_revoked", actor, _feed_payload(character, domain, trait))


@transaction.atomic
def healing_start(*, character: Character, actor: User, power: str) -> Character:
    """Start a healing power of Conscience (``psychic.healing_powers()``); its first cycle is paid now and the
    game clock does the rest (``run_clock_recovery``).

    Régénération (Bon): « le processus de régénération commence et se poursuit dès lors qu'il est activé par
    l'adepte » ; « Un point de potentiel psychique doit être dépensé par cycle de récupération ». Guérison
    accélérée (Médiocre): « une journée de repos et de méditation (12 heures) » per week of care ; « Chaque
    "jour" d'utilisation de ce pouvoir entraîne la dépense d'un point de Potentiel psychique »."""
    _require_editor(character, actor)
    character = _lock(character)
    healing = psychic.healing_powers().get(power)
    if healing is None:
        raise ServiceError(_("Choose a healing power."))
    if character.healing_power:
        raise ServiceError(_("A healing power is already running: stop it first."))
    row = CharacterTrait.objects.select_for_update().filter(character=character, code=healing.domain).first()
    rank = row.rank if row else Rank.ABYSSAL
    left = psychic.potential(rank) - (row.potential_used if row else 0)
    wounds = _physical_wounds(character, character.campaign)
    try:
        cycle = psychic.healing_start(
            healing, domain_rank=rank - ranks_lowered(character, healing.domain), potential_left=left,
            wounds=[w for _r, w in wounds],
        )  # fmt: skip
    except RuleViolation as violation:
        raise _refuse(violation) from violation
    assert row is not None
    row.potential_used += healing.cost_per_cycle
    row.save(update_fields=["potential_used"])
    character.healing_power, character.healing_seconds = healing.code, 0
    character.healing_points = healing.cost_per_cycle
    character.rested_seconds = 0
    _bump(character, "healing_power", "healing_seconds", "healing_points", "rested_seconds")
    _append(character, "character.healing_started", actor,
            {"power": healing.code, "cycle_hours": cycle // 3600, "wounds": len(wounds),
             "max_cycles": healing.cycle_limit(rank), "potential_left": left - healing.cost_per_cycle})  # fmt: skip
    return character


@transaction.atomic
def healing_stop(*, character: Character, actor: User) -> Character:
    """The adept ends the healing power; its points come back at the next rest."""
    _require_editor(character, actor)
    character = _lock(character)
    if not character.healing_power:
        raise ServiceError(_("No healing power is running."))
    _healing_end(character, actor, "stopped", {})
    return character


# ---------------------------------------------------------------- allies and campaign options


@transaction.atomic
def ally_hand(*, character: Character, actor: User, player: User | None) -> Character:
    """Appendix 7: « confier la gestion de certains PNJs, les alliés et serviteurs, aux joueurs »."""
    _require_narrator(character.campaign_id, actor)
    character = _lock(character)
    if character.kind != CharacterKind.NPC:
        raise ServiceError(_("Only an NPC can be handed to a player as an ally."))
    if player is not None:
        membership = _membership(character.campaign_id, player)
        if membership is None or membership.is_narrator:
            raise ServiceError(_("Hand the ally to a player of this campaign."))
    previous = character.owner
    character.owner = player
    _bump(character, "owner")
    event_append(
        campaign=character.campaign, kind="character.ally_handed", actor=actor,
        payload={"character": character.name, "character_id": character.pk, "player": player.username if player else "",
                 "previous": previous.username if previous else ""},
        characters=[character], visibility=Visibility.NARRATORS,
    )  # fmt: skip
    return character


RULES_FIELDS = (
    "players_name_traits", "human_maximum", "progression", "streamlined_atouts", "first_aid_lowers_wound",
    "psychic_fatigue", "potential_rest_hours", "npc_out_after", "single_atout_help", "trait_list",
)  # fmt: skip


@transaction.atomic
def character_rules_update(
    *, campaign: Campaign, actor: User, data: Mapping[str, Any], expected_version: int
) -> CharacterRules:
    """The narrator edits the campaign's trait list and character options."""
    _require_narrator(campaign.pk, actor)
    character_rules(campaign)
    rules = CharacterRules.objects.select_for_update().get(campaign=campaign)
    if rules.version != expected_version:
        raise StaleState(_("Someone changed these settings first. Reload the page and try again."))
    if "trait_list" in data:
        from characters.rules.errors import DataError

        try:
            traits_from_dicts(data["trait_list"], source=_("trait list"))
        except DataError as exc:
            raise ServiceError(str(exc)) from exc
    if data.get("progression") not in (None, "", *Progression.values):
        raise ServiceError(_("Unknown progression."))
    changed = []
    for field in RULES_FIELDS:
        if field in data and getattr(rules, field) != data[field]:
            setattr(rules, field, data[field])
            changed.append(field)
    if not changed:
        return rules
    rules.version += 1
    rules.full_clean()
    rules.save()
    campaign._character_rules_cache = rules  # type: ignore[attr-defined]
    event_append(campaign=campaign, kind="character.rules_changed", actor=actor, payload={"fields": changed})
    return rules


def creation_preview(
    *, campaign: Campaign, ranks: Mapping[str, int], custom_traits: Iterable[Mapping[str, str]] = ()
) -> creation_rules.Budget:
    """The live budget the wizard shows on each click (never raises for rule breaks)."""
    rules = character_rules(campaign)
    defs = creation_traits(campaign, rules, custom_traits)
    return creation_rules.creation_budget(
        mode=str(campaign.creation_mode),
        total=creation_total(campaign, rules),
        traits=defs,
        ranks=ranks,
        options=creation_rules.CreationOptions(human_maximum=int(rules.human_maximum)),
    )


def starting_ranks(campaign: Campaign, defs: Iterable[TraitDef]) -> dict[str, int]:
    return {t.code: creation_default(t, str(campaign.creation_mode)) for t in defs}
