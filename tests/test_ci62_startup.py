"""What `glossary-bot health` loads (ci62): the container's HEALTHCHECK runs it every 30 s, and it
reads one file; it loaded discord.py and aiohttp (whose import builds two TLS contexts from the
system's certificates) for nothing, ~0.45 s of its ~0.85 s of CPU each time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
from bot.cli import main
status = main(["health"])
print(json.dumps({"status": status, "loaded": sorted(sys.modules)}))
"""


def test_health_reads_its_file_without_loading_discord(tmp_path: Path) -> None:
    (tmp_path / "beat").write_text("not a heartbeat", "utf-8")
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HEARTBEAT_PATH": "beat"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    said = json.loads(done.stdout)
    assert said["status"] == 1, done.stderr  # it read the file and judged it
    assert "is not a heartbeat the bot wrote" in done.stderr, done.stderr
    assert "bot.heartbeat" in said["loaded"]  # the reader, without the bot's writer (left64)
    assert "bot.discord_app.health" not in said["loaded"]
    assert [m for m in said["loaded"] if m.split(".")[0] in ("discord", "aiohttp")] == []
