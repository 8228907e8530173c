"""The markup version of a template, computed from its sources rather than bumped by hand.

A kept fragment's key carries the digest of what decides its markup besides its context: the template's file,
every template it includes or extends by a literal name (followed recursively), the template of every region it
nests by name (``{% region "name" … %}``: its kept bytes hold the nested region's; ``{% regions "name" … %}`` and a
hole, ``{% hole "name" %}``, likewise), and the Python modules of the tag libraries it loads, with this project's
modules they import (a tag such as ``{% playing_card %}`` writes markup in Python, through ``conflicts/card_svg.py``).
A shared cache therefore never serves the markup of an older deploy, and nobody has to remember to bump a number.

It is computed once per process (``markup_version``): template files do not change under a running server,
and the development server restarts on a change.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import re
import threading
from pathlib import Path

from django.template import engines
from django.template.exceptions import TemplateDoesNotExist

_NAMED = re.compile(r"""{%\s*(?:include|extends)\s+["']([^"']+)["']""")
_LOADED = re.compile(r"{%\s*load\s+([^%]+?)\s*%}")
_NESTED = re.compile(r"""{%\s*(?:regions?|hole)\s+["']([^"']+)["']""")


def _nested_templates(source: str) -> list[str]:
    """The templates of the regions ``source`` nests (``core.templatetags.regions``), by the registry."""
    from core.regions import get

    found = []
    for name in _NESTED.findall(source):
        try:
            found.append(get(name).template.split("#", 1)[0])
        except KeyError:
            found.append(f"missing-region:{name}")
    return found


def _source_of(name: str) -> tuple[str, str]:
    """The file and source of template ``name`` (``a.html#partial`` is ``a.html``)."""
    file_name = name.split("#", 1)[0]
    for engine in engines.all():
        try:
            template = engine.get_template(file_name)
        except TemplateDoesNotExist:
            continue
        origin = getattr(getattr(template, "template", template), "origin", None)
        path = str(getattr(origin, "name", "") or "")
        if path and Path(path).is_file():
            return path, Path(path).read_text(encoding="utf-8")
    raise TemplateDoesNotExist(name)


def _project_imports(source: str, package: str) -> list[str]:
    """The modules of this project that ``source`` imports, at its top or inside a function (a tag that imports its
    markup writer when it runs: ``conflicts/card_svg.py``)."""
    found: list[str] = []
    ours = _project_packages(package)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            candidates = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        found.extend(name for name in candidates if name.split(".", 1)[0] in ours)
    return found


def _project_packages(package: str) -> frozenset[str]:
    """The top-level packages beside ``package`` (``core``): this project's apps, not the libraries it uses."""
    root = Path(importlib.import_module(package).__file__ or ".").resolve().parent.parent
    return frozenset(path.parent.name for path in root.glob("*/__init__.py"))


def _module_source(name: str) -> str | None:
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None  # ``from conflicts import labels`` names a module; ``from conflicts.labels import SUITS`` a value
    file = getattr(module, "__file__", None)
    return Path(file).read_text(encoding="utf-8") if file and file.endswith(".py") else None


def _library_sources(names: list[str]) -> list[str]:
    """The Python of the tag libraries ``names`` and of this project's modules they import (one level: the modules that
    write the markup their tags print)."""
    libraries: dict[str, str] = {}
    for engine in engines.all():
        libraries.update(getattr(getattr(engine, "engine", None), "libraries", {}) or {})
    found = []
    for name in names:
        module_path = libraries.get(name)
        if module_path is None:
            continue
        source = _module_source(module_path)
        if source is None:
            continue
        found.append(source)
        for imported in sorted(set(_project_imports(source, __package__ or "core"))):
            if imported != module_path and (more := _module_source(imported)) is not None:
                found.append(more)
    return found


def template_digest(name: str) -> str:
    """The digest of template ``name``'s sources as they are on disk now (see the module's docstring)."""
    digest = hashlib.sha256()
    seen: set[str] = set()
    pending = [name.split("#", 1)[0]]
    libraries: set[str] = set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            path, source = _source_of(current)
        except TemplateDoesNotExist:
            digest.update(f"missing:{current}".encode())
            continue
        digest.update(f"{current}\0{path}\0{source}\0".encode())
        pending.extend(_NAMED.findall(source))
        pending.extend(_nested_templates(source))
        for loaded in _LOADED.findall(source):
            libraries.update(part for part in loaded.split() if part != "from")
    for library in _library_sources(sorted(libraries)):
        digest.update(library.encode())
    return digest.hexdigest()[:16]


# The per-process markup versions, filled on first use: sources do not change under a running process.
_versions: dict[str, str] = {}
_lock = threading.Lock()


def markup_version(name: str) -> str:
    """``template_digest(name)``, computed once per process."""
    version = _versions.get(name)
    if version is None:
        version = template_digest(name)
        with _lock:
            _versions[name] = version
    return version


def forget_markup_versions() -> None:
    """Read the sources again at next use (tests that change a template)."""
    with _lock:
        _versions.clear()
