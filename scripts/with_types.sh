#!/usr/bin/env bash
# with_types.sh COMMAND...: runs mypy (`make typecheck`) beside COMMAND, then prints mypy's answer.
#
# mypy checks on one core, for 25-40 s from a cold cache (a fresh clone); the test suite keeps both cores busy
# only once its workers run. Started together, the two share the machine, and `make test` waits for the longer
# of them instead of their sum. Exits non-zero when either failed.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p var
make --no-print-directory typecheck > var/typecheck.log 2>&1 &
types=$!
"$@"
status=$?
echo "==> types (mypy, run beside the tests)"
wait "$types"
typed=$?
cat var/typecheck.log
[ "$status" -eq 0 ] && [ "$typed" -eq 0 ]
