#!/usr/bin/env bash
# Builds the libFuzzer targets outside SwiftPM (so `swift build` / `swift test` are untouched):
# CropGeometry and CropKit are compiled from Sources/ with coverage instrumentation
# (-sanitize=fuzzer) and AddressSanitizer, the C shim likewise, and each fuzz/targets/*.swift
# entry point is linked against them with libFuzzer's main.
#
#   fuzz/build.sh            # builds into fuzz/.build (or $FUZZ_BUILD)
#
# Targets: jobfile (JobFileLoader.load(bytes:path:)), image (SourceHeader.read +
# DecodedSource.decode on a temporary file). See docs/reliability.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="${FUZZ_BUILD:-$here/.build}"
sanitizers="${FUZZ_SANITIZERS:-fuzzer,address}"
mkdir -p "$out/modules"

cc="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang"
vips_cflags="$(pkg-config --cflags vips)"
vips_libs="$(pkg-config --libs vips) -lgmodule-2.0 $(pkg-config --libs yaml-0.1)"
clang_san="-fsanitize=${sanitizers/fuzzer/fuzzer-no-link}"

# C shim, instrumented.
shim_objects=()
for c in "$root"/Sources/CVipsShim/*.c; do
  object="$out/shim-$(basename "$c" .c).o"
  "$cc" -c -O1 -g $clang_san $vips_cflags -I"$root/Sources/CVipsShim/include" "$c" -o "$object"
  shim_objects+=("$object")
done
cat > "$out/modules/module.modulemap" <<MAP
module CVipsShim {
  umbrella "$root/Sources/CVipsShim/include"
  export *
}
MAP

swift_flags=(-O -g -sanitize="$sanitizers" -parse-as-library -swift-version 6
  -I "$out/modules" -I "$out" -Xcc -I"$root/Sources/CYAML" -I "$root/Sources/CYAML" -I "$root/Sources/CVips")
for f in $vips_cflags; do swift_flags+=(-Xcc "$f"); done

# CropGeometry, then CropKit, each one module (object file + .swiftmodule).
swiftc "${swift_flags[@]}" -module-name CropGeometry -emit-module -emit-module-path "$out/CropGeometry.swiftmodule" \
  -wmo -c -o "$out/CropGeometry.o" "$root"/Sources/CropGeometry/*.swift
mapfile -t kit < <(find "$root/Sources/CropKit" -name '*.swift' | sort)
swiftc "${swift_flags[@]}" -module-name CropKit -emit-module -emit-module-path "$out/CropKit.swiftmodule" \
  -wmo -c -o "$out/CropKit.o" "${kit[@]}"

for target in "$here"/targets/*.swift; do
  name="$(basename "$target" .swift)"
  swiftc "${swift_flags[@]}" -module-name "fuzz_$name" "$target" \
    "$out/CropKit.o" "$out/CropGeometry.o" "${shim_objects[@]}" \
    $vips_libs \
    -o "$out/fuzz-$name"
  echo "built $out/fuzz-$name"
done
