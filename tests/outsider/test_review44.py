"""Review of outsider43's merge (tests/outsider/PLAN.md, "Review of outsider43 (review44)"):
the next suggestion after a decision, the import report, another program's JSON, smart quotes
and an unreadable data file, attacked. The real bot against the fake Discord, real SQLite files,
the real command line."""

from __future__ import annotations

import contextlib
import sqlite3

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import buttons, is_ephemeral

from .conftest import Scene


async def test_a_rejection_the_database_refused_does_not_show_it_again_as_the_next(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line K1: the database file was replaced underneath the bot (writes refused until a
    database is back; reads go on from the open file). Reject answered "The suggestion could
    not be marked decided (database); it stays in the queue." and then "Next, 2 waiting:" with
    that same suggestion as the next. A failed decision now answers alone, as in a stop."""
    for member, name in ((scene.alice, "Zorb Engine"), (scene.bob, "Quux Store")):
        await store.add_suggestion(scene.guild.id, member.id, name, f"What {name} is.")
    fake = scene.fake
    review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    assert shown["embeds"][0]["title"] == "Zorb Engine"
    # The write fails as a full disk would (a real SQLite error), the reads go on.
    with contextlib.closing(sqlite3.connect(scene.db_path)) as other:
        other.execute(
            "CREATE TRIGGER full BEFORE UPDATE ON suggestions "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
        other.commit()
    rejected = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
    answer = await rejected.final_message()
    assert is_ephemeral(answer)
    assert "could not be marked decided (database); it stays in the queue" in answer["content"]
    assert "Next" not in answer["content"], answer["content"]
    assert not answer.get("embeds"), answer["embeds"]
