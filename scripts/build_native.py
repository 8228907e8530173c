"""Build the compiled TRAGIC engine (``make native``): mypyc turns the engine's modules into C extensions.

    .venv/bin/python scripts/build_native.py           # builds when the sources changed, else says it is current
    .venv/bin/python scripts/build_native.py --force   # builds again
    .venv/bin/python scripts/build_native.py --background  # `make run`: builds at low priority behind the server

``make run`` never waits for the build (one to three minutes on two shared cores): it starts it in the
background, logged to ``var/native-build.log``, and serves with the pure-Python engine meanwhile; the
compiled engine is used from the next start. Two builds never run at once (a lock in ``var/``).

The list of modules, the folder (``.native/``) and the digest that ties a build to its sources are in
``tragic/engine/native.py``, which explains why. This script is the only writer of ``.native/``:

- the build is up to date (the digest matches): nothing to do;
- no C compiler or no Python headers: ``.native/`` is removed and the engine runs as pure Python (a note says so);
- the build fails: mypyc's output is shown and the exit status is 1 (a broken build is a bug to fix, not to hide:
  ``make`` stops); an older build left in ``.native/`` stays unused, its digest no longer matching the sources.

The digest is written last, once every extension is in place, so an interrupted build is never used.
"""

from __future__ import annotations

import argparse
import fcntl
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _native_module():  # type: ignore[no-untyped-def]  # reason: a module loaded by path has no static type
    # Loaded by path, not as ``tragic.engine.native``: importing the package would import the engine itself.
    spec = importlib.util.spec_from_file_location("_tablee_native", ROOT / "tragic" / "engine" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# mypyc type-checks what it compiles; ``make typecheck`` holds the strict checks (pyproject.toml), this is
# only what compiling needs (the Django plugin there would load the settings for nothing).
MYPY_CONFIG = """[mypy]
python_version = 3.11
ignore_missing_imports = True
"""

SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

modules, config, opt, target = sys.argv[1:5]
del sys.argv[1:5]
setup(
    name="tablee-tragic-engine",
    packages=[],
    ext_modules=mypycify(
        ["--config-file", config, *modules.split(",")],
        opt_level=opt,
        group_name="tragic.engine._native",
        target_dir=target,
    ),
)
"""


def compiler_missing() -> str | None:
    """Why no extension can be built here, or None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h)"
    try:
        import mypyc  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as error:
        return f"{error.name} is not installed"
    return None


def build(native, digest: str) -> None:  # type: ignore[no-untyped-def]  # reason: the module loaded by path (above)
    out = ROOT / ".native"
    sources = [f"tragic/engine/{name}.py" for name in native.MODULES]
    with tempfile.TemporaryDirectory(prefix="tablee-native-") as tmp:
        config = Path(tmp) / "mypy.ini"
        config.write_text(MYPY_CONFIG)
        setup = Path(tmp) / "setup.py"
        setup.write_text(SETUP)
        staging = Path(tmp) / "lib"
        command = [
            sys.executable,
            str(setup),
            ",".join(sources),
            str(config),
            os.environ.get("TABLEE_NATIVE_OPT", "3"),
            str(Path(tmp) / "c"),
            "build_ext",
            "--build-lib",
            str(staging),
            "--build-temp",
            str(Path(tmp) / "temp"),
            "--parallel",
            str(os.cpu_count() or 1),
        ]
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
            raise SystemExit("native build failed: the engine stays pure Python (see above)")
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(staging, out)
    (native.NATIVE_DIR / native.STAMP).write_text(digest + "\n")


VAR = ROOT / "var"


def start_in_background() -> None:
    """Build in a child process at the lowest priority, so the server answers at once."""
    VAR.mkdir(exist_ok=True)
    log = VAR / "native-build.log"
    with log.open("w") as out:
        subprocess.Popen(  # noqa: S603 - this very script, without --background
            ["nice", "-n", "19", sys.executable, __file__],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    print(
        f"native engine: compiling in the background ({log.relative_to(ROOT)}); "
        "the pure-Python engine serves until the next start",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="build even if the build is current")
    parser.add_argument("--background", action="store_true", help="build in a low-priority child process")
    args = parser.parse_args()
    native = _native_module()
    for stray in sorted(native.HERE.glob("*.so")) + sorted(ROOT.glob("*__mypyc*.so")):
        # a mypyc run by hand, in place: beside the sources it would shadow them, stale or not
        print(f"native engine: removing {stray.relative_to(ROOT)} (an extension built in place)")
        stray.unlink()
    if not args.force and native.built_digest() == native.digest():
        print("native engine: up to date (.native/)")
        return
    reason = compiler_missing()
    if reason is not None:
        shutil.rmtree(ROOT / ".native", ignore_errors=True)
        print(f"native engine: not built, {reason}; the TRAGIC engine runs as pure Python (slower, same games)")
        return
    if args.background:
        start_in_background()
        return
    VAR.mkdir(exist_ok=True)
    lock = (VAR / "native-build.lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("native engine: another build is under way (var/native-build.log)")
        return
    print(
        f"native engine: compiling {len(native.MODULES)} modules with mypyc (one to three minutes on two cores)…",
        flush=True,
    )
    digest = native.digest()
    build(native, digest)
    if native.digest() != digest:
        # a source was edited during the build: the stamp would tie the build to sources it was not made from
        (native.NATIVE_DIR / native.STAMP).unlink()
        raise SystemExit("native build: the sources changed while building; run it again")
    print("native engine: built into .native/")


if __name__ == "__main__":
    main()
