"""How fast a Revers inflicted in a Sequence heals: by the weapon that inflicted it (V-3, « Effets des Revers »).

« Les Revers se récupèrent généralement au rythme de "une Carte" par jour en temps de jeu. Cela concerne
également tous les Revers infligeant des blessures contondantes, coups de poing ou tir d'armes étourdissantes » ;
« Les blessures plus profondes infligés par des armes tranchantes, voire les masses d'arme, ou les armes à feu
sont une autre affaire […] La récupération ne se fait qu'au rythme de 1 Carte par semaine ». « Bien sûr, le
Narrateur reste libre de fixer le temps de récupération ».

So the pace belongs to each attacker's weapon, not to the Sequence: a gunman and a brawler who hit each other in
one Sequence leave a gunshot wound healing by the week and a punch healing by the day.
"""

from __future__ import annotations

from collections.abc import Mapping

BLUNT = "blunt"  # by the day: fists, blunt blows, stun weapons, and every Revers that is not physical
DEEP = "deep"  # by the week: edged weapons, maces, firearms
BY_WEAPON = "weapon"  # a Sequence's default: each attacker's weapon decides


def weapon_nature(*, carries_weapon: bool, firearm: bool) -> str:
    """The pace a participant's Revers heal at, read from its sheet when it joins: bare hands hit « coups de
    poing » (blunt); the weapons the text lists (« couteau », « épée », « pistolet », « fusil »…) cut, crush or
    shoot (deep). A club or a stun gun is blunt: the narrator sets it on the participant."""
    return DEEP if carries_weapon or firearm else BLUNT


def inflicted_nature(
    *, sequence_nature: str, domain: str, credited: Mapping[str, int], natures: Mapping[str, str]
) -> str:
    """The pace of the Revers one target receives in a draw.

    ``sequence_nature`` is the narrator's choice for the whole Sequence (``BY_WEAPON`` unless he fixed one);
    ``credited`` the successes each attacker landed on the target; ``natures`` each attacker's weapon pace.
    A Revers that is not physical heals « une Carte par jour » whatever the weapon. When several attackers land
    successes, the deepest wound sets the pace (a gunshot among punches is still a gunshot)."""
    if domain != "physical":
        return BLUNT
    if sequence_nature in (BLUNT, DEEP):
        return sequence_nature
    landed = [natures.get(attacker, BLUNT) for attacker, successes in credited.items() if successes > 0]
    return DEEP if DEEP in landed else BLUNT
