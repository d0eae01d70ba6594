# Shared by the face corpora's check.sh scripts (sourced, not run): finding the cropjob binary,
# running a corpus's job-faces.yaml, and the guard that a run or a scoring that counts nothing
# does not pass.
scorers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$scorers/../../.." && pwd)"

# cropjob_binary [CROPJOB]: the argument, else $CROPJOB, else the debug build (built first when
# there is none).
cropjob_binary() {
  local binary="${1:-${CROPJOB:-}}"
  if [ -z "$binary" ]; then
    local bin_path
    bin_path="$(cd "$root" && swift build --show-bin-path)"
    if [ ! -x "$bin_path/cropjob" ]; then (cd "$root" && swift build >&2); fi
    binary="$bin_path/cropjob"
  fi
  printf '%s\n' "$binary"
}

# run_faces_job BINARY CORPUS_DIR OUT LABEL: cropjob run CORPUS_DIR/job-faces.yaml into OUT.
run_faces_job() {
  local start=$SECONDS
  "$1" run "$2/job-faces.yaml" --output "$3" -q
  echo "$4: cropjob run took $((SECONDS - start)) s"
}

# require_counts OUTPUTS JOB=LEAST... (evaluate.py --json on stdin): each job is there with
# OUTPUTS outputs and at least LEAST whose padded faces fit, and its share is printed.
require_counts() {
  /usr/bin/python3 -c '
import json, sys
expected, wanted = int(sys.argv[1]), [a.split("=") for a in sys.argv[2:]]
jobs = json.load(sys.stdin)["runs"][0]["jobs"]
for name, least in wanted:
    job = jobs.get(name)
    if job is None:
        sys.exit(f"FAIL: no outputs of job {name}")
    outputs, fit, inside, pct = job["outputs"], job["fit"], job["inside"], job["inside_pct"]
    if outputs != expected or fit < int(least):
        sys.exit(f"FAIL: job {name}: {outputs} outputs, {fit} fit (expected {expected}, at least {least})")
    print(f"{name}: {inside} of {fit} ({pct} %) keep every padded face inside")
' "$@"
}
