"""Tests the narrator asks for, and the roll that answers one.

« Dans un premier temps, le Narrateur et le joueur choisissent une Caractéristique appropriée à la tâche ou à
l'action envisagée. Le Narrateur estime ensuite la Difficulté de la tâche ou de l'action. Le joueur jette
ensuite 4 dés Fudge. » (MicroFudge CECJ, Tests)

The narrator asks one or more characters a player runs for a Test of a trait of their sheets (an Aptitude or a
Champ d'expertise), with a Difficulty or none (then rolled at Moyenne, the sheet's one-tap default) and a note;
each player rolls theirs in one tap from the campaign's "now" block. Each use case appends one Event:
``test.asked`` (naming every character asked), ``test.ask_withdrawn``, or the Test's own ``test.rolled``, whose
``asked`` says which ask it answers (no second Event for the answer).
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.models import Campaign, Membership, Role
from campaigns.services import event_append
from characters.models import Character
from characters.rules.traits import TraitKind
from conflicts.models import AskedTest, AskStatus
from conflicts.rules.ranks import Difficulty
from conflicts.services.changes import _member, _narrator
from conflicts.services.fudge_tests import fudge_test_roll
from conflicts.services.sequences import _trait_names
from core.errors import PermissionRefused, ServiceError, StaleState

# « Impossible » and « n.a. » are no Test to ask for (the sheet's chips stop at Extrême too).
ASKABLE_DIFFICULTIES = tuple(int(d) for d in Difficulty if Difficulty.FACILE <= d <= Difficulty.EXTREME)
DEFAULT_DIFFICULTY = int(Difficulty.MOYENNE)
MAX_ASKED = 12  # characters in one ask: a table, not a crowd


def too_many() -> str:
    return ngettext("Ask at most %(n)s character at once.", "Ask at most %(n)s characters at once.", MAX_ASKED) % {
        "n": MAX_ASKED
    }


def askable_characters(campaign_id: int) -> QuerySet[Character]:
    """The characters a player runs (their PCs, the allies handed to them): a narrator rolls the others'."""
    players = Membership.objects.filter(campaign_id=campaign_id, role=Role.PLAYER).values("user_id")
    return Character.objects.filter(campaign_id=campaign_id, owner_id__in=players).order_by("name", "pk")


def askable_traits(character: Character) -> dict[str, str]:
    """The Aptitudes and Champs d'expertise of the character's sheet (the campaign's list and its own named
    traits), code → name in the reader's language."""
    from characters.selectors import sheet

    lines = sheet(character, ledger=False, feeds=False, revers=False, equipment=False)
    return {line.code: line.name for line in lines.all_lines if line.kind in (TraitKind.APTITUDE, TraitKind.FIELD)}


def _names(characters: Iterable[Character]) -> str:
    return ", ".join(c.name for c in characters)


@transaction.atomic
def asked_test_create(
    *,
    campaign: Campaign,
    actor: User,
    character_ids: Iterable[int],
    trait_code: str,
    difficulty: int | None = None,
    note: str = "",
) -> list[AskedTest]:
    """Ask each character for a Test of ``trait_code``: one row each and one ``test.asked`` Event. Refused, with
    nothing written, when a character is not one a player of this campaign runs, when the trait is not on a sheet,
    or when one of them already waits for that Test (a repeated POST, two narrators at once)."""
    _narrator(campaign.pk, actor)
    wanted = sorted({int(pk) for pk in character_ids})
    if not wanted:
        raise ServiceError(_("Choose who rolls."))
    if len(wanted) > MAX_ASKED:
        raise ServiceError(too_many())
    if difficulty is not None and difficulty not in ASKABLE_DIFFICULTIES:
        raise ServiceError(_("Choose a difficulty from Easy to Extreme."))
    # Locked in id order, as every use case locks characters: two asks of the same characters queue here.
    characters = list(askable_characters(campaign.pk).select_for_update().filter(pk__in=wanted).order_by("pk"))
    if len(characters) != len(wanted):
        raise PermissionRefused(_("Only the characters your players run can be asked for a Test."))
    for character in characters:
        if trait_code not in askable_traits(character):
            raise ServiceError(_("%(name)s has no such trait on their sheet.") % {"name": character.name})
    waiting = [c for c in characters if _pending(c, trait_code).exists()]
    if waiting:
        raise StaleState(_("Already asked, not rolled yet: %(names)s.") % {"names": _names(waiting)})
    ask = f"ask-{uuid.uuid4().hex[:12]}"
    rows = [
        AskedTest(campaign=campaign, character=c, ask=ask, trait_code=trait_code, difficulty=difficulty,
                  note=note.strip(), asked_by=actor)
        for c in characters
    ]  # fmt: skip
    try:
        with transaction.atomic():  # the unique constraint is the last word when the database does not lock rows
            AskedTest.objects.bulk_create(rows)
    except IntegrityError as exc:
        raise StaleState(_("Already asked, not rolled yet: %(names)s.") % {"names": _names(characters)}) from exc
    rows = list(AskedTest.objects.filter(ask=ask).order_by("pk"))  # with their ids (not every database returns them)
    # The trait's name in both languages (the log reads « Perception » in French and in English alike, « Tir »
    # and "Shooting"), per character: a named trait is each sheet's own.
    payload: dict[str, Any] = {
        "ask": ask,
        "trait": trait_code,
        "difficulty": Difficulty(difficulty).name if difficulty is not None else "",
        "note": note.strip(),
        "asked": [{"id": r.pk, "character_id": r.character_id, "name": r.character.name,
                   **_trait_names(r.character, trait_code)} for r in rows],
    }  # fmt: skip
    event_append(campaign=campaign, kind="test.asked", actor=actor, payload=payload, characters=characters)
    return rows


def _pending(character: Character, trait_code: str) -> QuerySet[AskedTest]:
    return AskedTest.objects.filter(character=character, trait_code=trait_code, status=AskStatus.PENDING)


def _locked(campaign_id: int, asked_id: int) -> AskedTest:
    found = (
        AskedTest.objects.select_for_update()
        .select_related("character__campaign")
        .filter(pk=asked_id, campaign_id=campaign_id)
        .first()
    )
    if found is None:
        raise ServiceError(_("No such Test was asked."))
    if found.status != AskStatus.PENDING:
        answered = found.status == AskStatus.ANSWERED
        raise StaleState(_("This Test was already rolled.") if answered else _("This Test was withdrawn."))
    return found


@transaction.atomic
def asked_test_withdraw(*, campaign_id: int, actor: User, asked_id: int) -> AskedTest:
    """The narrator no longer waits for this Test: it leaves the player's phone, and the log says so."""
    _narrator(campaign_id, actor)
    asked = _locked(campaign_id, asked_id)
    asked.status = AskStatus.WITHDRAWN
    asked.save(update_fields=["status"])
    character = asked.character
    payload = {"ask": asked.ask, "id": asked.pk, "trait": asked.trait_code, "name": character.name}
    event_append(campaign=character.campaign, kind="test.ask_withdrawn", actor=actor, payload=payload,
                 characters=[character])  # fmt: skip
    return asked


@transaction.atomic
def asked_test_roll(
    *, campaign_id: int, actor: User, asked_id: int, rng: random.Random | None = None
) -> tuple[AskedTest, Mapping[str, Any]]:
    """Roll the Test asked, as the sheet's one tap rolls it (``fudge_test_roll``: the same modifiers, log line
    and hazards) at the Difficulty asked; its one Event carries ``asked`` and the ask is answered with it. A second
    tap finds the ask answered and is refused: one roll per ask."""
    membership = _member(campaign_id, actor)
    asked = _locked(campaign_id, asked_id)
    character = asked.character
    if not (membership.is_narrator or character.owner_id == actor.pk):
        raise PermissionRefused(_("You can only roll for your own characters."))
    difficulty = asked.difficulty if asked.difficulty is not None else DEFAULT_DIFFICULTY
    data = {"trait_code": asked.trait_code, "difficulty": difficulty, "asked": asked.pk}
    result = fudge_test_roll(character=character, actor=actor, data=data, rng=rng)
    asked.status, asked.roll = AskStatus.ANSWERED, str(result["roll"])
    asked.save(update_fields=["status", "roll"])
    return asked, result
