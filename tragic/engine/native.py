"""The compiled engine: the same modules built by mypyc into C extensions, used only when built from these sources.

Why: a random playout step of TRAGIC lists every legal move and applies one through some 30 Python calls; in pure
Python that is about 0.57× OpenSpiel's block dominoes per CPU second on the shared machine, and the issue asks for
1.0× (docs/benchmarks.md). mypyc compiles the engine's own, fully typed, source (no second implementation to keep
in step): the state's classes become C structs with native attribute reads, calls between engine functions C calls.

How: ``scripts/build_native.py`` (``make native``, run by ``make run``, ``make test``, ``make e2e`` and
``make bench``) compiles :data:`MODULES` into ``.native/tragic/engine/`` and writes there the :func:`digest` of
the sources it compiled. When this package is imported, :func:`search_path` puts that folder before the sources
in the package's ``__path__`` only if the digest still matches the sources, so that an edited module is never
shadowed by a stale build: the engine falls back to pure Python until ``make native`` runs again. Without a C
compiler the build is skipped and the engine is pure Python, identical move for move (``tests/tragic/test_native.py``
compares the two on seeded games).

``TABLEE_ENGINE=python`` forces the pure-Python modules (to debug, or to measure the two side by side).

This module is read by the build script before the package exists in compiled form, so it imports nothing but
the standard library and is never compiled itself.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
NATIVE_DIR = ROOT / ".native" / "tragic" / "engine"
STAMP = "digest.txt"

# The compiled modules: the state's class chain and what its steps call. Left in Python, and why:
# - ``__init__`` and this module: they choose which modules are imported;
# - ``errors``: ``Problem`` subclasses ``str``, which mypyc's native classes cannot;
# - ``card_files``: reads the card files next to it through ``__file__``, which a compiled module lacks; it
#   runs once per process (the pool is cached);
# - the bots (``bots``, ``search``, ``evaluation``, ``openings``): tests replace their methods (monkeypatch),
#   which a compiled class refuses; their rollouts spend their time in the compiled state.
MODULES = (
    "base",
    "card_actions",
    "cards",
    "checks",
    "codes",
    "combat",
    "combat_actions",
    "damage",
    "decks",
    "dice",
    "effects",
    "game",
    "legal",
    "legal_attacks",
    "legal_main",
    "observation",
    "passives",
    "pieces",
    "profiles",
    "roster",
    "setup_actions",
    "setup_choices",
    "stack",
    "state",
    "targeting",
    "turn_actions",
    "turns",
)


def digest() -> str:
    """What a build depends on: the compiled sources, this module (the list), the interpreter's version and
    mypyc's (read from the installed distribution's metadata, without importing it)."""
    from importlib import metadata

    h = hashlib.sha256()
    h.update(sys.version.encode())
    try:
        h.update(metadata.version("mypy").encode())
    except metadata.PackageNotFoundError:
        h.update(b"no mypy")
    for name in (*MODULES, "native"):
        h.update(name.encode())
        h.update((HERE / f"{name}.py").read_bytes())
    return h.hexdigest()


def built_digest() -> str | None:
    try:
        return (NATIVE_DIR / STAMP).read_text().strip()
    except OSError:
        return None


def wanted() -> bool:
    return os.environ.get("TABLEE_ENGINE", "native") != "python"


def search_path(path: list[str]) -> list[str]:
    """The package's ``__path__``: the compiled folder first when it holds a build of these very sources."""
    if wanted() and built_digest() == digest():
        return [str(NATIVE_DIR), *path]
    return path


def loaded() -> bool:
    """Whether the engine's state class in use is the compiled one."""
    module = sys.modules.get(f"{__package__}.game")
    return module is not None and not str(getattr(module, "__file__", "")).endswith(".py")
