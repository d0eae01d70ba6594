#!/usr/bin/env bash
# The real-photo face corpus as a check (issue 23, point 4): run job-faces.yaml (focus: faces,
# face_padding 0.3, zoom 1 and 1.6) over the 57 photos and fail when
#   - fewer than 95 % (zoom 1) or 90 % (zoom 1.6) of the outputs whose padded faces fit keep
#     every padded face inside (today 36 of 36 and 18 of 18: README.md),
#   - any output differs from Pillow's own resampling of the footprint the manifest records
#     (--check-pixels: the scores are about the written pixels, not only the manifest),
#   - the detector finds fewer than 95 % of the 121 faces or puts more than 2 boxes on no face
#     (recall.py; boxes in ignore.json's regions are neither),
#   - a job is missing or counts too few outputs.
# The scorers are Tests/Corpora/faces/evaluate.py and recall.py, with this corpus's truth.
#
#   Tests/Corpora/faces-real/check.sh [CROPJOB]
#
# CROPJOB: the cropjob binary; default $CROPJOB, else the debug build (`swift build` first when
# there is none). About 18 s with the debug build on the 2-core VM.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scorers="$here/../faces"
source "$scorers/common.sh"
binary="$(cropjob_binary "${1:-}")"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
run_faces_job "$binary" "$here" "$out" "real-photo face corpus"
corpus=(--truth "$here/truth.json" --layout "$here/layout.json" --images "$here/images")
/usr/bin/python3 "$scorers/evaluate.py" "${corpus[@]}" --padding 0.3 --list --check-pixels \
  --min-inside-job avatar=95 --min-inside-job avatar-zoom=90 "$out"
/usr/bin/python3 "$scorers/recall.py" --truth "$here/truth.json" --ignore "$here/ignore.json" \
  --job avatar --min-recall 95 --max-false 2 "$out"
# Both jobs there, each with the 57 outputs and enough that fit (36 and 18 today): a run that
# wrote nothing, or a scoring that counts nothing, must not pass.
/usr/bin/python3 "$scorers/evaluate.py" "${corpus[@]}" --padding 0.3 --json "$out" | require_counts 57 avatar=34 avatar-zoom=16
