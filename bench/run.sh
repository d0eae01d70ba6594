#!/usr/bin/env bash
# bench/run.sh — cropjob against the best peers, in one run, on the same corpora and the same three jobs.
#
# Usage:  bench/run.sh [STEP...]          (no step = all)
#   setup    install what is missing (Debian: libvips-tools, imagemagick, exiftool, time, python3-venv;
#            PyPI into $BENCH_WORK/venv: Pillow, pyvips, numpy, from bench/peers/requirements.txt)
#   build    swift build -c release (scratch path $CROPJOB_SCRATCH, default $BENCH_WORK/build)
#   corpus   56 real photographs, reproducibly (bench/peers/make-corpus.sh; checked against SHA256SUMS);
#            with job C, also 1,000 web-size photos cut from them (bench/peers/make-web-corpus.py)
#   gen      write the cropjob job files (jobs/) and one script per timed tool (cmd/)
#   bench    jobs A, B, C: cropjob and the peers in alternating rounds (RUNS=5 counted after
#            1 warm-up); cropjob's no-op re-run and `plan` ride along right after each cropjob run
#   verify   check every tool's outputs from its last timed run: count, exact sizes, JPEG, upright
#            (16x16 against a full-resolution Lanczos3 reference), no EXIF/GPS/ICC/XMP; the quality
#            column (mean abs difference to that reference, best sub-pixel alignment: bench/quality.py)
#   focus    focus: attention against focus: faces (issues 16, 23), alternating rounds, on job A's
#            photos and on the face corpus ($FOCUS_PHOTOS; default Tests/Corpora/faces-real, else
#            Tests/Corpora/faces/images): CPU ms and peak RSS per photo; then the detector alone
#            (bench/faces_cost.py: libfacedetection on each photo's 512 px copy, CPU per photo)
#   scale    plan, run and no-op re-run over N sources each (SCALE="10000 100000"), and plan only over
#            SCALE_PLAN ("1000000"): hard links to eleven 640-px JPEGs of the corpus in folders of 1,000,
#            a circle 96 px as PNG and as JPEG per photo (issue 14); time, peak RSS, state and manifest size;
#            SCALE_NOOP ("" by default) re-measures the no-op alone over the outputs an earlier scale
#            run of that size left, keeping its plans and run (a no-op change without the first run)
#   table    print the markdown tables (also written to $BENCH_WORK/results/TABLE.md)
#   all      setup build corpus gen bench verify focus scale table
#
# Environment: BENCH_WORK (default ${TMPDIR:-/tmp}/cropjob-bench), RUNS (5), SCALE ("10000 100000";
# empty to skip), SCALE_PLAN ("1000000"; empty to skip), SCALE_NOOP (""), JOBS ("A B C": the jobs that bench and verify
# run; also Da Db Dw Ds, the circle avatar set of issue 25, and C640: bench/README.md "Job D"), PEERS_A / PEERS_B / PEERS_C
# (space-separated tool names, see gen()), CROPJOB_BIN (use this binary instead of building),
# CROPJOB_ARGS (extra arguments for every timed `cropjob run`), FOCUS_PHOTOS (the focus step's face corpus).
# Example: bench/run.sh                                  # everything, ~30 min on 2 cores + ~40 for scale
#          RUNS=3 SCALE= SCALE_PLAN= bench/run.sh gen bench verify table
#          JOBS=C RUNS=2 SCALE= SCALE_PLAN= bench/run.sh setup corpus gen bench verify table   # job C only
# Only ratios measured in the same run hold on a shared machine; the table gives the load average.
# On a machine shared with other work (builds of other sessions), run.sh puts itself and everything
# it times in a scheduler autogroup of its own at nice $BENCH_NICE (default -15; needs root, set
# BENCH_NICE= to skip): cropjob and the peers then compete with each other, not with the builds.
set -euo pipefail

BENCH_NICE=${BENCH_NICE--15}
if [ -n "$BENCH_NICE" ] && [ -z "${BENCH_IN_GROUP:-}" ] && [ "$(id -u)" = 0 ] \
   && [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = 1 ] && command -v setsid >/dev/null; then
  BENCH_IN_GROUP=1 exec setsid -w bash "$0" "$@"
fi
if [ -n "${BENCH_IN_GROUP:-}" ]; then
  echo "$BENCH_NICE" > /proc/self/autogroup 2>/dev/null || true
  echo "scheduler: $(cat /proc/self/autogroup)" >&2
fi

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
W=${BENCH_WORK:-${TMPDIR:-/tmp}/cropjob-bench}
mkdir -p "$W"; W=$(cd "$W" && pwd); export BENCH_WORK=$W
PY=$W/venv/bin/python
SCRATCH=${CROPJOB_SCRATCH:-$W/build}
CJ=${CROPJOB_BIN:-$SCRATCH/release/cropjob}
CJARGS=${CROPJOB_ARGS:-}
SCALE=${SCALE-10000 100000}
SCALE_PLAN=${SCALE_PLAN-1000000}
SCALE_NOOP=${SCALE_NOOP-}
FOCUS_PHOTOS=${FOCUS_PHOTOS:-}
PEERS_A=${PEERS_A:-A-pil-p2 A-pyv-p2 A-imh-P2 A-vt-P2 A-vt-batch}
PEERS_B=${PEERS_B:-B-pyv-p2 B-pil-p2 B-imh-P2 B-vt-P2 B-vt-batch}
PEERS_C=${PEERS_C:-C-pil-p2 C-pyv-p2 C-imh-P2 C-vt-P2b C-vt-batch}
JOBS=${JOBS:-A B C}
P=$HERE/peers
FILES='corpus/*.jpg corpus/*.png'
FILES_C='webcorpus/*.jpg webcorpus/*.png'
VTO='[Q=85,strip,background=255]'

log() { printf '\n== %s\n' "$*" >&2; }

setup() {
  log "setup"
  local need=()
  command -v vipsthumbnail >/dev/null || need+=(libvips-tools)
  [ -x /usr/bin/convert-im6.q16 ] || need+=(imagemagick)
  command -v exiftool >/dev/null || need+=(libimage-exiftool-perl)
  [ -x /usr/bin/time ] || need+=(time)
  pkg-config --exists vips 2>/dev/null || need+=(libvips-dev)
  pkg-config --exists yaml-0.1 2>/dev/null || need+=(libyaml-dev)
  pkg-config --exists sqlite3 2>/dev/null || need+=(libsqlite3-dev)
  python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
  if [ ${#need[@]} -gt 0 ]; then
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
  fi
  if ! "$PY" -c 'import PIL, pyvips, numpy' 2>/dev/null; then
    python3 -m venv "$W/venv" && "$W/venv/bin/pip" -q install -r "$P/requirements.txt"
  fi
}

build() {
  if [ -n "${CROPJOB_BIN:-}" ]; then log "using $CJ"; return; fi
  log "build (release, scratch $SCRATCH)"
  (cd "$REPO" && swift build -c release --scratch-path "$SCRATCH" 2>&1 | tail -3)
  [ -x "$CJ" ]
}

corpus() {
  log "corpus"
  [ -f "$W/corpus/SHA256SUMS" ] || bash "$P/make-corpus.sh" "$W/corpus"
  (cd "$W/corpus" && sha256sum --quiet -c SHA256SUMS) && echo "corpus: $(grep corpus_sha256 "$W/corpus/SUMMARY.txt")"
  case " $JOBS " in *" C "*|*" Db "*|*" Dw "*|*" C640 "*|*" Ds "*) ;; *) return 0 ;; esac
  log "web corpus (jobs C, Db, Dw, C640, Ds)"
  [ -f "$W/webcorpus/SHA256SUMS" ] || "$PY" "$P/make-web-corpus.py" "$W/corpus" "$W/webcorpus" 1000
  (cd "$W/webcorpus" && sha256sum --quiet -c SHA256SUMS) \
    && echo "web corpus: $(grep web_corpus_sha256 "$W/webcorpus/SUMMARY.txt")"
  # Issue 25: 1,000 JPEGs of exactly 640 px (job C640) and 2,000 of 120 px (job Ds), from it.
  case " $JOBS " in *" C640 "*) [ -f "$W/web640/.done" ] || "$PY" "$P/make-resized.py" "$W/webcorpus" "$W/web640" 640 1000 ;; esac
  case " $JOBS " in *" Ds "*) [ -f "$W/small120/.done" ] || "$PY" "$P/make-resized.py" "$W/webcorpus" "$W/small120" 120 2000 ;; esac
  return 0
}

mk() {  # mk NAME 'shell command'  -> cmd/NAME.sh
  printf '#!/bin/sh\n# generated by bench/run.sh gen\ncd %s\n%s\n' "$W" "$2" > "$W/cmd/$1.sh"
  chmod +x "$W/cmd/$1.sh"
}

jobfile() {  # jobfile FILE OUTPUT SOURCES... ; the job body follows on stdin
  local f=$1 out=$2; shift 2
  { echo "# generated by bench/run.sh gen"
    echo "version: 1"
    echo "output: $out"
    echo "defaults:"
    echo "  encode: {format: jpeg, quality: 85}"
    echo "  metadata: strip"
    echo "jobs:"
    sed "s|@SOURCES@|$*|"; } > "$f"
}

gen() {
  log "gen"
  rm -rf "$W/cmd" "$W/jobs"; mkdir -p "$W/cmd" "$W/jobs" "$W/out" "$W/tmp"
  local S='["../corpus/*.jpg", "../corpus/*.png"]'
  # Job A: avatar. Orientation is applied before any geometry; metadata: strip; no alpha in JPEG
  # (flattened on white).
  jobfile "$W/jobs/A.yaml" ../out/cj-A "$S" <<'EOF'
  avatar:
    sources: @SOURCES@
    guide: {shape: square, size: 256}
    place: {fit: cover}
    outputs:
      - path: "{stem}_256.jpg"
EOF
  # Job B: set. Both jobs read the same files in the same stage, so the executor decodes each
  # source once (at the shrink-on-load its largest output allows) for all four outputs.
  # The peers' 1024 output is 1024 wide whatever the photo's aspect (1024x768 or 1024x1365):
  # a 1024-wide guide taller than any photo, contain, and overflow: shrink trims the output to the
  # photo's footprint, which is exactly 1024 x round(1024 h / w); focus [0.5, 0] puts the photo at
  # the guide's top so that the trimmed edges fall on whole pixels.
  jobfile "$W/jobs/B.yaml" ../out/cj-B "$S" <<'EOF'
  crops:
    sources: @SOURCES@
    guide: {shape: square, size: 256}
    place: {fit: cover}
    outputs:
      - path: "{stem}_{width}.jpg"
        widths: [64, 128, 256]
  fit:
    sources: @SOURCES@
    guide: {shape: rect, width: 1024, height: 16384}
    place: {fit: contain, overflow: shrink, focus: [0.5, 0]}
    outputs:
      - path: "{stem}_1024.jpg"
EOF
  # Job C: web-size photos (640-1280 px, a tenth PNG, a tenth sideways), 128x128 cover, JPEG q80.
  jobfile "$W/jobs/C.yaml" ../out/cj-C '["../webcorpus/*.jpg", "../webcorpus/*.png"]' <<'EOF'
  web:
    sources: @SOURCES@
    guide: {shape: square, size: 128}
    place: {fit: cover}
    encode: {quality: 80}
    outputs:
      - path: "{stem}_128.jpg"
EOF
  # Issue 16: what finding faces costs, beside libvips' attention, on job A's photos and guide.
  for f in attention faces; do
    jobfile "$W/jobs/A-$f.yaml" "../out/cj-A-$f" "$S" <<EOF
  avatar:
    sources: @SOURCES@
    guide: {shape: square, size: 256}
    place: {fit: cover, focus: $f}
    outputs:
      - path: "{stem}_256.jpg"
EOF
    mk "cj-A-$f" "exec $CJ run jobs/A-$f.yaml -q $CJARGS"
  done
  # Job D (issue 25), the avatar set users make (as jobs/avatars.yaml): a circle guide, a transparent
  # PNG and a JPEG on white per photo; Da from the phone photos at 256 px, Db from job C's web-size
  # photos at 96 px, Dw the WebP variant of Db, Ds 2,000 photos of 120 px at 48 px and one worker
  # (an avatar library re-processed). Each has its square twin (-sq: the same outputs, square guide).
  # C640: 1,000 JPEGs of 640 px to a 96 px square JPEG q80.
  local WEB='["../webcorpus/*.jpg", "../webcorpus/*.png"]' d
  for d in "Da|256|$S|png" "Db|96|$WEB|png" "Dw|96|$WEB|webp" 'Ds|48|["../small120/*.jpg"]|png'; do
    local name size src fmt shape f jobs out
    IFS='|' read -r name size src fmt <<< "$d"
    for shape in circle square; do
      f=$name; [ $shape = square ] && f=$name-sq
      if [ "$fmt" = webp ]; then
        out="      - path: \"{stem}_$size.webp\"
        encode: {format: webp, quality: 80}"
      else
        out="      - path: \"{stem}_$size.png\"
        encode: {format: png}
      - path: \"{stem}_$size.jpg\""
      fi
      printf '  avatar:\n    sources: @SOURCES@\n    guide: {shape: %s, size: %s}\n    place: {fit: cover}\n    outputs:\n%s\n' \
        "$shape" "$size" "$out" | jobfile "$W/jobs/$f.yaml" "../out/cj-$f" "$src"
      jobs=; [ $name = Ds ] && jobs="--jobs 1"
      mk "cj-$f" "exec $CJ run jobs/$f.yaml -q $jobs $CJARGS"
    done
  done
  jobfile "$W/jobs/C640.yaml" ../out/cj-C640 '["../web640/*.jpg"]' <<'EOF'
  web:
    sources: @SOURCES@
    guide: {shape: square, size: 96}
    place: {fit: cover}
    encode: {quality: 80}
    outputs:
      - path: "{stem}_96.jpg"
EOF
  mk cj-C640 "exec $CJ run jobs/C640.yaml -q $CJARGS"
  for j in A B C; do
    mk "cj-$j"      "exec $CJ run jobs/$j.yaml -q $CJARGS"
    mk "cj-$j-noop" "exec $CJ run jobs/$j.yaml -q $CJARGS"
    mk "cj-$j-plan" "exec $CJ plan jobs/$j.yaml"
  done
  local O=$W/out
  # The peers: the commands of ../shared/bench/run-peers.sh (copied into bench/peers/).
  mk A-vt-batch "exec vipsthumbnail $FILES -s 256x256 -m centre -o '$O/A-vt-batch/%s_256.jpg$VTO'"
  mk A-vt-P2    "printf '%s\\0' $FILES | xargs -0 -n 1 -P 2 vipsthumbnail -s 256x256 -m centre -o '$O/A-vt-P2/%s_256.jpg$VTO'"
  mk A-vt-P2b   "printf '%s\\0' $FILES | xargs -0 -n 28 -P 2 vipsthumbnail -s 256x256 -m centre -o '$O/A-vt-P2b/%s_256.jpg$VTO'"
  mk A-imh-P2   "printf '%s\\0' $FILES | xargs -0 -n 1 -P 2 $P/bin/im-avatar $O/A-imh-P2 512x512"
  mk A-pil-p2   "exec $PY $P/peer_pillow.py A 2 $O/A-pil-p2 $FILES"
  mk A-pyv-p2   "exec $PY $P/peer_pyvips.py A proc2 $O/A-pyv-p2 $FILES"
  mk A-pyv-t2   "exec $PY $P/peer_pyvips.py A thread2 $O/A-pyv-t2 $FILES"
  mk B-vt-batch "exec $P/bin/vt-set $O/B-vt-batch $FILES"
  mk B-vt-P2    "printf '%s\\0' $FILES | xargs -0 -n 1 -P 2 $P/bin/vt-set $O/B-vt-P2"
  mk B-vt-P2b   "printf '%s\\0' $FILES | xargs -0 -n 28 -P 2 $P/bin/vt-set $O/B-vt-P2b"
  mk B-imh-P2   "printf '%s\\0' $FILES | xargs -0 -n 1 -P 2 $P/bin/im-set $O/B-imh-P2 1024x1024"
  mk B-pil-p2   "exec $PY $P/peer_pillow.py B 2 $O/B-pil-p2 $FILES"
  mk B-pyv-p2   "exec $PY $P/peer_pyvips.py B proc2 $O/B-pyv-p2 $FILES"
  mk B-pyv-t2   "exec $PY $P/peer_pyvips.py B thread2 $O/B-pyv-t2 $FILES"
  local F=$FILES_C VC='[Q=80,strip,background=255]'   # job C: the A recipes at 128, q80
  mk C-vt-batch "exec vipsthumbnail $F -s 128x128 -m centre -o '$O/C-vt-batch/%s_128.jpg$VC'"
  mk C-vt-P2b   "printf '%s\\0' $F | xargs -0 -n 500 -P 2 vipsthumbnail -s 128x128 -m centre -o '$O/C-vt-P2b/%s_128.jpg$VC'"
  mk C-imh-P2   "printf '%s\\0' $F | xargs -0 -n 1 -P 2 $P/bin/im-cover $O/C-imh-P2 256x256 128 80"
  mk C-pil-p2   "exec $PY $P/peer_pillow.py C 2 $O/C-pil-p2 $F"
  mk C-pyv-p2   "exec $PY $P/peer_pyvips.py C proc2 $O/C-pyv-p2 $F"
  mk C-pyv-t2   "exec $PY $P/peer_pyvips.py C thread2 $O/C-pyv-t2 $F"
  # Job D's peers (bench/peers/peer_circle.py, bin/im-circle): Pillow and pyvips in 2 processes
  # (Ds: 1), ImageMagick one convert per file, xargs -P2; -sq: the square twin.
  local t
  for t in "Da 256 png $FILES" "Db 96 png $FILES_C" "Dw 96 webp $FILES_C" "Ds 48 png small120/*.jpg"; do
    set -- $t; local name=$1 size=$2 fmt=$3; shift 3; local files="$*"
    local circle=circle square=square workers=2 tool; [ "$fmt" = webp ] && circle=webp square=webp-square
    [ $name = Ds ] && workers=1
    for tool in pil pyv; do
      mk "$name-$tool-p$workers"    "exec $PY $P/peer_circle.py $tool $circle $size $workers $O/$name-$tool-p$workers $files"
      mk "$name-$tool-p$workers-sq" "exec $PY $P/peer_circle.py $tool $square $size $workers $O/$name-$tool-p$workers-sq $files"
    done
    mk "$name-imh-P2" "printf '%s\\0' $files | xargs -0 -n 1 -P 2 $P/bin/im-circle $O/$name-imh-P2 $((2 * size))x$((2 * size)) $size $circle"
  done
  mk C640-pil-p2 "exec $PY $P/peer_pillow.py C96 2 $O/C640-pil-p2 web640/*.jpg"
  echo "wrote $(ls "$W/jobs" | wc -l) job files to $W/jobs and $(ls "$W/cmd" | wc -l) scripts to $W/cmd"
}

PEERS_Da=${PEERS_Da:-Da-pil-p2 Da-pil-p2-sq Da-pyv-p2 Da-pyv-p2-sq Da-imh-P2}
PEERS_Db=${PEERS_Db:-Db-pil-p2 Db-pil-p2-sq Db-pyv-p2 Db-pyv-p2-sq Db-imh-P2}
PEERS_Dw=${PEERS_Dw:-Dw-pil-p2 Dw-pil-p2-sq Dw-pyv-p2 Dw-pyv-p2-sq}
PEERS_Ds=${PEERS_Ds:-Ds-pil-p1 Ds-pil-p1-sq}
PEERS_C640=${PEERS_C640:-C640-pil-p2}
peers() {  # job D's square twin of cropjob runs in the same rounds, as a peer would
  case $1 in
    A) echo "$PEERS_A" ;; B) echo "$PEERS_B" ;; C) echo "$PEERS_C" ;;
    Da) echo "cj-Da-sq $PEERS_Da" ;; Db) echo "cj-Db-sq $PEERS_Db" ;; Dw) echo "cj-Dw-sq $PEERS_Dw" ;;
    Ds) echo "cj-Ds-sq $PEERS_Ds" ;; C640) echo "$PEERS_C640" ;;
  esac
}

focus_photos() {  # the real-photo face corpus (issue 23), or the composites until it exists
  local d
  if [ -n "$FOCUS_PHOTOS" ]; then echo "$FOCUS_PHOTOS"; return; fi
  for d in "$REPO/Tests/Corpora/faces-real/images" "$REPO/Tests/Corpora/faces-real" "$REPO/Tests/Corpora/faces/images"; do
    if compgen -G "$d/*.jpg" >/dev/null || compgen -G "$d/*.png" >/dev/null; then echo "$d"; return; fi
  done
}
focus() {  # job A's photos and the face corpus, focus: attention against focus: faces (issues 16, 23)
  cd "$W"; cat corpus/* >/dev/null
  local real f e pats='' files=()
  real=$(cd "$(focus_photos)" && pwd)
  for e in jpg jpeg png; do
    if compgen -G "$real/*.$e" >/dev/null; then pats="$pats${pats:+, }\"$real/*.$e\""; files+=("$real"/*."$e"); fi
  done
  cat "${files[@]}" >/dev/null
  for f in attention faces; do   # job A's 256 px square avatar, over the face corpus
    printf '  avatar:\n    sources: @SOURCES@\n    guide: {shape: square, size: 256}\n    place: {fit: cover, focus: %s}\n    outputs:\n      - path: "{stem}_256.jpg"\n' \
      "$f" | jobfile "$W/jobs/R-$f.yaml" "../out/cj-R-$f" "[$pats]"
    mk "cj-R-$f" "exec $CJ run jobs/R-$f.yaml -q $CJARGS"
  done
  mkdir -p "$W/results"; printf '%s\n' "$real" > "$W/results/focus-photos.txt"
  log "focus: job A's photos with attention and with faces, $RUNS rounds"
  "$PY" "$HERE/bench.py" rounds F cj-A-attention cj-A-faces
  log "focus: $real (${#files[@]} photos) with attention and with faces, $RUNS rounds"
  "$PY" "$HERE/bench.py" rounds FR cj-R-attention cj-R-faces
  log "focus: the detector alone on each photo's 512 px copy, median of 3 calls"
  "$PY" "$HERE/faces_cost.py" FD-A 512 3 corpus/*.jpg corpus/*.png
  "$PY" "$HERE/faces_cost.py" FD-R 512 3 "${files[@]}"
}
bench() {
  cd "$W"; cat corpus/* >/dev/null   # warm the page cache
  case " $JOBS " in *" C "*|*" Db "*|*" Dw "*) cat webcorpus/* >/dev/null ;; esac
  case " $JOBS " in *" C640 "*) cat web640/* >/dev/null ;; esac
  case " $JOBS " in *" Ds "*) cat small120/* >/dev/null ;; esac
  CROPJOB_DESC="$("$CJ" --version | head -1), $CJ"; export CROPJOB_DESC
  for j in $JOBS; do
    log "bench: job $j, $RUNS rounds"
    # shellcheck disable=SC2046
    case $j in
      A|B|C) "$PY" "$HERE/bench.py" rounds "$j" "cj-$j" "cj-$j-noop" "cj-$j-plan" $(peers "$j") ;;
      *) "$PY" "$HERE/bench.py" rounds "$j" "cj-$j" $(peers "$j") ;;
    esac
  done
}

verify() {
  log "verify (outputs of each tool's last timed run)"
  local rc=0
  for j in $JOBS; do
    # shellcheck disable=SC2046
    "$PY" "$HERE/bench.py" verify "$j" "cj-$j" $(peers "$j") || rc=1
  done
  return $rc
}

scale() {
  [ -n "$SCALE$SCALE_PLAN$SCALE_NOOP" ] || return 0
  log "scale: plan, run and no-op over $SCALE sources; plan over $SCALE_PLAN"
  local S=$W/scale
  mkdir -p "$S/photos"
  if [ ! -f "$S/photos/.done" ]; then   # eleven 640-px JPEGs, upright, no metadata, from the corpus
    local i=0
    for f in $(ls "$W"/corpus/*.jpg | head -11); do
      i=$((i + 1)); vipsthumbnail "$f" -s 640 -o "$S/photos/p$(printf %02d $i).jpg[Q=90,strip]"
    done
    touch "$S/photos/.done"
  fi
  for n in $SCALE $SCALE_PLAN $SCALE_NOOP; do
    # The job of issue 14's table: a circle 96 px, as PNG and as JPEG, for every photo.
    { echo "# generated by bench/run.sh scale"
      echo "version: 1"
      echo "output: out-$n"
      echo "jobs:"
      echo "  avatar:"
      echo "    sources: [src-$n]"
      echo "    guide: {shape: circle, size: 96}"
      echo "    place: {fit: cover}"
      echo "    outputs:"
      echo '      - path: "{dir}/{stem}.png"'
      echo '      - path: "{dir}/{stem}.jpg"'; } > "$S/S$n.yaml"
  done
  # shellcheck disable=SC2086
  (cd "$S" && CROPJOB=$CJ "$PY" "$HERE/bench.py" scale $SCALE $(for n in $SCALE_PLAN; do echo "$n:plan"; done) \
    $(for n in $SCALE_NOOP; do echo "$n:noop"; done))
}

table() {
  local t=$W/results/TABLE.md
  mkdir -p "$W/results"
  {
    echo "## cropjob benchmark"
    echo
    echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r); libvips $(vips --version | cut -d- -f2), ImageMagick $(/usr/bin/convert-im6.q16 -version | head -1 | awk '{print $3}'), Python $("$PY" -c 'import sys, PIL, pyvips; print(sys.version.split()[0], "Pillow", PIL.__version__, "pyvips", pyvips.__version__)'); cropjob $(cd "$REPO" && git rev-parse --short HEAD)$(cd "$REPO" && git diff --quiet HEAD -- Sources Package.swift || echo '+local changes')."
    echo
    echo "Command: \`${JOBS_SET:+JOBS=\"$JOBS\" }RUNS=$RUNS SCALE=\"$SCALE\" SCALE_PLAN=\"$SCALE_PLAN\"${SCALE_NOOP:+ SCALE_NOOP=\"$SCALE_NOOP\"} bench/run.sh${STEPS_SHOWN:+ $STEPS_SHOWN}\`${CROPJOB_ARGS:+ with CROPJOB_ARGS=\"$CROPJOB_ARGS\"}."
    "$PY" "$HERE/bench.py" table
  } | tee "$t"
}

RUNS=${RUNS:-5}; export RUNS
JOBS_SET=; [ "$JOBS" = "A B C" ] || JOBS_SET=1
verify_failed=
STEPS_SHOWN="$*"
[ $# -gt 0 ] || set -- all
for step in "$@"; do
  case $step in
    all) setup; build; corpus; gen; bench; verify || true; focus; scale; table ;;
    verify) verify || verify_failed=1 ;;
    setup|build|corpus|gen|bench|focus|scale|table) "$step" ;;
    *) sed -n '2,38p' "$0" >&2; exit 2 ;;
  esac
done
[ -z "$verify_failed" ] || { echo "verify: some outputs failed the checks (see above)" >&2; exit 1; }
