"""Fill the French catalogues from the dictionaries in scripts/translations/*.py ({msgid: msgstr} named T).

Usage: python scripts/translate_fr.py [PO...]   (default: every locale/fr/LC_MESSAGES/django.po)
Each part of the project keeps its own dictionary, so catalogues can be regenerated after a merge.
A message with a context is keyed "context\x04msgid" (as gettext does); without such a key its msgid is used.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import polib


def main() -> int:
    table: dict[str, str] = {}
    for source in sorted(Path(__file__).parent.joinpath("translations").glob("*.py")):
        table.update(runpy.run_path(str(source))["T"])
    paths = sys.argv[1:] or [
        str(p) for p in Path(".").glob("**/locale/fr/LC_MESSAGES/django.po") if ".venv" not in p.parts
    ]
    missing = 0
    for path in paths:
        po = polib.pofile(path)
        for entry in po:
            # A message with a context ({% translate "Open" context "session status" %}) is looked up as
            # "session status\x04Open" first, then by its msgid alone.
            key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
            if key not in table:
                key = entry.msgid
            if key in table and (not entry.msgstr or "fuzzy" in entry.flags):
                entry.msgstr = table[key]
                if "fuzzy" in entry.flags:
                    entry.flags.remove("fuzzy")
        po.save()
        left = po.untranslated_entries()
        missing += len(left)
        for entry in left:
            print(f"{path}: untranslated: {entry.msgid!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
