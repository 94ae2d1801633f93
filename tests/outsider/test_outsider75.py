"""outsider75 (tests/outsider/PLAN.md, "outsider75"): what a member and a moderator met driving the
bot through the fake Discord as a self-hoster runs it (README's set-up in a new clone)."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import define, fields, is_ephemeral

from .conftest import Scene

MISSES = "Searches that found nothing"


async def _stats(scene: Scene) -> dict[str, str]:
    handle = await scene.fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    message = await handle.final_message()
    assert is_ephemeral(message)
    return fields(message)


async def _term_add(scene: Scene, title: str, definition: str) -> str:
    opened = await scene.fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    assert (await opened.response())["type"] == 9
    values = {"title": title, "definition": definition}
    said = await (await scene.fake.submit_modal(scene.moderator, opened, values)).final_message()
    return str(said["content"])


async def test_a_miss_a_new_term_answers_leaves_the_missed_searches(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """outsider75: a member's "blorptastic frobnicator" found nothing; a moderator added the
    term (here by `/term add`; a suggestion accepted is the same write). `/stats` still listed
    it under "Searches that found nothing", where an alias made of a miss takes it off the list
    ("None. 🎉", test_stats). A miss that opens a card now is no gap to fill: it is left out,
    and a miss still unanswered stays."""
    fake = scene.fake
    for typed in ("blorptastic frobnicator", "qwzx vorple"):
        _, missed = await define(fake, scene.alice, typed, scene.channel)
        assert missed["content"].startswith(f"No entry for “{typed}”"), missed
    assert fields_of_misses(await _stats(scene)) == {"blorptastic frobnicator", "qwzx vorple"}

    said = await _term_add(scene, "Blorptastic Frobnicator", "Our infra team's blorper.")
    assert said.startswith("Added **Blorptastic Frobnicator**"), said
    _, card = await define(fake, scene.alice, "blorptastic frobnicator", scene.channel)
    assert card["embeds"][0]["title"] == "Blorptastic Frobnicator", card

    assert fields_of_misses(await _stats(scene)) == {"qwzx vorple"}


def fields_of_misses(shown: dict[str, str]) -> set[str]:
    """The missed searches a /stats field lists, by their text."""
    return {line.split("”")[0].lstrip("“") for line in shown[MISSES].splitlines()}


async def test_about_says_how_a_member_asks_for_a_missing_term(
    scene: Scene, bot: GlossaryBot
) -> None:
    """outsider75: `/glossary about`'s field "Missing a term?" began "Missing a term?" again,
    and named only the moderators' `/alias add`: a member reading it was not told of
    `/suggest` (or **Suggest it** under a "No entry"), their own way to ask."""
    handle = await scene.fake.slash(scene.alice, "glossary about", channel=scene.channel)
    hint = fields(await handle.final_message())["Missing a term?"]
    assert not hint.startswith("Missing a term?"), hint
    assert "/suggest" in hint, hint
    assert "/alias add" in hint, hint


def _terms_file(count: int, definition: bool = True) -> str:
    said = 'definition = "One of our widgets."\n' if definition else ""
    return "\n".join(
        f'[[entries]]\ntitle = "Quxwidget {n}"\ncategory = "Fundamentals"\n{said}'
        for n in range(count)
    )


async def _import(scene: Scene, text: str) -> str:
    handle = await scene.fake.slash(
        scene.moderator,
        "term import",
        {"file": scene.fake.add_attachment("widgets.toml", text)},
        channel=scene.channel,
    )
    return str((await handle.final_message())["content"])


async def test_an_import_s_answer_counts_past_a_thousand_as_its_head_does(
    scene: Scene, bot: GlossaryBot
) -> None:
    """outsider75: a `/term import` of 1,500 terms answered "Imported: 1,500 added" and then
    "Added: … and 1485 more": the same answer's counts in two ways. Likewise its problems', and
    `/stats`' "1501 own terms"."""
    said = await _import(scene, _terms_file(1_020, definition=False))
    assert said.startswith("Nothing was imported: 1,020 problems in the file."), said[:200]
    assert said.endswith(" and 1,005 more."), said[-200:]
    said = await _import(scene, _terms_file(1_020))
    assert said.startswith("Imported: 1,020 added, 0 changed, 0 removed."), said[:200]
    assert " and 1,005 more" in said, said
    glossary = (await _stats(scene))["This server's glossary"]
    assert glossary.startswith("1,020 own terms"), glossary


async def test_stats_name_its_rolling_periods_as_what_they_count(
    scene: Scene, bot: GlossaryBot
) -> None:
    """outsider75: `/stats period:day` at 16:49 UTC was titled "Glossary lookups, today", its
    chart from 20:00 the day before: the periods are rolling windows (a server's time zone is
    unknown to the bot), and `glossary-bot stats` says "the last day". The titles now say so."""
    titles = {}
    for period in ("day", "week", "month", "all"):
        handle = await scene.fake.slash(
            scene.moderator, "stats", {"period": period}, channel=scene.channel
        )
        titles[period] = (await handle.final_message())["embeds"][0]["title"]
    handle = await scene.fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    titles["default"] = (await handle.final_message())["embeds"][0]["title"]
    assert titles == {
        "day": "Glossary lookups, the last 24 hours",
        "week": "Glossary lookups, the last 7 days",
        "month": "Glossary lookups, the last 30 days",
        "all": "Glossary lookups, all time",
        "default": "Glossary lookups, the last 7 days",
    }
