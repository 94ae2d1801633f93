"""Reloading the glossary (SIGHUP, or BotState.reload) with a broken file keeps the glossary
already serving and reports the problem with its file; a good file is served at once."""

from __future__ import annotations

import logging
import shutil
import signal
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary import Glossary, bundled_data_dir
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral

from .botproc import BotProcess
from .conftest import Scene

ZEBRA = """
[[entries]]
id = "zebra-attention"
title = "Zebra Attention"
category = "Fundamentals"
definition = "A made-up attention pattern with stripes, only for the reload tests."
related = ["yak-attention"]

[[entries]]
id = "yak-attention"
title = "Yak Attention"
category = "Fundamentals"
definition = "Another made-up attention pattern, with more hair, only for the reload tests."
"""
ZEBRA_ONLY = ZEBRA.split("[[entries]]")[1].replace('related = ["yak-attention"]', "")
ZEBRA_ONLY = "[[entries]]" + ZEBRA_ONLY

BROKEN = {
    "truncated JSON": ("llm-studio-topics.json", lambda raw: raw[: len(raw) // 2]),
    "wrong types": (
        "extra.toml",
        lambda raw: raw.replace(b'title = "Yak Attention"', b"title = 5"),
    ),
    "duplicate ids": (
        "extra.toml",
        lambda raw: raw.replace(b'"yak-attention"\ntitle', b'"zebra-attention"\ntitle'),
    ),
}


def glossary_files(tmp_path: Path) -> tuple[Path, Path]:
    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir(), data)
    for file in data.iterdir():
        file.chmod(0o644)  # the bundled files kept verbatim are read-only
    extra = tmp_path / "extra.toml"
    extra.write_text(ZEBRA, encoding="utf-8")
    return data, extra


async def title_of(scene: Scene, term: str) -> str:
    _, message = await define(
        scene.fake, scene.alice, term, scene.channel
    )  # in time: the fake checks
    return str(embed_of(message)["title"]) if message["embeds"] else str(message["content"])


@pytest.mark.parametrize("broken", sorted(BROKEN))
async def test_a_broken_file_keeps_the_glossary_serving(
    scene: Scene,
    bot: GlossaryBot,
    glossary: Glossary,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    broken: str,
) -> None:
    data, extra = glossary_files(tmp_path)
    state = bot.state
    state.glossary_paths = [data, extra]
    assert state.reload() == f"reloaded {len(glossary) + 2} entries"
    assert await title_of(scene, "zebra attention") == "Zebra Attention"

    name, damage = BROKEN[broken]
    path = (data / name) if (data / name).exists() else tmp_path / name
    path.write_bytes(damage(path.read_bytes()))
    with caplog.at_level(logging.ERROR, logger="bot.discord_app.state"):
        report = state.reload()
    assert report.startswith("reload refused: ")
    assert name in report
    [logged] = [r.getMessage() for r in caplog.records if "reload refused" in r.getMessage()]
    assert f"still serving {len(glossary) + 2} entries" in logged
    assert name in logged

    assert len(state.glossary) == len(glossary) + 2
    assert await title_of(scene, "zebra attention") == "Zebra Attention"
    assert await title_of(scene, "kv cache") == "KV Cache"


async def test_an_entry_removed_by_a_reload_is_gone_politely(
    scene: Scene, bot: GlossaryBot, tmp_path: Path
) -> None:
    data, extra = glossary_files(tmp_path)
    bot.state.glossary_paths = [data, extra]
    bot.state.reload()
    _, card = await define(scene.fake, scene.alice, "zebra attention", scene.channel)
    extra.write_text(ZEBRA_ONLY, encoding="utf-8")  # Yak Attention is gone
    assert bot.state.reload().startswith("reloaded")
    click = await scene.fake.click(scene.alice, card, buttons(card)["Yak Attention"])
    message = await click.final_message()
    assert is_ephemeral(message)
    assert message["content"] == "That entry is no longer in the glossary."


async def test_sighup_reloads_and_refuses_a_broken_file(scene: Scene, tmp_path: Path) -> None:
    data, extra = glossary_files(tmp_path)
    paths = f"{data}:{extra}"
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, GLOSSARY_PATHS=paths) as bot:
        assert await title_of(scene, "yak attention") == "Yak Attention"
        serving = int(
            (await bot.wait_for_output(r"serving \d+ entries")).split("serving ")[1].split()[0]
        )

        extra.write_text(ZEBRA[: len(ZEBRA) // 2], encoding="utf-8")  # saved half-way
        bot.send_signal(signal.SIGHUP)
        refused = await bot.wait_for_output(r"glossary reload refused")
        assert f"still serving {serving} entries" in refused
        assert "extra.toml" in bot.output.split("glossary reload refused", 1)[1]
        assert await title_of(scene, "yak attention") == "Yak Attention"

        extra.write_text(ZEBRA_ONLY, encoding="utf-8")
        bot.send_signal(signal.SIGHUP)
        await bot.wait_for_output(rf"glossary reloaded: {serving - 1} entries")
        assert await title_of(scene, "yak attention") != "Yak Attention"  # gone
        assert await title_of(scene, "zebra attention") == "Zebra Attention"
        assert await bot.stop() == 0
