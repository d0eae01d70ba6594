#!/usr/bin/env bash
# Builds cropjob's container image, localhost/cropjob:VERSION, on a machine that reaches Debian's
# package archive but no container registry: the base file system is made from Debian packages
# with mmdebstrap (--variant=minbase, docs/man/locales left out as in debian:bookworm-slim) and
# imported with `podman import`; the Containerfile then builds on it, its build stage running this
# machine's Swift toolchain (mounted read-only at /opt/swift). Nothing is pulled from a registry.
# Needs root, podman, runc, mmdebstrap (scripts/install-deps.sh --container installs them).
#
#   scripts/image.sh              # builds (reusing localhost/cropjob-base:bookworm if present)
#   scripts/image.sh --new-base   # makes the base file system again first
#   scripts/image.sh --tag        # prints the tag it builds, and nothing else
#
# Reproducible where the tools allow: SOURCE_DATE_EPOCH (default: the last commit's time) fixes
# mmdebstrap's file times and `podman build --timestamp` the image's and its files' times; apt's
# logs and caches are removed in the Containerfile. What still differs is in docs/container.md.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
version=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/CropSupport/CropKitVersion.swift)
tag="localhost/cropjob:$version"
if [ "${1:-}" = --tag ]; then
  echo "$tag"
  exit 0
fi
base=localhost/cropjob-base:bookworm
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
# Debian's runc: crun fails here on setrlimit and on a hybrid cgroup layout; rlimits at or
# below the host's.
podman=(podman --runtime runc)
limits=(--ulimit nofile=1024:1024 --ulimit nproc=1000:1000)
swift_bin=$(command -v swift) || {
  echo "image.sh: no swift on PATH (the build stage runs this machine's toolchain)" >&2
  exit 1
}
toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift_bin")")")")
start=$SECONDS

if [ "${1:-}" = --new-base ] || ! "${podman[@]}" image exists "$base"; then
  work=$(mktemp -d /tmp/cropjob-image.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  echo "image.sh: making $base with mmdebstrap (bookworm, minbase)"
  # The dpkg path excludes are the ones debian:bookworm-slim has (copyright files are kept);
  # they stay in /etc/dpkg/dpkg.cfg.d, so the Containerfile's apt-get install keeps to them too.
  # The merged-usr hook merges /usr itself, as debootstrap does: the usrmerge package would pull
  # in perl (46 MB).
  mmdebstrap --quiet --variant=minbase --mode=root --format=tar \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/lintian/*' \
    --aptopt='APT::Install-Recommends "false"' \
    bookworm "$work/base.tar" \
    "deb http://deb.debian.org/debian bookworm main" \
    "deb http://deb.debian.org/debian bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main"
  "${podman[@]}" import --change 'CMD ["/bin/bash"]' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    "$work/base.tar" "$base" > /dev/null
fi

echo "image.sh: building $tag (SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH, toolchain $toolchain)"
# The build stage's .build lives outside the image, in this checkout's .build/container, so a
# second build is incremental.
mkdir -p .build/container
"${podman[@]}" build --pull=never --network host "${limits[@]}" \
  --timestamp "$SOURCE_DATE_EPOCH" \
  --build-arg BASE="$base" --build-arg BUILDER="$base" --build-arg VERSION="$version" \
  --volume "$toolchain:/opt/swift:ro" --volume "$repo/.build/container:/src/.build" \
  --file Containerfile --tag "$tag" .
size=$("${podman[@]}" image inspect --format '{{.Size}}' "$tag")
echo "image.sh: $tag, $((size / 1048576)) MiB uncompressed, built in $((SECONDS - start)) s"
