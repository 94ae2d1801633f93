"""Leftovers of review50, review51 and readme49 (tests/outsider/PLAN.md, "Leftovers
(left50)"), each fix's test failing before it."""

from __future__ import annotations

import asyncio
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs import suggestions
from bot.discord_app.member_searches import MemberSearches
from bot.discord_app.term_drafts import Drafts
from bot.settings import Settings, load_settings
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, is_ephemeral
from tests.resilience.botproc import BotProcess

from .conftest import Scene

TERM = {
    "title": "Zorblax",
    "definition": "The team's nightly batch job that re-ranks retrieved documents.",
}


def hang_draft_reads(
    bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> asyncio.Event:
    """A restart (no draft in memory) and a database whose draft reads hang until the event."""
    bot.state.term_drafts = Drafts(lambda: bot.state.store)
    hung = asyncio.Event()
    read = store.term_draft

    async def hanging(*args: Any) -> Any:
        await hung.wait()
        return await read(*args)

    monkeypatch.setattr(store, "term_draft", hanging)
    return hung


async def test_term_edit_again_answers_in_time_while_the_database_hangs(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """review51's leftover: `/term`'s Edit again reads a kept draft back from the database
    after a restart, unbounded: a hanging database held the button past Discord's 3 s ("This
    interaction failed"), each press again. Now bounded as a suggestion's Edit again is."""
    fake = scene.fake
    opened = await fake.slash(scene.moderator, "term add", {}, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    refused = await (await fake.submit_modal(scene.moderator, opened, TERM)).final_message()
    assert "Category: choose a category" in refused["content"], refused
    hung = hang_draft_reads(bot, store, monkeypatch)
    try:
        pressed = await fake.click(scene.moderator, refused, buttons(refused)["Edit again"])
        said = await pressed.final_message()
        assert said["content"].startswith("The database did not answer in time"), said
        assert "still kept" in said["content"]
        assert is_ephemeral(said), said
    finally:
        hung.set()
    pressed = await fake.click(scene.moderator, refused, buttons(refused)["Edit again"])
    assert (await pressed.response())["type"] == 9  # the database back: the form, as typed


async def test_term_save_answers_while_the_database_hangs_its_draft_read(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The `/term` form's save read its draft (the command's options, the term edited) without
    a bound: a hanging database left the moderator's "thinking…" for ever. Now nothing is
    saved, they are told why, and what they typed is given back."""
    fake = scene.fake
    options = {"category": "Fundamentals", "acronym": "ZBX"}
    opened = await fake.slash(scene.moderator, "term add", options, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    hung = hang_draft_reads(bot, store, monkeypatch)
    try:
        said = await (await fake.submit_modal(scene.moderator, opened, TERM)).final_message()
        text = said["content"]
        assert text.startswith("Nothing was saved: the database did not answer in time"), said
        assert TERM["definition"] in text
        assert is_ephemeral(said), said
    finally:
        hung.set()
    assert await read_terms(store, scene.guild.id) == []  # not added without its options


async def test_a_suggestions_name_is_searched_off_the_event_loop_at_its_submit(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """review51's leftover: at a suggestion's submit the name's search (30-130 ms for a name
    that names nothing) ran on the event loop, before the cooldown is checked in the write:
    a raid of forged submits held every server up. It runs in `/define`'s worker now, taking
    the server's turn, as the check before the form does."""
    fake = scene.fake
    opened = await fake.slash(scene.alice, "suggest", {}, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    searched_in: list[str] = []
    search = suggestions.named_already

    def recorded(*args: Any) -> str | None:
        searched_in.append(threading.current_thread().name)
        return search(*args)

    monkeypatch.setattr(suggestions, "named_already", recorded)
    typed = {"title": "RAG", "definition": "What I think it is, in my words."}
    said = await (await fake.submit_modal(scene.alice, opened, typed)).final_message()
    assert "already in the glossary" in said["content"], said
    assert [name.startswith("define-search") for name in searched_in] == [True], searched_in
    assert await store.open_suggestions(scene.guild.id) == []


async def test_a_suggestion_submitted_while_the_servers_searches_are_full_is_not_queued(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Its name unsearched (this server's searches at their cap), a suggestion is not queued
    unchecked (it could be a name the glossary has): the member is told to try again in a
    moment, and what they typed comes back."""
    fake = scene.fake
    opened = await fake.slash(scene.alice, "suggest", {}, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    bot.state.term_searches = MemberSearches(most_waiting=0, name="define-search")
    typed = {"title": "RAG", "definition": "What I think it is, in my words."}
    said = await (await fake.submit_modal(scene.alice, opened, typed)).final_message()
    text = said["content"]
    assert text.startswith("Too many searches are waiting in this server right now"), said
    assert "Nothing was queued" in text
    assert text.endswith(f"**definition**: {typed['definition']}")
    assert is_ephemeral(said), said
    assert await store.open_suggestions(scene.guild.id) == []


ROOT = Path(__file__).resolve().parents[2]


def env_example() -> dict[str, str]:
    """.env.example's settings as shipped, empty ones included, the token filled in."""
    lines = (ROOT / ".env.example").read_text("utf-8").splitlines()
    found = dict(line.split("=", 1) for line in lines if re.match(r"[A-Z_]+=", line))
    return {**found, "DISCORD_TOKEN": "a.token.filled-in"}


def image_defaults(folder: Path) -> Path:
    """The installation defaults the Dockerfile writes into the image, as a file here."""
    dockerfile = (ROOT / "Dockerfile").read_text("utf-8")
    [written] = re.findall(r"printf '([^']*)'\s*\\\s*> /etc/glossary-bot/defaults.env", dockerfile)
    path = folder / "defaults.env"
    path.write_text(written.replace("\\n", "\n"), "utf-8")
    return path


def test_env_example_gives_the_image_its_own_database_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """readme49's leftover: `.env.example` set `DATABASE_PATH=glossary-bot.db`, which in the
    image (`--env-file`, every line an environment variable) won over the image's
    `/data/glossary-bot.db`: the file landed on the volume only through `WORKDIR /data`, and
    the log named a relative path. Left empty, it is the image's default."""
    monkeypatch.chdir(tmp_path)  # no .env here: --env-file is the environment
    monkeypatch.setitem(Settings.model_config, "env_file", (str(image_defaults(tmp_path)), ".env"))
    for name, value in env_example().items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    assert settings.database_path == Path("/data/glossary-bot.db")
    assert settings.heartbeat_path == Path("/data/glossary-bot.heartbeat")


def test_env_example_copied_to_dot_env_keeps_make_runs_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make run` with `.env` copied from `.env.example` (no image defaults): the database is
    `glossary-bot.db` in the working directory, as the README's settings table says."""
    monkeypatch.chdir(tmp_path)
    example = env_example()
    for name in example:
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text("".join(f"{k}={v}\n" for k, v in example.items()), "utf-8")
    missing = str(tmp_path / "no-installation-defaults.env")
    monkeypatch.setitem(Settings.model_config, "env_file", (missing, ".env"))
    settings = load_settings()
    assert settings.database_path == Path("glossary-bot.db")
    assert settings.heartbeat_path is None


async def test_a_relative_database_path_is_named_whole_by_the_refusal(
    scene: Scene, tmp_path: Path
) -> None:
    """readme49's leftover: the log named a relative DATABASE_PATH as given ("DATABASE_PATH=
    glossary-bot.db: another bot runs on this SQLite file"), not which file that is. It is
    named whole now, as the bot's other lines about its database name it."""
    db = tmp_path / "glossary-bot.db"
    async with BotProcess(scene.fake, db, cwd=tmp_path):
        # CLAIM_WAIT=0: refused at once
        second = BotProcess(scene.fake, Path("glossary-bot.db"), cwd=tmp_path, CLAIM_WAIT="0")
        await second.start(wait_ready=False)
        assert await second.exited(within=60) == 2, second.output
    [line] = [x for x in second.lines if "another bot runs on this SQLite file" in x]
    assert f"DATABASE_PATH={db}: another bot runs" in line, line
