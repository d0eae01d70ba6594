#!/usr/bin/env bash
# Runs one libFuzzer target for a while, seeded from the project and its public corpora (Tests/Corpora).
#
#   fuzz/run.sh jobfile 900        # the job-file parser + spec decoder, 15 minutes
#   fuzz/run.sh image 900          # SourceHeader.read + DecodedSource.decode
#
# The growing corpus lives in $FUZZ_WORK (default fuzz/.work/<target>), crashes in
# fuzz/artifacts/<target>/. Extra libFuzzer flags can follow: fuzz/run.sh image 60 -jobs=2.
# Exit status: 0 when nothing was found, libFuzzer's status otherwise.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
target="${1:?usage: fuzz/run.sh jobfile|image SECONDS [libFuzzer flags...]}"
seconds="${2:?usage: fuzz/run.sh jobfile|image SECONDS [libFuzzer flags...]}"
shift 2
build="${FUZZ_BUILD:-$here/.build}"
work="${FUZZ_WORK:-$here/.work}/$target"
artifacts="${FUZZ_ARTIFACTS:-$here/artifacts}/$target"
corpora="${CORPORA:-$root/Tests/Corpora}"
binary="$build/fuzz-$target"

if [[ ! -x "$binary" || -n "${FUZZ_REBUILD:-}" ]]; then FUZZ_BUILD="$build" "$here/build.sh"; fi
mkdir -p "$work" "$artifacts"

seeds="$work/../seeds-$target"
rm -rf "$seeds"; mkdir -p "$seeds"
case "$target" in
  jobfile)
    cp "$root"/jobs/*.yaml "$seeds/"
    find "$root/Tests" -path '*Fixtures*' \( -name '*.yaml' -o -name '*.yml' \) -exec cp {} "$seeds/" \; 2>/dev/null || true
    if [[ -d "$corpora/yaml-test-suite/data" ]]; then
      find "$corpora/yaml-test-suite/data" -name in.yaml | while read -r f; do
        cp "$f" "$seeds/yts-$(echo "$f" | md5sum | cut -c1-12).yaml"
      done
    fi
    dict=(-dict="$here/jobfile.dict")
    limits=(-max_len=4096 -timeout=5 -rss_limit_mb=2048)
    ;;
  image)
    # Small files only: libFuzzer mutates better, and big photos are slow to decode.
    find "$root/samples" "$corpora"/{pngsuite,jpeg-decoder,afl-testcases-images,exif-orientation} \
      "$root/Tests/Fixtures" -type f -size -64k \
      \( -iname '*.png' -o -iname '*.jp*g' -o -iname '*.gif' -o -iname '*.webp' -o -iname '*.tif*' \
         -o -iname '*.heic' -o -iname '*.avif' -o -iname '*.bmp' -o -iname '*.ico' -o -iname '*.jp2' \
         -o -iname '*.jxr' -o -path '*fuzz/image/*' \) 2>/dev/null | while read -r f; do
      cp "$f" "$seeds/$(echo "$f" | md5sum | cut -c1-12)-$(basename "$f")"
    done
    dict=()
    limits=(-max_len=65536 -timeout=20 -rss_limit_mb=3072)
    ;;
  *) echo "unknown target $target (jobfile, image)" >&2; exit 64 ;;
esac

echo "fuzz $target for $seconds s: $(ls "$seeds" | wc -l) seeds, corpus $work, artifacts $artifacts"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:handle_abort=1}"
exec "$binary" "$work" "$seeds" "${dict[@]}" "${limits[@]}" -max_total_time="$seconds" \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
