"""Attacks: the weapon declared, ammunition, the accuracy roll and the damage roll."""

from __future__ import annotations

from . import combat
from .base import Action, Event
from .cards import PISTOL
from .codes import A_SHIFT, ATTACK, B_SHIFT
from .errors import IllegalAction
from .pickups import PickUps


class Attacks(PickUps):
    """What the legal attacks are."""

    def _attack_codes(self, player: int) -> list[int]:
        """Every target in sight with every weapon: the base pistol, each weapon in play with ammunition for a shot,
        each weapon in the hand while one more may come into play."""
        targets = self.targets_in_sight(player)  # asked first: most steps have no target
        if not targets or self.turn.attacks >= self.attacks_allowed(player):
            return []
        me = self.fighters[player]
        cost = self.stat(player, "ammo_cost")
        weapons = [0]
        weapons.extend(uid + 1 for uid, ammo in me.weapons if self._ammo_ok(uid, ammo, cost))
        if len(me.weapons) < self.weapon_limit(player):
            weapons.extend(uid + 1 for uid in me.hand if self.card(uid).is_weapon)
        return [ATTACK | w << B_SHIFT | t << A_SHIFT for t in targets for w in weapons]

    def _ammo_ok(self, uid: int, ammo: int, cost_factor: int) -> bool:
        card = self.card(uid)
        return card.ammo == 0 or ammo >= card.shot_cost * cost_factor


def do_attack(state: Attacks, player: int, action: Action, events: list[Event]) -> None:
    """« Le joueur doit annoncer avec quelle arme il attaque avant de lancer les dés » ; « Avant de faire un jet de
    précision, il faut diminuer de 1 le marqueur « balle » » ; the accuracy roll, then the damage roll."""
    here = state._on_board(player)
    if state.turn.attacks >= state.attacks_allowed(player):
        raise IllegalAction(
            "no attack left this turn ({allowed} per turn: half the Précision, rounded up)",
            allowed=state.attacks_allowed(player),
        )
    target = action.get("target")
    if (
        not isinstance(target, int)
        or isinstance(target, bool)
        or not 0 <= target < len(state.fighters)
        or target == player
    ):
        raise IllegalAction("choose another fighter to attack")
    victim = state.fighters[target]
    if victim.out or victim.place is None:
        raise IllegalAction("that fighter is not on the board")
    if not state.line_of_sight(here, victim.place):
        raise IllegalAction("the target is not in line of sight")
    fighter = state.fighters[player]
    weapon = action.get("weapon", PISTOL.id)
    cost_factor = state.stat(player, "ammo_cost")
    from_hand = False
    if weapon == PISTOL.id:
        card = PISTOL
    elif isinstance(weapon, int) and any(w[0] == weapon for w in fighter.weapons):
        card = state.card(weapon)
        ammo = next(w[1] for w in fighter.weapons if w[0] == weapon)
        if not state._ammo_ok(weapon, ammo, cost_factor):
            raise IllegalAction("that weapon is out of ammunition")
    elif isinstance(weapon, int) and weapon in fighter.hand and state.card(weapon).is_weapon:
        card = state.card(weapon)
        state._check_weapon_into_play(player)
        from_hand = True
    else:
        raise IllegalAction("attack with the base pistol, a weapon in play or a weapon from your hand")
    if from_hand:
        state._play(player, weapon, action, events)
    events.append({"type": "attack", "player": player, "target": target, "weapon": card.id})
    if card is not PISTOL and card.ammo:
        for w in fighter.weapons:
            if w[0] == weapon:
                w[1] -= card.shot_cost * cost_factor
    state.turn.attacks += 1
    distance = state.board.distance(here, victim.place)
    accuracy = state.dice.roll(state.stat(player, "accuracy") + state.stat(player, "accuracy_dice"))
    hit = combat.accuracy_hits(accuracy, distance)
    events.append(
        {"type": "dice", "purpose": "accuracy", "player": player, "dice": accuracy, "distance": distance, "hit": hit}
    )
    if not hit:
        return
    # « on multiplie d'abord et ensuite on additionne » : Dégâts quadruples multiplies the weapon's dice, then the
    # dice other cards add are added.
    dice_count = state.stat(player, "damage_dice", base=card.dice)
    lost = state._attack_roll(player, target, dice_count, card.extra_damage, events, purpose="attack")
    state._damage(target, lost, events)
    state._after_wound(target, player, events)
