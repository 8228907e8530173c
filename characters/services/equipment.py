"""Equipment: adding an item (weapons, armour, vehicles) and removing it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from characters.models import (
    Character,
    Equipment,
    EquipmentCategory,
)
from characters.rules.equipment import check_quality, vehicles
from characters.rules.errors import RuleViolation

# ---------------------------------------------------------------- helpers
from characters.services.changes import _append, _bump, _lock, _refuse, _require_editor
from core.errors import ServiceError


@transaction.atomic
def equipment_add(*, character: Character, actor: User, data: Mapping[str, Any]) -> Equipment:
    _require_editor(character, actor)
    character = _lock(character)
    category = str(data.get("category") or "")
    item = Equipment(
        character=character,
        category=category,
        name=(data.get("name") or "").strip(),
        bonus=int(data.get("bonus") or 0),
        era=int(era) if (era := data.get("era")) is not None else 2,
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
