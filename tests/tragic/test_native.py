"""The compiled engine (tragic/engine/native.py): used when built from these very sources, and move for move the same
games as the pure-Python modules it is compiled from."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tragic.engine import native, new_game
from tragic.simulation import default_config

ROOT = Path(__file__).resolve().parents[2]

CAN_BUILD = (Path(sysconfig.get_paths()["include"]) / "Python.h").exists() and bool(
    __import__("shutil").which((sysconfig.get_config_var("CC") or "cc").split()[0])
)
# ``TABLEE_ENGINE=python make test`` runs the suite on the pure modules: then nothing compiled is to be checked.
# Nor when nothing was built: `make test` does not wait for the build (`make run` starts it in the background).
# CI builds it and sets TABLEE_REQUIRE_NATIVE=1, so a missing or stale build fails there instead of skipping.
BUILT = native.built_digest() == native.digest() or bool(os.environ.get("TABLEE_REQUIRE_NATIVE"))
COMPILED = pytest.mark.skipif(
    not CAN_BUILD or not native.wanted() or not BUILT,
    reason="no C compiler or Python headers here, TABLEE_ENGINE=python, or not built (make native)",
)


def games_fingerprint(games: int) -> str:
    """Seeded random games by codes (as the playout benchmark and scripts/tragic_fingerprint.py play them): every
    offered list, event list and final state, hashed. Two and four players, both rule profiles."""
    digest = hashlib.sha256()
    for profile, players in (("wiki", 2), ("booklet", 2), ("wiki", 4)):
        config = default_config(profile=profile, players=players)
        for seed in range(games):
            state, rng = new_game(config, seed), random.Random(seed)
            while not state.is_over():
                player = state.current_players()[0]
                codes = state.legal_codes(player, concede=False) or state.legal_codes(player)
                offered = [state.decode(code) for code in codes]
                events = state.apply_code(rng.choice(codes))
                digest.update(json.dumps([offered, events], sort_keys=True).encode())
                if state.steps % 97 == 0:  # the copies the bots make: a clone and a JSON round trip play on alike
                    assert (
                        state.clone().to_json() == state.to_json() == type(state).from_json(state.to_json()).to_json()
                    )
            digest.update(json.dumps(state.to_json(), sort_keys=True).encode())
    return digest.hexdigest()


PURE = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
sys.path.insert(0, {str(Path(__file__).parent)!r})
import tragic.engine
assert not tragic.engine.native.loaded()
from test_native import games_fingerprint
print(games_fingerprint({{games}}))
"""


@COMPILED
def test_the_compiled_engine_is_the_one_in_use_where_it_can_be_built() -> None:
    # CI builds it first (make native); a failed or stale build would leave the suite testing the pure
    # modules while the site and the benchmark run the compiled ones, or the other way round.
    assert native.built_digest() == native.digest(), "the compiled engine is missing or stale: run `make native`"
    assert native.loaded()
    assert native.search_path(["src"])[0] == str(native.NATIVE_DIR)


@COMPILED
def test_the_compiled_and_the_pure_engine_play_the_same_games() -> None:
    games = 12
    env = {**os.environ, "TABLEE_ENGINE": "python", "DJANGO_SETTINGS_MODULE": "config.settings"}
    pure = subprocess.run(
        [sys.executable, "-c", PURE.format(games=games)], env=env, capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert native.loaded()
    assert games_fingerprint(games) == pure.stdout.strip()


def test_a_build_is_used_only_for_the_sources_it_was_made_from(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLEE_ENGINE", raising=False)
    monkeypatch.setattr(native, "built_digest", lambda: "0" * 64)
    assert native.search_path(["src"]) == ["src"]  # stale: the sources alone
    monkeypatch.setattr(native, "built_digest", native.digest)
    assert native.search_path(["src"]) == [str(native.NATIVE_DIR), "src"]
    monkeypatch.setenv("TABLEE_ENGINE", "python")
    assert native.search_path(["src"]) == ["src"]


def test_the_digest_changes_with_any_compiled_source(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (*native.MODULES, "native"):
        (tmp_path / f"{name}.py").write_bytes((native.HERE / f"{name}.py").read_bytes())
    monkeypatch.setattr(native, "HERE", tmp_path)
    before = native.digest()
    (tmp_path / "legal_main.py").write_text((tmp_path / "legal_main.py").read_text() + "\n# edited\n")
    assert native.digest() != before
