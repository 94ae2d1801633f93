"""Small leftovers of round 15 (task left15), each through the real command line or the bot
against the fake Discord."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.cards.chart import _series_chart, bins, lookups_chart
from tests.discord_app.helpers import embed_of
from tests.resilience.botproc import BotProcess

from .conftest import Scene
from .test_round14 import _cli, _suggest
from .test_round14_left import ZORBLAX


def test_migrate_db_counts_one_of_a_kind_in_the_singular(tmp_path: Path) -> None:
    """`migrate-db`'s line said "1 server terms", "1 term audit entries", "1 aliases": each
    count now goes with the singular or plural it takes."""
    db, target = str(tmp_path / "g.db"), str(tmp_path / "new.db")
    assert _cli(tmp_path, "terms", "import", "-", "--guild", "5", "--db", db, stdin=ZORBLAX).stdout
    alias = [{"guild_id": 5, "alias": "qq zorbo", "entry_id": "kv-cache"}]
    added = _cli(tmp_path, "aliases", "import", "-", "--db", db, stdin=json.dumps(alias))
    assert added.returncode == 0, added.stderr
    copied = _cli(tmp_path, "migrate-db", "--from", db, "--to", target)
    assert copied.returncode == 0, copied.stderr
    assert (
        f"copied {db} to {target}: 0 lookups, 0 missed queries, 1 alias, 1 alias audit entry, "
        "1 server term, 1 term audit entry, 0 suggestions, 0 form drafts; "
        f"{target} now holds 0 lookups, 1 alias, 1 server term and 0 suggestions (checked)"
    ) in copied.stdout, copied.stdout


def test_an_hourly_chart_over_two_days_tells_the_days_apart() -> None:
    """`/stats` over the last 24 hours draws 25 hourly bars, the first and the last at the same
    hour of two days: both read "14:00". Now a chart of hours that crosses midnight puts the
    date on its labels; one within a day stays "14:00"."""
    now = datetime(2026, 12, 1, 14, 30, tzinfo=UTC)
    hours = {now - timedelta(hours=h): 1 for h in range(24)}
    day, unit = bins(hours, now - timedelta(hours=24), now)
    assert unit == "hour"
    labels = [b.label for b in day]
    assert len(set(labels)) == len(labels), labels
    assert (labels[0], labels[-1]) == ("Nov 30 14:00", "Dec 01 14:00"), labels
    today, _ = bins(hours, now.replace(hour=0, minute=0), now)
    assert [b.label for b in today][-2:] == ["13:00", "14:00"]
    svg = _series_chart(day, unit, 595, 424)
    drawn = re.findall(r'class="major">([^<]*)</text>', svg)  # the x axis's labels shown
    assert drawn[-1] == "Dec 01 14:00", drawn
    assert len(set(drawn)) == len(drawn), drawn
    png = lookups_chart(hours, [("rag", 3)], since=now - timedelta(hours=24), now=now, title="24h")
    assert png.startswith(b"\x89PNG")


async def test_an_alias_under_a_waiting_suggestions_name_accepts_it(
    scene: Scene, tmp_path: Path
) -> None:
    """A member suggested "qq zorbo"; a moderator made it this server's alias for KV Cache with
    `/alias add`: the suggestion stayed queued, where Reject would tell its member "not added"
    about a name that now opens a card. Now the alias accepts it as `/term add` does, and the
    member is told which term the name opens."""
    fake, mod = scene.fake, scene.moderator
    async with BotProcess(fake, scene.db_path, cwd=tmp_path):
        await _suggest(scene, scene.alice, "QQ Zorbo")
        added = await fake.slash(
            mod, "alias add", {"alias": "qq zorbo", "term": "kv-cache"}, channel=scene.channel
        )
        answer = str((await added.final_message())["content"])
        assert answer.startswith("Added: “qq zorbo” now opens **KV Cache**"), answer
        assert answer.endswith(
            "Also accepted 1 suggestion of that name; its member was told privately."
        ), answer
        told = (await fake.wait_for_channel_message(fake.dm_channel(scene.alice)))["content"]
        assert "“QQ Zorbo”" in told, told
        assert "another name for “KV Cache”" in told, told
        assert "`/define QQ Zorbo`" in told, told
        review = await fake.slash(mod, "term review", {}, channel=scene.channel)
        assert (await review.final_message())["content"].startswith("No suggestions are waiting")
        listed = await fake.slash(mod, "term log", {}, channel=scene.channel)
        logged = embed_of(await listed.final_message())["description"]
        assert "accepted the suggestion “QQ Zorbo”" in logged, logged
