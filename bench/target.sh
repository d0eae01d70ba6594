#!/usr/bin/env bash
# bench/target.sh — encode.target (issue 27.3) on job C's 1,000 web-size photos: bytes and scores
# against a fixed quality 80, and the extra CPU the search costs (paired, alternating rounds).
#
# Usage: CROPJOB_BIN=/path/to/release/cropjob bench/target.sh WEBCORPUS [TARGET...]
#   WEBCORPUS  job C's photos (bench/run.sh corpus: $BENCH_WORK/webcorpus, checked by its SHA256SUMS)
#   TARGET     SSIM targets to try (default: 0.95 0.96 0.97)
# Environment: BENCH_WORK (default ${TMPDIR:-/tmp}/cropjob-target), RUNS (3 paired rounds for CPU),
#   CEILING (95: quality, the highest the search may use), FLOOR (30: min_quality).
# Prints one table: per job, total bytes, score min / p10 / median / mean, quality median, and CPU
# (user + sys, median of RUNS) of `cropjob run` from scratch; `q80` is job C as bench/run.sh writes it,
# its scores measured by a run with target {ssim: 0} and min_quality 80 (same bytes, one encode).
set -euo pipefail
CJ=${CROPJOB_BIN:?set CROPJOB_BIN to a release cropjob}
CORPUS=$(cd "${1:?web corpus folder}" && pwd)
shift
TARGETS=${*:-0.95 0.96 0.97}
W=${BENCH_WORK:-${TMPDIR:-/tmp}/cropjob-target}
RUNS=${RUNS:-3}
CEILING=${CEILING:-95}
FLOOR=${FLOOR:-30}
mkdir -p "$W/jobs"
(cd "$CORPUS" && sha256sum --quiet -c SHA256SUMS)

job() { # name encode
  cat > "$W/jobs/$1.yaml" <<EOF
version: 1
output: ../out/$1
jobs:
  web:
    sources: ["$CORPUS/*.jpg", "$CORPUS/*.png"]
    guide: {shape: square, size: 128}
    place: {fit: cover}
    encode: $2
    metadata: strip
    outputs:
      - path: "{stem}_128.jpg"
EOF
}
job q80 "{quality: 80}"
job q80-scored "{quality: 80, min_quality: 80, target: {ssim: 0}}"
names="q80 q80-scored"
for t in $TARGETS; do
  job "t$t" "{quality: $CEILING, min_quality: $FLOOR, target: {ssim: $t}}"
  names="$names t$t"
done

# CPU: every job once per round, the order rotating, from scratch each time.
: > "$W/times.tsv"
set -- $names
for round in $(seq 1 "$RUNS"); do
  order=$(printf '%s\n' "$@" | awk -v r="$round" '{ a[NR] = $0 } END { for (i = 0; i < NR; i++) print a[(i + r) % NR + 1] }')
  for name in $order; do
    rm -rf "$W/out/$name"
    /usr/bin/time -f "$name\t%U\t%S\t%e" -a -o "$W/times.tsv" "$CJ" run "$W/jobs/$name.yaml" -q > /dev/null
  done
done

echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, corpus $(sha256sum "$CORPUS/SHA256SUMS" | cut -c1-16)"
python3 - "$W" $names <<'EOF'
import json, statistics, sys
w, names = sys.argv[1], sys.argv[2:]
times = {}
for line in open(f"{w}/times.tsv"):
    name, user, system, wall = line.rstrip("\n").split("\t")
    times.setdefault(name, []).append(float(user) + float(system))
rows = {}
for name in names:
    entries = json.load(open(f"{w}/out/{name}/cropjob-manifest.json"))["outputs"]
    rows[name] = {e["path"]: e for e in entries}
base = rows["q80"]
scored = rows["q80-scored"]
assert all(scored[p]["sha256"] == base[p]["sha256"] for p in base), "q80-scored wrote other bytes than q80"
base_scores = sorted(scored[p]["ssim"] for p in base)
base_bytes = sum(e["bytes"] for e in base.values())
def pct(values, q):
    return values[min(len(values) - 1, int(q * len(values)))]
print("| job | files | bytes | vs q80 | ssim min | p10 | median | mean | quality median (min–max) | encodes mean | CPU s (median of runs) | vs q80 |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
cpu_base = statistics.median(times["q80"])
for name in names:
    r = rows[name]
    scores = sorted((scored if name == "q80" else r)[p].get("ssim", float("nan")) for p in r)
    total = sum(e["bytes"] for e in r.values())
    qualities = sorted(e["quality"] for e in r.values())
    cpu = statistics.median(times[name])
    print(f"| {name} | {len(r)} | {total:,} | {total / base_bytes - 1:+.1%} | {scores[0]:.4f} | {pct(scores, 0.1):.4f} | "
          f"{statistics.median(scores):.4f} | {statistics.mean(scores):.4f} | {statistics.median(qualities)} "
          f"({qualities[0]}–{qualities[-1]}) | {statistics.mean(e['encodes'] for e in r.values()):.2f} | "
          f"{cpu:.2f} ({', '.join(f'{t:.2f}' for t in times[name])}) | {cpu / cpu_base - 1:+.0%} |")
# Per photo: of the photos whose q80 file scores at least the target, the bytes the target saves.
for name in names[2:]:
    t = float(name[1:])
    r = rows[name]
    both = [p for p in base if scored[p]["ssim"] >= t]
    saved = 1 - sum(r[p]["bytes"] for p in both) / max(1, sum(base[p]["bytes"] for p in both))
    below = sum(1 for p in base if scored[p]["ssim"] < t)
    print(f"{name}: {len(both)} photos whose q80 scores >= {t}: {saved:.1%} fewer bytes at a score >= {t}; "
          f"{below} photos under {t} at q80 reach it with the target")
EOF
