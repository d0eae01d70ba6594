#!/usr/bin/env bash
# identity.sh — what a cropjob binary makes of some job files, as sha256 sums, to compare two
# binaries (a refactor must leave every byte as it was).
#
# Usage: scripts/identity.sh CROPJOB_BIN WORK_DIR JOB.yaml... > sums.txt
#   then diff the sums of two binaries: diff before.txt after.txt
#
# Per job file, with the output root redirected to WORK_DIR/<name> (emptied first):
#   plan --format text|json|dot   before the first run (every output to build)
#   run                           the outputs (each file's sha256), the manifest(s)
#   plan --format text|json|dot   after it (every output up to date)
#   run --dry-run                 (text) after it
#   run                           again (the no-op re-run): the manifest again
#   state                         `sqlite3 .dump` of every .cropjob/*.sqlite3, wall-clock and
#                                 file-identity numbers (>= 10 digits) and the manifest's
#                                 recorded identity (size:mtime:inode) replaced by N
# Exit codes and stderr are not compared (the summary line holds timings); each exit code is
# listed beside the sums.
set -uo pipefail
BIN=$1; WORK=$2; shift 2
mkdir -p "$WORK"; WORK=$(cd "$WORK" && pwd)
sum() { sha256sum | cut -c1-64; }
for job in "$@"; do
  name=$(basename "$job" .yaml)
  out=$WORK/$name
  rm -rf "$out"
  for f in text json dot; do
    echo "$name plan-$f-before $("$BIN" plan "$job" --output "$out" --format "$f" 2>/dev/null | sum) rc=$?"
  done
  "$BIN" run "$job" --output "$out" -q >/dev/null 2>&1; echo "$name run rc=$?"
  (cd "$out" && find . -path ./.cropjob -prune -o -type f -print | LC_ALL=C sort | while read -r f; do
    echo "$name file $f $(sum < "$f")"
  done)
  for f in text json dot; do
    echo "$name plan-$f-after $("$BIN" plan "$job" --output "$out" --format "$f" 2>/dev/null | sum)"
  done
  echo "$name dry-run-after $("$BIN" run "$job" --output "$out" --dry-run 2>/dev/null | sum)"
  "$BIN" run "$job" --output "$out" -q >/dev/null 2>&1; echo "$name rerun rc=$?"
  for m in "$out"/cropjob-manifest*.json; do
    [ -f "$m" ] && echo "$name manifest-after-rerun $(basename "$m") $(sum < "$m")"
  done
  for db in "$out"/.cropjob/*.sqlite3; do
    [ -f "$db" ] || continue
    echo "$name state $(basename "$db") $(sqlite3 "$db" .dump | sed -E \
      -e "s/VALUES\('manifest:([^']*)','[0-9]+:[0-9]+:[0-9]+:/VALUES('manifest:\\1','N:N:N:/" \
      -e 's/[0-9]{10,}/N/g' | sum)"
  done
done
