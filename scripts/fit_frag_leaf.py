"""Fit the Frag search bot's leaf (``frag/engine/leaf.py``): who wins, from what the position shows at a turn's start.

Plays duels between heuristic bots on the given maps (``fighters.STANDARD_SHEET``, the fighters ``frag_sim`` uses:
Santé 2, Vitesse 3, Précision 2), records ``leaf.features`` for the player whose turn begins at every turn's start, labels each row with whether
that player won the game, and fits a logistic regression by Newton's method (a light ridge keeps it well posed).
One game in five is held out to report the fitted loss beside a constant guess. Prints the ``WEIGHTS`` to paste.

Needs numpy (``pip install -r requirements-bench.txt``). Usage::

    python scripts/fit_frag_leaf.py --games 4000 --seed 500000 --maps raffinerie,entrepot   # the committed WEIGHTS
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frag.engine import new_game  # noqa: E402  (the project's root goes on the path first)
from frag.engine.bots import heuristic_bot  # noqa: E402
from frag.engine.fighters import STANDARD_SHEET  # noqa: E402
from frag.engine.leaf import FEATURES, features  # noqa: E402
from frag.engine.rng import Dice  # noqa: E402

if TYPE_CHECKING:
    import numpy as np

RIDGE = 1.0


def play(board: str, seed: int) -> tuple[list[list[float]], list[float]]:
    """One duel's rows (one per turn's start, for the player to move) and labels (1 when that player won)."""
    config = {
        "map": board,
        "players": [{"name": f"h{i + 1}", **STANDARD_SHEET} for i in range(2)],
        "frags_to_win": 3,
    }
    state = new_game(config, seed)
    dice = Dice(seed)
    rows: list[list[float]] = []
    movers: list[int] = []
    last_turn = state.turn.number
    while not state.is_over():
        if state.turn.number != last_turn and state.phase == "movement":
            last_turn = state.turn.number
            rows.append(features(state, state.turn.player))
            movers.append(state.turn.player)
        player = state.current_players()[0]
        state.apply(heuristic_bot(state, player, dice))
    winner = state.winner()
    labels = [0.5 if winner is None else float(mover == winner) for mover in movers]
    return rows, labels


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    import numpy as np  # a dev-only dependency (requirements-bench.txt): the tests import ``play`` without it

    weights = np.zeros(x.shape[1])
    penalty = RIDGE * np.eye(x.shape[1])
    penalty[0, 0] = 0.0  # the bias is not shrunk
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-(x @ weights)))
        gradient = x.T @ (p - y) + penalty @ weights
        hessian = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.abs(step).max() < 1e-9:
            break
    return weights


def log_loss(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> float:
    import numpy as np

    p = np.clip(1.0 / (1.0 + np.exp(-(x @ weights))), 1e-12, 1 - 1e-12)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def main() -> None:
    import numpy as np

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="duels per map")
    parser.add_argument("--seed", type=int, default=500_000)
    parser.add_argument("--maps", default="raffinerie,entrepot")
    args = parser.parse_args()
    train_x: list[list[float]] = []
    test_x: list[list[float]] = []
    train_y: list[float] = []
    test_y: list[float] = []
    for board in args.maps.split(","):
        for game in range(args.games):
            rows, labels = play(board, args.seed + game)
            held_out = game % 5 == 4
            (test_x if held_out else train_x).extend(rows)
            (test_y if held_out else train_y).extend(labels)
    x, y = np.array(train_x), np.array(train_y)
    tx, ty = np.array(test_x), np.array(test_y)
    weights = fit(x, y)
    constant = np.zeros(x.shape[1])
    constant[0] = np.log(y.mean() / (1 - y.mean()))
    print(f"rows: {len(y)} fitted, {len(ty)} held out ({args.games} duels per map on {args.maps})")
    print(f"held-out log loss: fitted {log_loss(tx, ty, weights):.4f}, constant {log_loss(tx, ty, constant):.4f}")
    hits = float((((tx @ weights) > 0) == (ty > 0.5)).mean())
    print(f"held-out rows whose winner the fit names: {hits:.1%}")
    print("WEIGHTS = (")
    for name, weight in zip(FEATURES, weights, strict=True):
        print(f"    {weight:.4f},  # {name}")
    print(")")


if __name__ == "__main__":
    main()
