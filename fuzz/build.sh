#!/usr/bin/env bash
# Builds the libFuzzer targets outside SwiftPM (so `swift build` / `swift test` are untouched).
# Every library target of Package.swift that the fuzz targets reach is compiled from Sources/
# with coverage instrumentation (-sanitize=fuzzer) and AddressSanitizer:
#
#   C targets    CSystem (SHA-256 through libcrypto, syncfs), CVipsShim (libvips wrappers),
#                CPixels (pixel kernels, libjpeg and libpng encoders), CFaceDetect (the loader of the face detector's library, which is not built here:
#                the fuzz targets detect no faces): every .c file, plus a module map over each
#                include/ directory
#   system libs  CVips, CTurboJPEG, CYAML, CSQLite, CCurl, CZstd: their module maps in Sources/, linked through
#                pkg-config; libjpeg and libpng, which CPixels calls directly (Package.swift's
#                linkerSettings of CPixels)
#   Swift        CropGeometry, CropSupport, CropStorage, CropSpec, CropPlan, CropImaging, CropStore,
#                CropExecute, CropPreview, CropKit (the umbrella), in dependency order, each one
#                module (object file + .swiftmodule) with one shared -package-name
#
# and each fuzz/targets/*.swift entry point (`import CropKit`) is linked against all of those
# objects with libFuzzer's main.
#
#   fuzz/build.sh            # builds into fuzz/.build (or $FUZZ_BUILD)
#
# Targets: jobfile (JobFileLoader.load(bytes:path:formats:)), image (SourceHeader.read +
# DecodedSource.decode on a temporary file). See docs/reliability.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="${FUZZ_BUILD:-$here/.build}"
sanitizers="${FUZZ_SANITIZERS:-fuzzer,address}"
# Cross-target API is `package`: every module must be compiled with the same package name.
# SwiftPM uses the package identity; any shared name works here.
package_name="cropjob"
mkdir -p "$out/modules"

cc="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang"
vips_cflags="$(pkg-config --cflags vips)"
vips_libs="$(pkg-config --libs vips) -lgmodule-2.0 $(pkg-config --libs libturbojpeg) $(pkg-config --libs libjpeg)
  $(pkg-config --libs libpng)
  $(pkg-config --libs yaml-0.1)
  $(pkg-config --libs sqlite3) $(pkg-config --libs libcurl) $(pkg-config --libs libzstd)"
clang_san="-fsanitize=${sanitizers/fuzzer/fuzzer-no-link}"

# C targets, instrumented: every .c file under the target (SwiftPM compiles them all), and a
# module map like the one SwiftPM generates for an include/ directory without its own.
c_objects=()
module_dirs=()
for target in CSystem CVipsShim CPixels CFaceDetect; do
  dir="$root/Sources/$target"
  flags=(-I"$dir/include")
  [[ "$target" == CVipsShim ]] && flags+=($vips_cflags)
  [[ "$target" == CPixels ]] && flags+=(-I"$root/Sources/CVipsShim/include" $vips_cflags)
  mapfile -t sources < <(find "$dir" -name '*.c' | sort)
  [[ ${#sources[@]} -gt 0 ]] || { echo "no C sources in $dir" >&2; exit 1; }
  for c in "${sources[@]}"; do
    relative="${c#"$dir"/}"
    object="$out/$target-${relative//\//_}.o"
    object="${object%.c.o}.o"
    "$cc" -c -O1 -g $clang_san "${flags[@]}" "$c" -o "$object"
    c_objects+=("$object")
  done
  if [[ -f "$dir/include/module.modulemap" ]]; then
    module_dirs+=("$dir/include")
  else
    mkdir -p "$out/modules/$target"
    cat > "$out/modules/$target/module.modulemap" <<MAP
module $target {
  umbrella "$dir/include"
  export *
}
MAP
    module_dirs+=("$out/modules/$target")
  fi
done

vips_libs="$vips_libs -ldl"

swift_flags=(-O -g -sanitize="$sanitizers" -parse-as-library -swift-version 6
  -package-name "$package_name" -I "$out" -I "$root/Sources/CYAML" -I "$root/Sources/CVips"
  -I "$root/Sources/CTurboJPEG" -I "$root/Sources/CSQLite" -I "$root/Sources/CCurl" -I "$root/Sources/CZstd")
for d in "${module_dirs[@]}"; do swift_flags+=(-I "$d"); done
for f in $vips_cflags; do swift_flags+=(-Xcc "$f"); done

# Swift targets in dependency order (Package.swift), each one module: object file + .swiftmodule.
swift_modules=(CropGeometry CropSupport CropStorage CropSpec CropPlan CropImaging CropStore CropExecute CropPreview CropKit)
swift_objects=()
for module in "${swift_modules[@]}"; do
  mapfile -t sources < <(find "$root/Sources/$module" -name '*.swift' | sort)
  [[ ${#sources[@]} -gt 0 ]] || { echo "no Swift sources in Sources/$module" >&2; exit 1; }
  swiftc "${swift_flags[@]}" -module-name "$module" -emit-module -emit-module-path "$out/$module.swiftmodule" \
    -wmo -c -o "$out/$module.o" "${sources[@]}"
  swift_objects+=("$out/$module.o")
done

for target in "$here"/targets/*.swift; do
  name="$(basename "$target" .swift)"
  swiftc "${swift_flags[@]}" -module-name "fuzz_$name" "$target" \
    "${swift_objects[@]}" "${c_objects[@]}" \
    $vips_libs \
    -o "$out/fuzz-$name"
  echo "built $out/fuzz-$name"
done
