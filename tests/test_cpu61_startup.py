"""What the bot's start loads (cpu61): the chart library only when a chart is drawn. Every bot
process paid pygal and the chart's module at start (~0.1-0.2 s of CPU), for `/stats` alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
import bot.discord_app.runner
print(json.dumps(sorted(sys.modules)))
"""


def test_the_bot_loads_the_chart_library_at_its_first_chart_not_at_start() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    loaded = json.loads(done.stdout)
    assert "bot.discord_app.cogs.stats" in loaded  # /stats is there, its chart not drawn yet
    assert [m for m in loaded if m.split(".")[0] == "pygal" or m == "bot.cards.chart"] == []
