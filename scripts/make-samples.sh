#!/usr/bin/env bash
# make-samples.sh — rebuild samples/: a small set of real photographs for cropjob's tests, docs and demos.
#
# Sources (downloaded, never installed; each pinned by version AND sha256):
#   Debian 12 (bookworm) packages, fetched with `apt-get download`, unpacked with `dpkg-deb -x`:
#     lomiri-wallpapers-16.04 20.04.0-2, lomiri-wallpapers-20.04 20.04.0-2, mate-backgrounds 1.26.0-1,
#     plasma-workspace-wallpapers 4:5.27.5-2
#   PyPI: scikit-image 0.25.2 (one wheel, `pip download --no-deps`, unzipped): public-domain / CC0 photos
#     in skimage/data (astronaut, camera, coffee, chelsea).
# Derivation: ImageMagick 6 (auto-orient, strip all metadata, resize-to-cover with Lanczos, gravity crop,
# rotate the pixels for the "sideways" files), then exiftool writes the few tags a sample needs:
# EXIF Orientation on the sideways/upside-down files, and a FAKE GPS position + camera make/model/serial on
# boats-gps.jpg only (so tests can check that cropjob strips metadata). Everything else carries no metadata.
# JPEG: quality 85, 4:2:0, baseline (mountains.jpg is progressive). PNG: 8-bit, no date/time chunks.
#
# Usage: scripts/make-samples.sh [OUTDIR]    (default: samples/ beside this scripts/ folder)
# Work files go to ${TMPDIR:-/tmp}/cropjob-samples (kept, so a re-run does not download again).
# Needs: apt-get (Debian bookworm sources), dpkg-deb, pip, unzip, ImageMagick 6, exiftool, libvips-tools.
# Re-running with the same tool versions gives byte-identical files (see samples/SHA256SUMS).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/../samples}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
WORK=${TMPDIR:-/tmp}/cropjob-samples
DEBS=$WORK/debs; WHEELS=$WORK/pypi; SRC=$WORK/src
IM=/usr/bin/convert-im6.q16          # the real IM6 binary (a /usr/local/bin/convert wrapper may shadow it)
[ -x "$IM" ] || IM=$(command -v convert)
export LC_ALL=C

# ---------------------------------------------------------------- pinned sources
# name | version | sha256 of the .deb
DEB_PINS="
lomiri-wallpapers-16.04     20.04.0-2  a99ff6a3bfe451e4cc0682ecb3cc82e71740626d59e4845ae34a0a0e45421eab
lomiri-wallpapers-20.04     20.04.0-2  d44e89b8473aafe64a5b678f014862dc31335aaaf18665c544d985d854f1a709
mate-backgrounds            1.26.0-1   7bf4c2209f34b4f61ba6d24c8b58c28b361e82e4b943aae6d42c030169af9e04
plasma-workspace-wallpapers 4:5.27.5-2 32cd18b71c8c938a18b3b351f217c02ac590e323caa3cf322fbb875ce8892f8b
"
SKI_VER=0.25.2
SKI_WHL=scikit_image-0.25.2-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
SKI_SHA=24cc986e1f4187a12aa319f777b36008764e856e5013666a4a83f8df083c2641

check_sha() {  # file expected
  local got; got=$(sha256sum "$1" | cut -d' ' -f1)
  if [ "$got" != "$2" ]; then echo "make-samples: sha256 mismatch for $1: got $got, want $2" >&2; exit 1; fi
}

mkdir -p "$DEBS" "$WHEELS" "$SRC"
declare -A VER
while read -r name ver sha; do
  [ -n "${name:-}" ] || continue
  VER[$name]=$ver
  deb=$(ls "$DEBS/${name}_"*.deb 2>/dev/null | head -1 || true)
  if [ -z "$deb" ]; then
    (cd "$DEBS" && apt-get download "$name=$ver")
    deb=$(ls "$DEBS/${name}_"*.deb | head -1)
  fi
  check_sha "$deb" "$sha"
  if [ ! -d "$SRC/$name" ]; then
    mkdir -p "$SRC/$name.tmp" && dpkg-deb -x "$deb" "$SRC/$name.tmp" && mv "$SRC/$name.tmp" "$SRC/$name"
  fi
done <<<"$DEB_PINS"

if [ ! -f "$WHEELS/$SKI_WHL" ]; then
  pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 --platform manylinux_2_17_x86_64 \
      -d "$WHEELS" "scikit-image==$SKI_VER"
fi
check_sha "$WHEELS/$SKI_WHL" "$SKI_SHA"
if [ ! -d "$SRC/scikit-image" ]; then
  mkdir -p "$SRC/scikit-image.tmp"
  unzip -q -o "$WHEELS/$SKI_WHL" 'skimage/data/*' -d "$SRC/scikit-image.tmp"
  mv "$SRC/scikit-image.tmp" "$SRC/scikit-image"
fi

L16=$SRC/lomiri-wallpapers-16.04/usr/share/backgrounds
L20=$SRC/lomiri-wallpapers-20.04/usr/share/backgrounds
MN=$SRC/mate-backgrounds/usr/share/backgrounds/mate/nature
PW=$SRC/plasma-workspace-wallpapers/usr/share/wallpapers
SK=$SRC/scikit-image/skimage/data

# ---------------------------------------------------------------- source table
# key | file | package | author | licence. Licences as given by each package's debian/copyright (plasma's
# per-wallpaper metadata.json says LGPLv3, debian/copyright says GPL-2+ for all files) or, for scikit-image,
# by the docstrings of skimage/data/_fetchers.py.
declare -A F PKG AUTH LIC
def() { F[$1]=$2; PKG[$1]=$3; AUTH[$1]=$4; LIC[$1]=$5; }
def astronaut "$SK/astronaut.png"    "scikit-image==$SKI_VER (PyPI)" "NASA (photo of Eileen Collins)" "Public domain"
def camera    "$SK/camera.png"       "scikit-image==$SKI_VER (PyPI)" "Lav Varshney"        "CC0-1.0"
def coffee    "$SK/coffee.png"       "scikit-image==$SKI_VER (PyPI)" "Rachel Michetti"     "CC0-1.0"
def chelsea   "$SK/chelsea.png"      "scikit-image==$SKI_VER (PyPI)" "Stefan van der Walt" "CC0-1.0"
def bridge    "$L16/Bridge_by_Sander_Klootwijk.jpg"     lomiri-wallpapers-16.04 "Sander Klootwijk"  CC-BY-SA-4.0
def picos     "$L16/picosdeeuropa_by_Aitzol_Berasategi.jpg" lomiri-wallpapers-16.04 "Aitzol Berasategi" CC-BY-4.0
def dragonfly "$L16/Dragonfly_by_Bolly.jpg"             lomiri-wallpapers-16.04 "Bolly"             CC-BY-SA-4.0
def sunset    "$L16/sunset_by_Aitzol_Berasategi.jpg"    lomiri-wallpapers-16.04 "Aitzol Berasategi" CC-BY-4.0
def kleiber   "$L20/Kleiber_by_Lukas_Baubkus.jpg"       lomiri-wallpapers-20.04 "Lukas Baubkus"     CC-BY-SA-3.0
def ladybird  "$MN/LadyBird.jpg"                        mate-backgrounds        "Charles Barbin"    GPL-2+
def evening   "$PW/EveningGlow/contents/images/2560x1600.jpg" plasma-workspace-wallpapers "Ian Hex" "GPL-2+ (metadata.json: LGPLv3)"
def kite      "$PW/Kite/contents/images/2560x1600.jpg"  plasma-workspace-wallpapers "Risto Saukonpää" "GPL-2+ (metadata.json: LGPLv3)"
def path      "$PW/Path/contents/images/2560x1600.jpg"  plasma-workspace-wallpapers "Risto Saukonpää" "GPL-2+ (metadata.json: LGPLv3)"

# ---------------------------------------------------------------- sample table
# file | source key | displayed WxH | IM gravity of the crop | EXIF orientation (- = no EXIF) | extra | what it shows
SAMPLES="
astronaut.jpg            astronaut 512x512   Center 1 -          People: astronaut Eileen Collins, head-and-shoulders portrait, flag and shuttle model behind
portrait-sideways-8.jpg  astronaut 352x512   West   8 -          People: the astronaut photo cropped to an 11:16 portrait from the left edge, face a little right of centre; stored sideways
cameraman.png            camera    512x512   Center - gray       People: man with a film camera on a tripod, subject left of centre (greyscale)
bridge.jpg               bridge    1600x900  Center 1 -          Landscape: steel cables of a bridge over a wide estuary, blue sky
mountains.jpg            picos     1600x1200 Center 1 progressive Landscape: Picos de Europa, rocky peaks, path across a meadow (progressive JPEG)
boats-gps.jpg            evening   1600x1000 Center 1 gps        Landscape: rowing boats on a lake shore at sunset; carries a FAKE GPS position and camera serial
forest-path.jpg          path      1000x1600 Center 1 -          Landscape, portrait orientation: footpath through a dark pine forest
dragonfly-sideways-6.jpg dragonfly 1200x1600 Center 6 -          Nature, portrait orientation: dragonfly on a twig among leaves, upper left of centre; stored sideways
sunset-upside-down-3.jpg sunset    1600x1067 Center 3 -          Landscape: sun low over a ridge, stone table in foreground; stored upside down
nuthatch.jpg             kleiber   1600x900  Center 1 -          Nature: small nuthatch at the edge of a tree trunk that fills the left half; blurred background
kite.jpg                 kite      1600x1000 Center 1 -          Sky with clouds and a small kite right of centre (tiny off-centre subject)
ladybird.jpg             ladybird  1600x1000 Center 1 -          Nature: ladybird on a grass blade among forget-me-nots, subject right of centre
coffee-alpha.png         coffee    600x400   Center - alpha      Cup of coffee on a saucer, wooden table; RGBA with a soft elliptical vignette as alpha
cat.png                  chelsea   451x300   Center - rgb        Chelsea the cat, close-up of the face (small RGB PNG, no alpha)
"

TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
rm -f "$OUT"/*.jpg "$OUT"/*.png "$OUT"/SHA256SUMS
ROWS=$TMP/rows.tsv; : > "$ROWS"

while read -r file key geo grav orient extra desc; do
  [ -n "${file:-}" ] || continue
  src=${F[$key]}
  w=${geo%x*}; h=${geo#*x}
  # pixels are stored so that applying the EXIF orientation shows the upright framing
  case $orient in 3) rot=180 ;; 6) rot=270 ;; 8) rot=90 ;; *) rot=0 ;; esac
  common=( "$src" -auto-orient -strip -colorspace sRGB -filter Lanczos -resize "${geo}^" -gravity "$grav"
           -extent "$geo" +repage )
  case $file in
    *.jpg)
      interlace=none; [ "$extra" = progressive ] && interlace=Plane
      "$IM" "${common[@]}" -type TrueColor -rotate "$rot" -sampling-factor 2x2,1x1,1x1 -interlace "$interlace" \
            -quality 85 "$TMP/$file"
      tags=()
      [ "$orient" != 1 ] && [ "$orient" != - ] && tags+=( -Orientation="$orient" )
      if [ "$extra" = gps ]; then   # FAKE values, for metadata-stripping tests (Mont Blanc summit; not where the photo was taken)
        tags+=( -GPSLatitude=45.832622 -GPSLatitudeRef=N -GPSLongitude=6.865175 -GPSLongitudeRef=E
                -GPSAltitude=4808 -GPSAltitudeRef=0 -Make=FakeCam -Model="FakeCam X1"
                -SerialNumber=FAKE-SERIAL-0123456789 -ExifIFD:ColorSpace=1 )
      fi
      if [ ${#tags[@]} -gt 0 ]; then exiftool -q -overwrite_original -n "${tags[@]}" "$TMP/$file"; fi
      ;;
    *.png)
      case $extra in
        gray)  post=( -colorspace Gray -type Grayscale -define png:color-type=0 ) ;;
        rgb)   post=( -type TrueColor -define png:color-type=2 ) ;;
        alpha) # soft ellipse: opaque centre, fully transparent corners, ~40 px feathered edge
               post=( \( -size "$geo" xc:black -fill white
                         -draw "ellipse $((w/2)),$((h/2)) $((w*45/100)),$((h*45/100)) 0,360" -blur 0x20 \)
                      -alpha off -compose CopyOpacity -composite -type TrueColorAlpha -define png:color-type=6 ) ;;
      esac
      "$IM" "${common[@]}" "${post[@]}" -depth 8 -define png:exclude-chunks=date,time,bKGD -quality 95 "$TMP/$file"
      ;;
  esac
  mv "$TMP/$file" "$OUT/$file"
  sw=$(vipsheader -f width "$OUT/$file"); sh=$(vipsheader -f height "$OUT/$file")
  bands=$(vipsheader -f bands "$OUT/$file")
  o=$(exiftool -s3 -n -Orientation "$OUT/$file"); o=${o:--}
  srcrel=${src#"$SRC/"}; srcrel=${srcrel#*/}   # path inside the package
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$file" "${sw}x${sh}" "$geo" "$o" "$bands" \
    "$(stat -c %s "$OUT/$file")" "$desc" "/$srcrel" "${PKG[$key]}" "${VER[${PKG[$key]}]:-n/a}" "${AUTH[$key]}" "${LIC[$key]}" >> "$ROWS"
done <<<"$SAMPLES"

# ---------------------------------------------------------------- checks
fail=0
while IFS=$'\t' read -r file stored disp o bands bytes _; do
  # displayed size = stored size after vips autorot
  vips autorot "$OUT/$file" "$TMP/rot.v"
  got="$(vipsheader -f width "$TMP/rot.v")x$(vipsheader -f height "$TMP/rot.v")"
  [ "$got" = "$disp" ] || { echo "CHECK FAILED: $file displays as $got, want $disp" >&2; fail=1; }
  w=${stored%x*}; h=${stored#*x}; long=$(( w > h ? w : h ))
  [ "$long" -le 1600 ] || { echo "CHECK FAILED: $file long side $long > 1600" >&2; fail=1; }
done < "$ROWS"
for f in "$OUT"/*.jpg "$OUT"/*.png; do   # nothing but the intended tags survives
  case $(basename "$f") in boats-gps.jpg) continue ;; esac
  extra=$(exiftool -s -s -G1 -n -EXIF:all -XMP:all -IPTC:all -ICC_Profile:all "$f" \
          | grep -v -E '^\[(IFD0|ExifIFD)\] +(Orientation|XResolution|YResolution|ResolutionUnit|YCbCrPositioning|ExifVersion|ComponentsConfiguration|FlashpixVersion|ColorSpace)\b' || true)
  [ -z "$extra" ] || { echo "CHECK FAILED: unexpected metadata in $f:"; echo "$extra"; fail=1; } >&2
done
total=$(cat "$OUT"/*.jpg "$OUT"/*.png | wc -c)
[ "$total" -lt 6000000 ] || { echo "CHECK FAILED: samples total $total bytes >= 6,000,000" >&2; fail=1; }
[ "$fail" = 0 ] || exit 1

(cd "$OUT" && sha256sum -- *.jpg *.png > SHA256SUMS)

# ---------------------------------------------------------------- README
{
cat <<'EOF'
# samples/

Real photographs (no synthetic images) for cropjob's tests, docs and demos. Every file here is
generated by [`scripts/make-samples.sh`](../scripts/make-samples.sh) from photographs shipped in pinned
Debian 12 packages and in the scikit-image wheel on PyPI; re-running the script reproduces the files
byte for byte (see `SHA256SUMS`) with the same ImageMagick/exiftool versions.

**Licences.** The photographs keep their authors' licences (last column). Public-domain and CC0 files
need no attribution. The **CC-BY-4.0, CC-BY-SA-3.0/4.0 and GPL-2+** files require attribution (author,
licence, source, and a note that they were modified — resized, cropped, rotated, re-encoded); this README
gives it, so keep it next to the files when you copy them. CC-BY-SA/GPL also require that modified
versions be shared under the same licence. The samples are data, not part of cropjob's source code.

## Files

"Stored" is the pixel size in the file; "Displayed" is the size after the EXIF orientation is applied
(`vips autorot`). Orientation "—" means the file has no EXIF block at all (treat as 1).

| File | What it shows | Stored | Displayed | EXIF orientation | Bands | Bytes | Source file | Package (version) | Author | Licence |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
while IFS=$'\t' read -r file stored disp o bands bytes desc srcrel pkg ver auth lic; do
  [ "$o" = - ] && o="—"
  # (no field may be empty: read with IFS=tab collapses empty fields)
  case $pkg in *PyPI*) pv="$pkg" ;; *) pv="Debian \`$pkg\` $ver" ;; esac
  printf '| `%s` | %s | %s | %s | %s | %s | %s | `%s` | %s | %s | %s |\n' \
    "$file" "$desc" "$stored" "$disp" "$o" "$bands" "$bytes" "$srcrel" "$pv" "$auth" "$lic"
done < "$ROWS"
cat <<EOF

Total: $(wc -l < "$ROWS") files, $total bytes.

## What each file is for

- **Orientation:** \`dragonfly-sideways-6.jpg\` (Orientation 6) and \`portrait-sideways-8.jpg\` (Orientation 8)
  have their pixels stored rotated by 90° so that the photo is upright only once the tag is applied: stored
  landscape, displayed portrait. \`sunset-upside-down-3.jpg\` is stored upside down (Orientation 3). Every other
  JPEG is stored upright and has no EXIF block, except \`boats-gps.jpg\`, whose EXIF block has no Orientation tag.
- **Metadata stripping:** \`boats-gps.jpg\` is the only file with extra metadata, all of it FAKE: GPS
  45.832622 N, 6.865175 E, altitude 4808 m (Mont Blanc summit — not where the photo was taken), Make
  \`FakeCam\`, Model \`FakeCam X1\`, SerialNumber \`FAKE-SERIAL-0123456789\`. A cropped output of it should
  carry none of these. All other files were stripped of all metadata and colour profiles (sRGB pixels);
  where exiftool had to create an EXIF block to hold the Orientation it also wrote its mandatory tags
  (XResolution, YResolution, ResolutionUnit, YCbCrPositioning; on \`boats-gps.jpg\` also ExifVersion,
  ComponentsConfiguration, FlashpixVersion, and ColorSpace, set to 1 = sRGB).
- **Alpha:** \`coffee-alpha.png\` is RGBA (8-bit): the alpha channel is a soft ellipse (opaque centre, ~40 px
  feathered edge, fully transparent corners) applied to the real photo. Fully transparent pixels keep the photo's colours.
- **PNG without alpha:** \`cat.png\` (small 8-bit RGB) and \`cameraman.png\` (small 8-bit greyscale, 1 band).
- **People:** \`astronaut.jpg\`, \`portrait-sideways-8.jpg\`, \`cameraman.png\`.
- **Portrait orientation:** \`forest-path.jpg\` (stored upright), \`dragonfly-sideways-6.jpg\`, \`portrait-sideways-8.jpg\`.
- **Off-centre subjects** (for focus / smart-crop demos): \`kite.jpg\`
  (tiny kite right of centre), \`ladybird.jpg\` (right of centre), \`cameraman.png\` (left of centre),
  \`dragonfly-sideways-6.jpg\` (upper left once displayed),
  \`nuthatch.jpg\` (small bird beside a trunk that fills the left half).
- **Encodings:** JPEG quality 85, 4:2:0 chroma subsampling, baseline — except \`mountains.jpg\`, which is
  progressive. Long side at most 1600 px.

## How they were made

\`scripts/make-samples.sh\` (run from anywhere; writes \`samples/\`):

1. downloads, into \`\${TMPDIR:-/tmp}/cropjob-samples\`, the pinned packages — never installing them — and checks their sha256:
$(while read -r name ver sha; do [ -n "${name:-}" ] || continue; echo "   - Debian bookworm \`$name\` $ver (\`apt-get download\`, \`dpkg-deb -x\`), sha256 \`$sha\`"; done <<<"$DEB_PINS")
   - PyPI \`scikit-image==$SKI_VER\`, wheel \`$SKI_WHL\` (\`pip download --no-deps\`, unzipped), sha256 \`$SKI_SHA\`;
     the licences of its photos are in the docstrings of \`skimage/data/_fetchers.py\`
     (astronaut: "No known copyright restrictions, released into the public domain", NASA Great Images database;
     camera, coffee, chelsea: "No copyright restrictions. CC0 by the photographer");
2. for each sample, with ImageMagick 6: auto-orient, strip all metadata and profiles, convert to sRGB,
   resize to cover the target size with the Lanczos filter, crop with the listed gravity, and for the sideways
   files rotate the pixels (270° for Orientation 6, 90° for 8, 180° for 3); JPEG quality 85, 4:2:0;
   PNG 8-bit without date/time chunks (alpha: a blurred white ellipse on black, copied into the alpha channel);
3. with exiftool: writes the Orientation tag on the three rotated files and the fake GPS/camera tags on
   \`boats-gps.jpg\`;
4. checks that each file displays at the intended size after \`vips autorot\`, that no other metadata is
   left, that the long side is ≤ 1600 px and that the folder stays under 6,000,000 bytes; writes \`SHA256SUMS\`
   and this README.

Built with: $("$IM" -version | head -1 | sed -e 's/^Version: //' -e 's/ https.*//'), exiftool $(exiftool -ver), $(vips --version).
EOF
} > "$OUT/README.md"

echo "samples: $(wc -l < "$ROWS") files, $total bytes in $OUT"
cut -f1-6 "$ROWS" | column -t
