#!/usr/bin/env bash
# The whole test suite under AddressSanitizer (+ LeakSanitizer) and ThreadSanitizer, each in
# its own scratch path (docs/reliability.md, "Sanitizers"). The CLI tests run the sanitized
# cropjob binary, so the sanitizers watch it too.
#
#   scripts/sanitizers.sh            # both
#   scripts/sanitizers.sh address    # one
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
scratch="${SANITIZER_SCRATCH:-$root/.build-sanitizers}"
status=0
for sanitizer in "${@:-address thread}"; do
  for s in $sanitizer; do
    echo "== swift test --sanitize=$s"
    if ! LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0" \
      TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1" \
      swift test --sanitize="$s" --scratch-path "$scratch/$s" 2>&1 | tee "$scratch-$s.log" | grep -E "error:|WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|Executed .* tests"; then
      :
    fi
    if grep -qE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer| error: |with [1-9][0-9]* failures" "$scratch-$s.log"; then
      echo "== $s: FAILED (log: $scratch-$s.log)"
      status=1
    else
      echo "== $s: clean"
    fi
  done
done
exit $status
