#!/usr/bin/env bash
# Container smoke test: build the image from a clean clone of this repository's HEAD and check it
# against the tests' fake Discord on the host (see test_container.py). Needs podman; on machines
# without a registry or Docker engine, ../shared/tools/container-base.sh provides both first.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
base_script=${CONTAINER_BASE_SCRIPT:-$repo/../shared/tools/container-base.sh}
if [ -f "$base_script" ]; then
  bash "$base_script"
fi
command -v podman >/dev/null || { echo "smoke: podman is not installed" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet "$repo" "$work/src"
# The Dockerfile pins its base image by digest. A base built on this machine (the stand-in above)
# has a digest of its own: build on that one, under the same name, and say so.
pinned=$(sed -n 's/^ARG PYTHON_IMAGE=//p' "$repo/Dockerfile")
base_arg=()
if ! podman image exists "$pinned" && podman image exists "${pinned%@*}"; then
  local_base="${pinned%@*}@$(podman image inspect --format '{{.Digest}}' "${pinned%@*}")"
  echo "smoke: $pinned is not here; building on the local $local_base" >&2
  base_arg=(--build-arg "PYTHON_IMAGE=$local_base")
fi
# --format docker keeps the HEALTHCHECK (the OCI format has none).
podman build --quiet --format docker "${base_arg[@]}" -t glossary-bot:smoke "$work/src" >/dev/null
echo "smoke: built glossary-bot:smoke from a clean clone of $(git -C "$repo" rev-parse --short HEAD)"

python=${PYTHON:-$repo/.venv/bin/python}
GLOSSARY_IMAGE=glossary-bot:smoke "$python" -m pytest -m container "$repo/tests/container" -q -p no:cacheprovider
