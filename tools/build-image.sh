#!/usr/bin/env bash
# Builds the container image from a source tree the same way every time (used by `make image` and
# tests/container/smoke.sh). Usage: tools/build-image.sh SOURCE_DIR TAG [podman build options...]
# Reproducible: the image's and its files' times are the source's last commit time
# (SOURCE_DATE_EPOCH; .pyc files are checked by hash), so the same commit and lock file give the
# same layers, byte for byte (the Docker format's configuration names the build container, so the
# image IDs differ). Needs podman; on machines without a registry, ../shared/tools/container-base.sh.
set -euo pipefail
src=$1 tag=$2
shift 2
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$src" log -1 --format=%ct)}
# The Dockerfile pins its base image by digest. A base built on this machine (the shared stand-in)
# has a digest of its own: build on that one, under the same name, and say so.
pinned=$(sed -n 's/^ARG PYTHON_IMAGE=//p' "$src/Dockerfile")
base_arg=()
if ! podman image exists "$pinned" && podman image exists "${pinned%@*}"; then
  local_base="${pinned%@*}@$(podman image inspect --format '{{.Digest}}' "${pinned%@*}")"
  echo "build-image: $pinned is not here; building on the local $local_base" >&2
  base_arg=(--build-arg "PYTHON_IMAGE=$local_base")
fi
# --format docker keeps the HEALTHCHECK (the OCI format has none).
podman build --format docker --timestamp "$epoch" --build-arg "SOURCE_DATE_EPOCH=$epoch" \
  "${base_arg[@]}" -t "$tag" "$@" "$src"
