#!/usr/bin/env bash
# Installs the Debian packages cropjob builds and tests with, when they are missing.
#   build:  libvips-dev (pkg-config vips), libyaml-dev (pkg-config yaml-0.1), libsqlite3-dev (pkg-config
#           sqlite3), libturbojpeg0-dev (pkg-config libturbojpeg), libcurl4-openssl-dev (pkg-config libcurl:
#           the S3 storage's HTTP and SigV4 signing, Sources/CCurl), libjpeg-dev (jpeglib.h, -ljpeg: JPEG
#           headers and outputs through libjpeg directly; libvips-dev depends on it too), libpng-dev (png.h,
#           -lpng16: PNG outputs through libpng directly; libvips-dev depends on it too), libzstd-dev
#           (pkg-config libzstd: the state object kept in an s3:// output prefix, Sources/CZstd), pkg-config
#   test:   zstd (the tool: S3OutputAuthTests looks into a state object for the secret)
#   run:    libfacedetection (YuNet), for `focus: faces`: no Debian package has it, so the prebuilt
#           library from the PyPI wheel yuface 2023.5.1 (pinned by version and sha256, fetched with
#           python3-pip) is unpacked into /usr/local/lib/cropjob/yuface-2023.5.1 (the wheel's own
#           layout: the library finds its OpenMP runtime beside it). Licence: BSD-3-Clause,
#           LICENSES/libfacedetection.txt. cropjob opens it with dlopen (Sources/CFaceDetect).
#   tests:  libvips-tools (vips CLI), python3-pil + python3-numpy (image oracle),
#           python3-jsonschema + python3-yaml (schema checks), libimage-exiftool-perl (metadata checks),
#           sqlite3 (state database tests), time (/usr/bin/time: peak memory of a run), graphviz (dot:
#           the plan's DOT output parses), groff-base (the generated man page renders); the wheel's
#           Python module (yuface) is the face tests' independent caller of the same library;
#           python3-opencv + opencv-data (OpenCV's Haar cascades: the face check with another
#           detector than cropjob's, FaceOracleTests; Tests/Corpora/faces-real/propose.py);
#           libavif-bin, libheif-examples, webp, libjxl-tools (avifenc/avifdec, heif-enc/heif-convert,
#           cwebp/dwebp, cjxl: Tests/Corpora/phone-formats/make.sh, the encoders that made that corpus;
#           avifdec also decodes AVIF outputs for the SSIM oracle); python3-skimage (scikit-image's
#           structural_similarity: the oracle of encode.target's score, Tests/Oracle/ssim_oracle.py);
#           PyPI blurhash 1.1.5 and thumbhash 0.1.2 (pinned; the placeholders' independent encoders,
#           PlaceholderOracleTests), into /usr/bin/python3's site packages;
#           chromium (headless: the delivery index page loaded in a real browser, DeliveryIndexBrowserTests);
#           strace (the source files' opens counted by an observer that is not cropjob: DecodeCountTests);
#           nodejs (ThumbHash's reference JavaScript, Tests/Oracle/thumbhash_reference.js: PlaceholderRuleTests);
#           openssl (a self-signed certificate for the TLS tests, S3TLSTests);
#           PyPI moto[server] 5.2.5 (the S3 server the storage tests start on loopback) and boto3 +
#           botocore 1.44.5 (their independent S3 client), pinned, into /usr/bin/python3's site packages
#   image:  podman, buildah, runc, uidmap, containernetworking-plugins, catatonit (scripts/image.sh builds
#           the container image and .ci/indexed-job runs it; podman runs with Debian's runc), mmdebstrap
#           (the image's base file system from Debian packages: no registry is needed)
#   deploy: python3-botocore (AWS Batch's request model), PyPI kubernetes-validate 1.37.0 (pinned;
#           Kubernetes' schemas) and the Cloud Run Admin API v1 description from the PyPI wheel
#           google-api-python-client 2.187.0 (pinned by sha256, only that file is kept):
#           scripts/check-deploy.py checks deploy/ offline with them
set -euo pipefail
packages=(libvips-dev libyaml-dev libsqlite3-dev libturbojpeg0-dev libjpeg-dev libpng-dev libcurl4-openssl-dev libzstd-dev zstd
  pkg-config python3-pip
  libvips-tools python3-pil python3-numpy python3-jsonschema python3-yaml libimage-exiftool-perl sqlite3
  time graphviz groff-base python3-opencv opencv-data libavif-bin libheif-examples webp libjxl-tools
  python3-skimage chromium strace nodejs openssl podman buildah runc uidmap containernetworking-plugins catatonit mmdebstrap
  python3-botocore)
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

# libfacedetection from the PyPI wheel, pinned: fetched once, checked, unpacked; nothing is
# fetched at run time.
face_wheel=yuface-2023.5.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
face_sha256=fd03270a672da75b89809a2c999d5728ef19c6e701408a4d0bc9c00480c864a0
face_folder=/usr/local/lib/cropjob/yuface-2023.5.1
if [ "$(uname -m)" = x86_64 ] && [ ! -f "$face_folder/yuface/libfacedetection.so" ]; then
  echo "Installing libfacedetection (PyPI yuface 2023.5.1) into $face_folder"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  wheel_dir="$(mktemp -d)"
  trap 'rm -rf "$wheel_dir"' EXIT
  /usr/bin/python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 \
    --platform manylinux2014_x86_64 --dest "$wheel_dir" yuface==2023.5.1
  echo "$face_sha256  $wheel_dir/$face_wheel" | sha256sum -c --quiet
  "${sudo_cmd[@]}" mkdir -p "$face_folder"
  "${sudo_cmd[@]}" /usr/bin/python3 -m zipfile -e "$wheel_dir/$face_wheel" "$face_folder"
fi

# The placeholder tests' reference encoders, pure Python, pinned by version.
if ! /usr/bin/python3 -c "import importlib.metadata as m
assert (m.version('blurhash'), m.version('thumbhash')) == ('1.1.5', '0.1.2')" 2>/dev/null; then
  echo "Installing PyPI blurhash 1.1.5 and thumbhash 0.1.2 for /usr/bin/python3"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" /usr/bin/python3 -m pip install -q --break-system-packages blurhash==1.1.5 thumbhash==0.1.2
fi

# The storage tests' S3 server (moto in server mode) and independent client (boto3), pinned.
if ! /usr/bin/python3 -c "import importlib.metadata as m, flask, werkzeug
assert (m.version('moto'), m.version('boto3'), m.version('botocore')) == ('5.2.5', '1.44.5', '1.44.5')" 2>/dev/null; then
  echo "Installing PyPI moto[server] 5.2.5, boto3 and botocore 1.44.5 for /usr/bin/python3"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" /usr/bin/python3 -m pip install -q --break-system-packages "moto[server]==5.2.5" boto3==1.44.5 \
    botocore==1.44.5
fi

# Kubernetes' OpenAPI schemas for scripts/check-deploy.py, pinned by version.
if ! /usr/bin/python3 -c "import importlib.metadata as m
assert m.version('kubernetes-validate') == '1.37.0'" 2>/dev/null; then
  echo "Installing PyPI kubernetes-validate 1.37.0 for /usr/bin/python3"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" /usr/bin/python3 -m pip install -q --break-system-packages kubernetes-validate==1.37.0
fi

# The Cloud Run Admin API v1's discovery document (its schemas), from a pinned wheel; only that
# file is kept. Licence: Apache-2.0 (the wheel's).
gapi_wheel=google_api_python_client-2.187.0-py3-none-any.whl
gapi_sha256=d8d0f6d85d7d1d10bdab32e642312ed572bdc98919f72f831b44b9a9cebba32f
gapi_folder=/usr/local/share/cropjob/google-api-python-client-2.187.0
if [ ! -f "$gapi_folder/run.v1.json" ]; then
  echo "Installing the Cloud Run v1 API description (PyPI google-api-python-client 2.187.0) into $gapi_folder"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  gapi_dir="$(mktemp -d)"
  /usr/bin/python3 -m pip download -q --no-deps --only-binary=:all: --dest "$gapi_dir" google-api-python-client==2.187.0
  echo "$gapi_sha256  $gapi_dir/$gapi_wheel" | sha256sum -c --quiet
  "${sudo_cmd[@]}" mkdir -p "$gapi_folder"
  /usr/bin/python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
sys.stdout.buffer.write(z.read("googleapiclient/discovery_cache/documents/run.v1.json"))' "$gapi_dir/$gapi_wheel" |
    "${sudo_cmd[@]}" tee "$gapi_folder/run.v1.json" > /dev/null
  rm -rf "$gapi_dir"
fi
