#!/usr/bin/env bash
# One command for a fresh Debian machine: install what is missing, build cropjob, run a sample job.
#   ./scripts/bootstrap.sh
# Installs with apt-get (as root, or through sudo) only the packages that are not there yet.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh

# cropjob opens the face detector (libfacedetection, installed by install-deps.sh under
# /usr/local/lib/cropjob) only for jobs with `focus: faces`.
swift build -c release
bin=$(swift build -c release --show-bin-path)/cropjob
"$bin" --version
"$bin" run jobs/avatars.yaml
"$bin" run jobs/thumbnails.yaml
echo
echo "Outputs are in out/: e.g. out/avatars/astronaut@2x.png. The manifest is out/avatars/cropjob-manifest.json."
echo "The binary is $bin"
