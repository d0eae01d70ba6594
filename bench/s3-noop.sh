#!/usr/bin/env bash
# bench/s3-noop.sh — cropjob over photos in S3 on loopback (moto, Tests/S3/moto_server.py) with
# every request counted by the fault proxy (Tests/S3/fault_proxy.py, no faults): issue 38.
#
# Usage:  bench/s3-noop.sh noop [N...]     (default N: "10000 100000")
#   For each N: a fresh moto with N small JPEGs under s3://bench-in/in/dNNNN/pNNNNNNN.jpg (one
#   photo's bytes, folders of 1,000, seeded by boto3), a first `cropjob run` (not timed: it fills the
#   state), then the no-op `cropjob run` timed: requests by operation (proxy), wall seconds and peak
#   RSS (/usr/bin/time -f), and `cropjob plan` after it (requests only).
#         bench/s3-noop.sh jobc PHOTOS_DIR
#   Job C's photos (bench/run.sh corpus: $BENCH_WORK/webcorpus, 1,000 web-size photos) from disk to
#   disk, from S3 to disk and from S3 to S3 (a fresh output prefix per round): RUNS (default 3) alternating rounds of each, paired
#   wall and CPU seconds (/usr/bin/time), outputs compared byte for byte.
#
# Environment: CROPJOB_BIN (default: .build/release/cropjob, built with `swift build -c release`
# when missing), S3_BENCH_WORK (default ${TMPDIR:-/tmp}/cropjob-s3-bench), JOBS (default 2),
# RUNS (jobc; default 3). Needs python3 with moto[server] and boto3 (scripts/install-deps.sh),
# /usr/bin/time and vips (libvips-tools, for the small photo). Prints one line per figure and
# writes them to $S3_BENCH_WORK/results.txt.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
W=${S3_BENCH_WORK:-${TMPDIR:-/tmp}/cropjob-s3-bench}
JOBS=${JOBS:-2}
mkdir -p "$W"
CJ=${CROPJOB_BIN:-$REPO/.build/release/cropjob}
if [ ! -x "$CJ" ]; then (cd "$REPO" && swift build -c release --product cropjob >&2); fi
RESULTS=$W/results.txt
export AWS_ACCESS_KEY_ID=bench-id AWS_SECRET_ACCESS_KEY=bench-secret-not-real AWS_REGION=us-east-1
export AWS_CONFIG_FILE=$W/no-config AWS_SHARED_CREDENTIALS_FILE=$W/no-credentials
unset AWS_PROFILE AWS_ENDPOINT_URL_S3 || true

pids=()
fds=()
# Closing a service's standard input (a FIFO this script holds open) ends it; its PID is killed
# too in case it hangs.
cleanup() {
  for fd in "${fds[@]}"; do eval "exec $fd>&-" 2>/dev/null || true; done
  sleep 0.5
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  pids=()
  fds=()
}
trap cleanup EXIT

# start_service NAME SCRIPT ARGS...: runs a Python helper, which serves until its standard
# input closes, and sets PORT to the port it prints.
start_service() {
  local name=$1 script=$2 fd
  shift 2
  rm -f "$W/$name.port" "$W/$name.fifo"
  mkfifo "$W/$name.fifo"
  python3 "$script" "$@" < "$W/$name.fifo" > "$W/$name.port" 2> "$W/$name.log" &
  pids+=($!)
  exec {fd}> "$W/$name.fifo"
  fds+=("$fd")
  for _ in $(seq 1 3000); do
    if [ -s "$W/$name.port" ]; then PORT=$(head -1 "$W/$name.port"); return; fi
    sleep 0.1
  done
  echo "$script did not start: $(tail -3 "$W/$name.log")" >&2
  exit 1
}

client() { python3 "$REPO/Tests/S3/s3_client.py" "$@"; }

# operations STATS: the proxy's counts by operation, as "LIST=n GET=n ...".
operations() {
  python3 -c 'import json,sys; o=json.load(open(sys.argv[1])).get("operations",{}); print(" ".join(f"{k}={v}" for k,v in sorted(o.items())) or "none")' "$1"
}

report() { echo "$*" | tee -a "$RESULTS"; }

noop() {
  local sizes=${*:-10000 100000}
  local photo=$W/small.jpg
  # One small JPEG (64 px, about 2 KB): the objects' bytes do not matter to a no-op.
  vips thumbnail "$REPO/samples/astronaut.jpg" "$photo" 64 2>/dev/null
  for n in $sizes; do
    local dir=$W/noop-$n
    rm -rf "$dir"
    mkdir -p "$dir"
    local t0=$(date +%s)
    PORT=
    start_service "moto-$n" "$HERE/s3_bench_server.py" bench-in in/ "$n" "$photo"
    local moto=$PORT
    echo "moto with $n objects seeded in $(( $(date +%s) - t0 )) s" >&2
    local stats=$dir/proxy-stats.json
    echo '{}' > "$stats"
    start_service "proxy-$n" "$REPO/Tests/S3/fault_proxy.py" "$moto" "$stats" '{}'
    local proxy=$PORT
    cat > "$dir/job.yaml" <<EOF
version: 1
output: out
jobs:
  thumbs:
    sources: ["s3://bench-in/in/**/*.jpg"]
    guide: {shape: square, size: 32}
    outputs: [{path: "{dir}/{stem}.jpg"}]
EOF
    # The first run (it fills the state) straight to moto; the no-op and the plan through the proxy.
    t0=$(date +%s)
    (cd "$dir" && AWS_ENDPOINT_URL=http://127.0.0.1:$moto "$CJ" run -q -j "$JOBS" job.yaml)
    echo "first run over $n objects in $(( $(date +%s) - t0 )) s" >&2
    export AWS_ENDPOINT_URL=http://127.0.0.1:$proxy
    local before after
    before=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])).get("operations",{})))' "$stats")
    (cd "$dir" && /usr/bin/time -f "%e %M" -o "$dir/time.txt" "$CJ" run -q -j "$JOBS" job.yaml)
    after=$(python3 -c 'import json,sys; b=json.loads(sys.argv[2]); a=json.load(open(sys.argv[1])).get("operations",{}); print(" ".join(f"{k}={a[k]-b.get(k,0)}" for k in sorted(a) if a[k]-b.get(k,0)) or "none")' "$stats" "$before")
    read -r wall rss < "$dir/time.txt"
    report "no-op over $n S3 objects: requests $after; wall $wall s; peak RSS $((rss / 1024)) MiB (-j $JOBS)"
    before=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])).get("operations",{})))' "$stats")
    (cd "$dir" && "$CJ" plan job.yaml > /dev/null)
    after=$(python3 -c 'import json,sys; b=json.loads(sys.argv[2]); a=json.load(open(sys.argv[1])).get("operations",{}); print(" ".join(f"{k}={a[k]-b.get(k,0)}" for k in sorted(a) if a[k]-b.get(k,0)) or "none")' "$stats" "$before")
    report "plan after it over $n S3 objects: requests $after"
    cleanup
  done
}

jobc() {
  local photos=${1:?give the folder of the photos of job C: bench/run.sh corpus makes BENCH_WORK/webcorpus}
  photos=$(cd "$photos" && pwd)
  local runs=${RUNS:-3}
  local dir=$W/jobc
  rm -rf "$dir"
  mkdir -p "$dir"
  start_service moto-c "$REPO/Tests/S3/moto_server.py"
  local moto=$PORT
  client "http://127.0.0.1:$moto" make-bucket bench-c > /dev/null
  client "http://127.0.0.1:$moto" put-tree bench-c web/ "$photos" > /dev/null
  export AWS_ENDPOINT_URL=http://127.0.0.1:$moto
  # bench/run.sh's job C, reading the same photos from disk or from S3.
  # disk: from and to disk; s3: from S3 to disk; s3s3: from and to S3 (a fresh prefix per round).
  for kind in disk s3 s3s3; do
    local source=$photos output=out-$kind
    [ "$kind" = disk ] || source=s3://bench-c/web
    [ "$kind" = s3s3 ] && output='s3://bench-c/${ROUND}/'
    cat > "$dir/$kind.yaml" <<EOF
version: 1
output: $output
defaults:
  encode: {format: jpeg, quality: 85}
  metadata: strip
jobs:
  web:
    sources: ["$source/*.jpg", "$source/*.png"]
    guide: {shape: square, size: 128}
    place: {fit: cover}
    encode: {quality: 80}
    outputs:
      - path: "{stem}_128.jpg"
EOF
  done
  for round in $(seq 1 "$runs"); do
    for kind in disk s3 s3s3; do
      rm -rf "$dir/out-$kind"
      sed "s#\${ROUND}#out-s3s3-$round#" "$dir/$kind.yaml" > "$dir/$kind-run.yaml"
      (cd "$dir" && /usr/bin/time -f "%e %U %S %M" -o "$dir/$kind-$round.time" "$CJ" run -q -j "$JOBS" "$kind-run.yaml")
      read -r wall user sys rss < "$dir/$kind-$round.time"
      report "job C from $kind, round $round: wall $wall s, CPU $(python3 -c "print(round($user+$sys,2))") s, peak RSS $((rss / 1024)) MiB"
    done
  done
  if diff -r -x .cropjob -x cropjob-manifest.json "$dir/out-disk" "$dir/out-s3" > /dev/null; then
    report "job C: outputs from S3 and from disk are byte-identical"
  else
    report "job C: outputs DIFFER"
  fi
  # From and to S3: each object's ETag (the MD5 of a single-part PUT) against the disk file's MD5.
  client "http://127.0.0.1:$moto" list bench-c "out-s3s3-$runs/" > "$dir/s3s3-keys.json"
  if python3 - "$dir/s3s3-keys.json" "$dir/out-disk" "out-s3s3-$runs/" <<'PY'
import hashlib, json, os, sys
keys = {o["key"][len(sys.argv[3]):]: o["etag"] for o in json.load(open(sys.argv[1]))}
keys = {k: v for k, v in keys.items() if not k.startswith(".cropjob/") and not k.startswith("cropjob-manifest")}
files = {}
for root, _, names in os.walk(sys.argv[2]):
    for name in names:
        path = os.path.relpath(os.path.join(root, name), sys.argv[2])
        if path.startswith(".cropjob") or path.startswith("cropjob-manifest"):
            continue
        files[path] = hashlib.md5(open(os.path.join(root, name), "rb").read()).hexdigest()
sys.exit(0 if files and files == keys else 1)
PY
  then
    report "job C: outputs written to S3 equal the disk run's (ETag = MD5, $(ls "$dir/out-disk" | wc -l) files)"
  else
    report "job C: outputs in S3 DIFFER from the disk run's"
  fi
}

case "${1:-noop}" in
  noop) shift || true; noop "$@" ;;
  jobc) shift; jobc "$@" ;;
  *) echo "usage: bench/s3-noop.sh noop [N...] | jobc PHOTOS_DIR" >&2; exit 64 ;;
esac
