"""A newcomer follows the README literally (readme28): what they met, as tests.

Plan lines: tests/outsider/PLAN.md, "A newcomer follows the README (readme28)"."""

from __future__ import annotations

from pathlib import Path

from .test_round21 import _run


def test_cache_folder_written_in_env_file_is_said_to_be_unread(tmp_path: Path) -> None:
    """N1: the settings table lists GLOSSARY_CACHE_DIR ("an environment variable ...; not from
    `.env`"), so a self-hoster who copies it into `.env` had it ignored without a word: the
    cache stayed in ~/.cache. A name in `.env` that the bot does not read is one WARNING line
    at start; this one says where it is read instead. Set in the environment, it is read, and
    nothing is said."""
    (tmp_path / ".env").write_text("GLOSSARY_CACHE_DIR=/srv/cache\nLOG_LEVEL=INFO\n")
    done = _run(tmp_path)
    assert done.returncode == 2, done  # no token: stops after saying so
    warned = [line for line in done.stderr.splitlines() if "WARNING" in line]
    assert len(warned) == 1, done.stderr
    assert "GLOSSARY_CACHE_DIR in .env" in warned[0], warned
    assert "environment" in warned[0], warned

    done = _run(tmp_path, GLOSSARY_CACHE_DIR="/srv/cache")
    assert done.returncode == 2, done
    assert "WARNING" not in done.stderr, done.stderr
