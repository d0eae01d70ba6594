#!/usr/bin/env bash
# Installs the Debian packages cropjob builds and tests with, when they are missing.
#   build:  libvips-dev (pkg-config vips), libyaml-dev (pkg-config yaml-0.1), libsqlite3-dev (pkg-config
#           sqlite3), libturbojpeg0-dev (pkg-config libturbojpeg), libjpeg-dev (jpeglib.h, -ljpeg: JPEG
#           headers and outputs through libjpeg directly; libvips-dev depends on it too), pkg-config,
#           libopencv-objdetect-dev (face detector; no pkg-config file)
#   run:    opencv-data (the face cascades, for `focus: faces`)
#   tests:  libvips-tools (vips CLI), python3-pil + python3-numpy (image oracle),
#           python3-jsonschema + python3-yaml (schema checks), libimage-exiftool-perl (metadata checks),
#           sqlite3 (state database tests), python3-opencv (independent face detection check),
#           time (/usr/bin/time: peak memory of a run), graphviz (dot: the plan's DOT output parses),
#           groff-base (the generated man page renders)
set -euo pipefail
packages=(libvips-dev libyaml-dev libsqlite3-dev libturbojpeg0-dev libjpeg-dev pkg-config libopencv-objdetect-dev opencv-data
  libvips-tools python3-pil python3-numpy python3-jsonschema python3-yaml libimage-exiftool-perl sqlite3 python3-opencv
  time graphviz groff-base)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
