"""Numbers, percentages, signs and quotation marks as each language prints them.

French: a decimal comma and a no-break space before « % » (« 1,7 % »), « guillemets ». English (British): a
decimal point, no space before the sign (« 62% »), “curly quotes”. Both: a real minus sign (−), not a hyphen.
The numbers go through Django's ``number_format``, which reads the active language's formats.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.translation import get_language

MINUS = "\u2212"
NBSP = "\u00a0"


def _french() -> bool:
    return (get_language() or "fr").startswith("fr")


def signed(value: int | float | str) -> str:
    """« +2 », « −1 »: a modifier with its sign, a true minus rather than a hyphen."""
    return f"{int(value):+d}".replace("-", MINUS)


def minus(text: str) -> str:
    """``text`` with each hyphen that stands before a digit (a negative number) made a minus sign."""
    out = []
    for index, char in enumerate(text):
        before = text[index - 1] if index else " "
        after = text[index + 1] if index + 1 < len(text) else ""
        out.append(MINUS if char == "-" and after.isdigit() and not before.isalnum() else char)
    return "".join(out)


def number(value: int | float | Decimal | str, digits: int = 0) -> str:
    """A number with the active language's decimal separator: « 1,7 » in French, « 1.7 » in English."""
    return minus(number_format(Decimal(str(value)), decimal_pos=digits, use_l10n=True))


def percent(value: int | float | Decimal | str, digits: int | None = None) -> str:
    """A percentage already multiplied by 100 (« 61.7 », 62) with its sign as the language prints it. A string
    keeps the decimals it was written with."""
    if digits is None:
        text = str(value)
        digits = len(text.split(".", 1)[1]) if "." in text else 0
    shown = number(value, digits)
    return f"{shown}{NBSP}%" if _french() else f"{shown}%"


def chance(value: float | Fraction, digits: int = 0) -> str:
    """A probability between 0 and 1 as a percentage: ``percent(100 * value)``."""
    return percent(round(100 * float(value), digits), digits)


def quoted(text: str) -> str:
    """« text » in French (spaced as the catalogues' own « %(x)s »), “text” in English."""
    return f"« {text} »" if _french() else f"“{text}”"
