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
# The containers and volumes the tests make carry this run's label (test_container.py) and go
# as this script ends, however it ends: CI stops this job when its suite fails, killing pytest
# before its own clean-up, and a detached container (its volume too) outlives its client.
export GLOSSARY_SMOKE_LABEL="glossary-smoke-run=${work##*/}"
leftovers() {
  podman ps --all --quiet --filter "label=$GLOSSARY_SMOKE_LABEL" | xargs -r podman rm --force --time 0 >/dev/null
  podman volume ls --quiet --filter "label=$GLOSSARY_SMOKE_LABEL" | xargs -r podman volume rm --force >/dev/null
}
trap 'leftovers; rm -rf "$work"' EXIT
git clone --quiet "$repo" "$work/src"
"$repo/tools/build-image.sh" "$work/src" glossary-bot:smoke --quiet >/dev/null
echo "smoke: built glossary-bot:smoke from a clean clone of $(git -C "$repo" rev-parse --short HEAD)"

python=${PYTHON:-$repo/.venv/bin/python}
GLOSSARY_IMAGE=glossary-bot:smoke "$python" -m pytest -m container "$repo/tests/container" -q -p no:cacheprovider
