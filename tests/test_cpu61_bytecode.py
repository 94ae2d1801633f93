"""The suite's bytecode, written once by the run (tests/cpu61_bytecode.py): the processes the
tests start import the bot without compiling it. Failed where PYTHONDONTWRITEBYTECODE is set
(this machine's environment)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# In a process of its own, as a bot process imports the bot: which of its files were compiled
# from source (importlib compiles a module only when its bytecode is missing or stale).
COMPILED = """
import importlib._bootstrap_external as loaders, json
compiled = []
source_to_code = loaders.SourceLoader.source_to_code
def counted(self, data, path, *args, **kwargs):
    compiled.append(path)
    return source_to_code(self, data, path, *args, **kwargs)
loaders.SourceLoader.source_to_code = counted
import bot.cli, bot.discord_app.runner, bot.storage.cli, bot.terms_cli
print(json.dumps(compiled))
"""


def test_a_process_the_tests_start_imports_the_bot_without_compiling_it() -> None:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", COMPILED],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    compiled = json.loads(done.stdout)
    ours = [path for path in compiled if Path(path).is_relative_to(ROOT / "bot")]
    assert ours == [], ours
    assert "bot.discord_app.runner" not in done.stderr
