"""Attachments given to commands and downloaded by the bot; buttons on ephemeral follow-ups."""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest

from .conftest import Scene
from .tiny_bot import TinyBot

GLOSSARY = b'[[term]]\ntitle = "KV cache"\ndefinition = "Keys and values kept."\n'


async def test_bot_reads_an_attached_file(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    upload = fake.add_attachment("terms.toml", GLOSSARY)
    handle = await fake.slash(scene.moderator, "read_file", {"file": upload}, channel=scene.channel)
    message = await handle.final_message()
    assert message["content"] == f"terms.toml: {len(GLOSSARY)} bytes of text/plain; charset=utf-8"
    async with asyncio.timeout(5):
        assert await bot.files_read.get() == GLOSSARY
    assert upload.downloads == 1
    option = handle.payload["data"]["options"][0]
    assert option == {"name": "file", "type": 11, "value": str(upload.id)}
    resolved = handle.payload["data"]["resolved"]["attachments"][str(upload.id)]
    assert {"id", "filename", "size", "url", "proxy_url", "content_type"} <= set(resolved)
    assert resolved["size"] == len(GLOSSARY)
    assert resolved["ephemeral"] is True
    assert "/ephemeral-attachments/" in resolved["url"]


async def test_a_large_file_is_served_in_chunks_and_a_bot_may_stop_early(
    scene: Scene, bot: TinyBot
) -> None:
    fake = scene.fake
    big = fake.add_attachment("huge.toml", size=50 * 1024 * 1024)
    handle = await fake.slash(scene.moderator, "read_head", {"file": big}, channel=scene.channel)
    message = await handle.final_message()
    assert message["content"] == f"{50 * 1024 * 1024} bytes: too big"
    async with asyncio.timeout(5):
        assert len(await bot.files_read.get()) == 1024
    await fake.waiter.wait_for(lambda: big.downloads == 1 or None, "the download to start")
    # The fake stopped writing once the bot hung up: far less than the file was sent.
    assert big.bytes_served < big.size // 2


async def test_download_headers_and_unknown_files(scene: Scene) -> None:
    fake = scene.fake
    image = fake.add_attachment("diagram.png", b"\x89PNG\r\n\x1a\n")
    async with aiohttp.ClientSession() as session:
        async with session.get(image.url) as response:
            assert response.status == 200
            assert response.headers["Content-Type"] == "image/png"
            assert response.headers["Content-Length"] == "8"
            assert await response.read() == b"\x89PNG\r\n\x1a\n"
        wrong_name = image.url.replace("diagram.png", "other.png")
        async with session.get(wrong_name) as response:
            assert response.status == 404
    with pytest.raises(ValueError, match="content or its size"):
        fake.add_attachment("both.txt", b"x", size=1)


async def test_a_file_the_bot_uploads_can_be_read_back(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    channel = bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(file=discord.File(io.BytesIO(GLOSSARY), "out.toml"))
    [attachment] = sent.attachments
    assert fake.attachment_bytes(fake.message(sent.id)["attachments"][0]) == GLOSSARY
    assert await attachment.read() == GLOSSARY  # discord.py downloads it from the fake


async def test_buttons_on_an_ephemeral_followup_can_be_clicked(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    handle = await fake.slash(scene.moderator, "confirm", channel=scene.channel)
    first, second = await handle.followups(2)
    assert first["flags"] & 64
    assert second["flags"] & 64
    assert first["components"][0]["components"][0]["custom_id"] == "confirm:yes"
    click = await fake.click(scene.moderator, second, "confirm:yes")
    assert (await click.response())["type"] == 7
    updated = await click.final_message()
    assert (updated["id"], updated["content"], updated["components"]) == (
        second["id"],
        "removed",
        [],
    )
    assert updated["flags"] & 64  # still only for the moderator
    pick = await fake.select(scene.moderator, first, "confirm:why", ["duplicate"])
    answer = await pick.final_message()
    assert answer["content"] == "reason: duplicate"
    assert answer["flags"] & 64
    assert pick.payload["message"]["flags"] & 64  # the click carries the ephemeral message
