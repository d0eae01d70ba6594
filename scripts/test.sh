#!/usr/bin/env bash
# The test command (README, .ci/run): builds the tests, runs every test in parallel, one
# process per test on every core (`swift test --parallel`), then lists the tests that were
# skipped and why (a parallel run shows only failures; docs/testing.md, "Skipped where").
# Arguments are passed to `swift test`, e.g. `scripts/test.sh --filter PlanTests`.
# In CI (CI=true) a skipped test fails the run (issue 41: a check that cannot run is not a pass).
# Every skip goes through TestSupport's `Skipped.because` (which records it): a bare XCTSkip,
# XCTSkipIf or XCTSkipUnless anywhere else in Tests/ fails the run before anything is built.
set -uo pipefail
cd "$(dirname "$0")/.."
bare=$(grep -rnE 'XCTSkip(If|Unless)?\(' Tests --include='*.swift' | grep -v '^Tests/TestSupport/SkippedTests.swift:' || true)
if [ -n "$bare" ]; then
  echo "A skip that the skip list would not record (use Skipped.because):" >&2
  echo "$bare" >&2
  exit 1
fi
swift build --build-tests || exit $?
mkdir -p .build
: > .build/skipped-tests.txt
swift test --skip-build --parallel "$@"
status=$?
if [ -s .build/skipped-tests.txt ]; then
  echo "Skipped ($(sort -u .build/skipped-tests.txt | wc -l)):"
  sort -u .build/skipped-tests.txt | sed 's/^/  /'
  if [ "${CI:-}" = true ]; then
    echo "CI=true: a skipped test is a failure (install what it needs: scripts/install-deps.sh)" >&2
    [ "$status" -ne 0 ] || status=1
  fi
else
  echo "Skipped: none"
fi
exit $status
