"""What a fourth round of outside testing found through `glossary-bot run` and the command line
(tests/outsider/PLAN.md): a server's alias list cut mid-line at its cap with the rest out of
reach, an alias list for an unknown term claiming the server had no aliases, writes failing on a
full disk with nothing in the log, `health` green on a folder, and import answers that misled.
What a moderator sees of aliases and imports is checked on a bot in this process (a bot process
each cost ~8 s on a loaded machine; trim57b); the log, the heartbeat and the lock on its own."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, download_all, embed_of
from tests.resilience.botproc import ROOT, BotProcess, glossary_bot, import_aliases
from tests.resilience.helpers import add_alias

from .conftest import Scene


async def alias_list(scene: Scene, **options: str) -> dict[str, object]:
    handle = await scene.fake.slash(scene.moderator, "alias list", options, channel=scene.channel)
    return await handle.final_message()


async def test_a_full_servers_alias_list_shows_whole_lines_and_gives_every_alias(
    scene: Scene, start_bot: StartBot, tmp_path: Path
) -> None:
    fake = scene.fake
    rows = [
        {"guild_id": scene.guild.id, "alias": f"zq{n:04d} " + "ж" * 93, "entry_id": "rag"}
        for n in range(999)
    ]
    status, out, err = await import_aliases(rows, scene.db_path, tmp_path)
    assert status == 0, (out, err)
    async with start_bot(await Store.open(scene.db_path)):
        added = await add_alias(fake, scene.moderator, "blorptex", "kv-cache", scene.channel)
        assert added.startswith("Added"), added
        listed = await alias_list(scene)
        # All 1,000 reach the moderator, in a file when asked (product74: made on every
        # listing, it held the other servers' answers).
        every = (await download_all(fake, scene.moderator, listed)).decode("utf-8").splitlines()
    description = embed_of(listed)["description"]
    shown, _, rest = description.partition("\n\n")
    lines = shown.split("\n")
    # Every line shown is whole: the alias, its term and who added it.
    assert all(line.endswith(")") and "→" in line for line in lines), lines[-2:]
    assert "<@0>" not in description  # an imported alias has no Discord user behind it
    assert f"{1000 - len(lines):,} more" in rest, rest
    assert len(every) == 1000, every[:3]
    assert any(line.startswith("blorptex") and "KV Cache" in line for line in every)
    assert sum("zq0998 " in line for line in every) == 1


async def test_an_alias_list_for_a_term_without_aliases_says_so(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    async with start_bot(store):
        added = await add_alias(fake, scene.moderator, "blorptex", "rag", scene.channel)
        assert added.startswith("Added"), added
        for term in ("zzqx-no-such-term", "kv-cache"):
            answer = str((await alias_list(scene, term=term))["content"])
            assert "No aliases yet" not in answer, (term, answer)
        unknown = str((await alias_list(scene, term="zzqx-no-such-term"))["content"])
        assert "zzqx-no-such-term" in unknown, unknown
        assert "no term" in unknown.lower(), unknown
        kv = str((await alias_list(scene, term="kv-cache"))["content"])
        assert "KV Cache" in kv, kv
        assert "no aliases" in kv, kv


# Run the bot under a small file-size limit: the database cannot grow past it, as on a full disk.
# Python ignores SIGXFSZ, so a write past the limit fails (EFBIG) instead of killing the process.
_FILE_SIZE_LIMIT = """
import os, resource, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), int(sys.argv[1])))
os.execv(sys.argv[2], sys.argv[2:])
"""


async def test_writes_refused_by_a_full_disk_are_logged_for_the_operator(
    scene: Scene, tmp_path: Path
) -> None:
    fake = scene.fake
    limit = [sys.executable, "-c", _FILE_SIZE_LIMIT, "300000"]
    entries = "".join(
        f'[[entries]]\nid = "zt{n}"\ntitle = "Zterm {n}"\ncategory = "Fundamentals"\n'
        f'definition = "Term {n} of a big file, {"with more words " * 12}."\n\n'
        for n in range(1500)
    )
    async with BotProcess(
        fake,
        scene.db_path,
        cwd=tmp_path,
        prefix=limit,
        PYTHONDONTWRITEBYTECODE="1",  # bytecode written under the limit is cut (botproc.py)
        COOLDOWN_USES="1000",
        GLOSSARY_CACHE_DIR=str(tmp_path / "cache"),
    ) as bot:
        upload = fake.add_attachment("many.toml", entries)
        handle = await fake.slash(
            scene.moderator, "term import", {"file": upload}, channel=scene.channel
        )
        answer = str((await handle.final_message())["content"])
        assert "nothing was changed" in answer, answer
        line = await bot.wait_for_output(r"(WARNING|ERROR).*cannot write the database")
    assert str(scene.db_path) in line, line
    assert "full" in line, line
    assert "Traceback" not in bot.output
    listed = await glossary_bot(
        bot.env, tmp_path, "terms", "export", "--guild", str(scene.guild.id)
    )
    assert listed[0] == 0, listed
    assert "Zterm" not in listed[1], listed


async def test_health_refuses_a_folder_as_heartbeat(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "glossary-bot.db").write_bytes(b"")  # the folder's time is fresh
    env = {"PYTHONPATH": str(ROOT), "PATH": os.environ["PATH"], "HEARTBEAT_PATH": str(folder)}
    status, output = await glossary_bot(env, tmp_path, "health")
    assert status != 0, output
    assert output.count("\n") == 1, output
    assert "HEARTBEAT_PATH" in output, output
    assert "folder" in output, output


async def test_import_answers_say_what_is_wrong_with_the_file(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    toml = '[[entries]]\nid = "zorb"\ntitle = "Zorb"\ncategory = "Fundamentals"\ndefinition = "A zorb."\n'
    # Caps whose export fits in 1 MiB: the import cap is then its floor, 1 MiB.
    async with start_bot(store, term_caps=(100, 100_000)):  # MAX_SERVER_TERMS, ..._TERM_BYTES
        answers = {}
        for name, data in {
            "one-byte-over": b"#" * (1024 * 1024 + 1),
            "utf-16": toml.encode("utf-16"),
        }.items():
            upload = fake.add_attachment(f"{name}.toml", data)
            handle = await fake.slash(
                scene.moderator, "term import", {"file": upload}, channel=scene.channel
            )
            answers[name] = str((await handle.final_message())["content"])
        opened = await fake.slash(
            scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
        )
        modal = (await opened.response())["data"]
    over = answers["one-byte-over"]
    assert "1,048,577 bytes" in over, over
    assert "at most 1,048,576 bytes" in over, over  # 1 MiB, said in bytes beside the size
    assert "1.0 MiB" not in over, over
    assert "UTF-8" in answers["utf-16"], answers
    assert "binary" not in answers["utf-16"], answers
    # The form takes no more of "what it is not" than a card can show (an embed field's 1,024).
    inputs = {
        row["components"][0]["custom_id"]: row["components"][0] for row in modal["components"]
    }
    assert inputs["boundary"]["max_length"] == 1024, inputs["boundary"]


async def test_cli_terms_import_of_a_file_one_byte_over(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (1024 * 1024 + 1))
    env = {"PYTHONPATH": str(ROOT), "PATH": os.environ["PATH"], "GLOSSARY_PATHS": ""}
    # Caps whose export fits in 1 MiB: the import cap is then its floor, 1 MiB (round 8, I5).
    env |= {"MAX_SERVER_TERMS": "100", "MAX_SERVER_TERM_BYTES": "100000"}
    status, output = await glossary_bot(
        env, tmp_path, "terms", "import", str(big), "--guild", "5", "--db", str(tmp_path / "t.db")
    )
    assert status == 1, output
    assert "1,048,577 bytes" in output, output
    assert "1.0 MiB" not in output, output


async def test_run_with_a_folder_as_heartbeat_says_so_in_one_line(
    scene: Scene, tmp_path: Path
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    settings = {"HEARTBEAT_PATH": str(folder)}
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, **settings) as bot:
        line = await bot.wait_for_output(r"HEARTBEAT_PATH")
        _, card = await define(scene.fake, scene.alice, "rag", scene.channel)
        assert card["embeds"], card
        assert await bot.stop() == 0, bot.output  # the stop does not trip over the folder
    assert "ERROR" in line, line
    assert str(folder) in line, line
    assert "Traceback" not in bot.output, bot.output


async def test_a_second_bot_on_the_same_sqlite_file_refuses_to_start(
    scene: Scene, tmp_path: Path
) -> None:
    """Two bots on one file would both take every interaction (double counts, each answer
    twice attempted): the second is refused in one line naming DATABASE_PATH and the first."""
    fake = scene.fake
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with BotProcess(fake, scene.db_path, cwd=tmp_path / "a"):
        # CLAIM_WAIT=0: refused at once, not after a restart's handover (review46's to test).
        second = BotProcess(fake, scene.db_path, cwd=tmp_path / "b", CLAIM_WAIT="0")
        await second.start(wait_ready=False)
        assert await second.exited(within=60) == 2, second.output
        assert "waiting up to" not in second.output, second.output  # no wait begun
        _, card = await define(fake, scene.alice, "rag", scene.channel)
        assert card["embeds"], card
    [line] = [x for x in second.lines if x.startswith("glossary-bot:")]
    assert "DATABASE_PATH" in line, line
    assert str(scene.db_path) in line, line
    assert "pid" in line, line
    assert "Traceback" not in second.output
    # Once the first has stopped, a bot starts on the file again.
    async with BotProcess(fake, scene.db_path, cwd=tmp_path / "b"):
        _, card = await define(fake, scene.alice, "rag", scene.channel)
        assert card["embeds"], card
