"""The Makefile's set-up: `make run` and `make test` make .venv with $(PYTHON), which must be
Python 3.11 or newer."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _python_saying(version: tuple[int, int, int], tmp_path: Path) -> Path:
    """An interpreter that reports `version` and runs `-c` code, and can do nothing else (so
    making a virtual environment with it fails, saying so)."""
    fake = tmp_path / "python-fake"
    dotted = ".".join(map(str, version))
    fake.write_text(
        "#!/bin/sh\n"
        'exec python3 -c "import sys; '
        f"sys.version_info = {(*version, 'final', 0)!r}; sys.version = '{dotted} (fake)'; "
        "exec(sys.argv[2]) if sys.argv[1:2] == ['-c'] else sys.exit('cannot make a venv')\" "
        '"$@"\n',
        encoding="utf-8",
    )
    fake.chmod(0o755)
    return fake


def _make_venv(python: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    venv = tmp_path / "venv"
    return subprocess.run(
        ["make", "-C", str(ROOT), f"{venv}/bin/glossary-bot", f"VENV={venv}", f"PYTHON={python}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_an_older_python_is_named_before_anything_is_installed(tmp_path: Path) -> None:
    """On Python 3.9 the user got a pip resolver error about the pinned versions: now one line
    naming the need and the variable that picks another interpreter."""
    done = _make_venv(_python_saying((3, 9, 2), tmp_path), tmp_path)
    assert done.returncode != 0
    assert (
        "Glossary Bot needs Python 3.11 or newer; "
        f"{tmp_path / 'python-fake'} is 3.9.2: name another with PYTHON=" in done.stderr
    ), done.stderr
    assert "cannot make a venv" not in done.stderr  # stopped before trying
    assert not (tmp_path / "venv").exists()


@pytest.mark.parametrize("version", [(3, 11, 0), (3, 13, 1)])
def test_python_311_or_newer_goes_on_to_make_the_venv(
    version: tuple[int, int, int], tmp_path: Path
) -> None:
    done = _make_venv(_python_saying(version, tmp_path), tmp_path)
    assert "needs Python" not in done.stderr, done.stderr
    assert "cannot make a venv" in done.stderr, done.stderr
