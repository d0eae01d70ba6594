#!/usr/bin/env bash
# The test command (README, .ci/run): builds the tests, runs every test in parallel, one
# process per test on every core (`swift test --parallel`), then lists the tests that were
# skipped and why (a parallel run shows only failures; docs/testing.md, "Skipped where").
# Arguments are passed to `swift test`, e.g. `scripts/test.sh --filter PlanTests`.
set -uo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests || exit $?
mkdir -p .build
: > .build/skipped-tests.txt
swift test --skip-build --parallel "$@"
status=$?
if [ -s .build/skipped-tests.txt ]; then
  echo "Skipped ($(sort -u .build/skipped-tests.txt | wc -l)):"
  sort -u .build/skipped-tests.txt | sed 's/^/  /'
else
  echo "Skipped: none"
fi
exit $status
