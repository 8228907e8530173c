"""Production settings pass Django's deployment checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_is_clean_with_production_values() -> None:
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "SECRET_KEY": "k" * 20 + "-production-only-secret-with-enough-entropy-3f9a",
        "DEBUG": "false",
        "ALLOWED_HOSTS": "tablee.example.org",
        "SECURE_COOKIES": "1",
        "SECURE_SSL_REDIRECT": "1",
        "SECURE_HSTS_SECONDS": "31536000",
        "BEHIND_PROXY": "1",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
