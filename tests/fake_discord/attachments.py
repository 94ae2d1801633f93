"""Files: attachments a user gives a command (ATTACHMENT options) and files the bot uploads,
both served over HTTP by the fake as Discord's CDN serves them.

A user's file for a slash command is an *ephemeral attachment*, as on Discord:
``{base}/ephemeral-attachments/{application_id}/{id}/{filename}?ex=..&is=..&hm=..``. A file the
bot uploads (multipart message or follow-up) is kept with its bytes and served at
``{base}/attachments/{channel_id}/{id}/{filename}``, so a test can read back what the bot sent.
Downloads answer with Content-Type and Content-Length and stream in 64 KiB chunks, so a bot may
stop reading early; each attachment counts its ``downloads`` and the ``bytes_served``.
A large file need not be held in memory: give ``size`` instead of ``content`` and the fake
serves that many bytes of a repeating text pattern.
"""

from __future__ import annotations

import mimetypes
import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from aiohttp import web

from .models import new_snowflake

# What Discord takes in one file from a bot (its `attachment_size_limit` in an interaction).
UPLOAD_LIMIT = 10 * 1024 * 1024

JSON = dict[str, Any]
CHUNK = 64 * 1024
_PATTERN = b"0123456789abcdef" * (CHUNK // 16)  # what a file given only by size is made of


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    url: str
    content_type: str
    size: int
    content: bytes | None  # None: ``size`` bytes of _PATTERN
    ephemeral: bool
    downloads: int = 0
    bytes_served: int = 0

    def payload(self) -> JSON:
        """The attachment object as Discord sends it (``resolved.attachments`` / messages)."""
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.ephemeral:
            data["ephemeral"] = True
        return data

    def data(self) -> bytes:
        """The whole file (generated for a file given by size)."""
        return b"".join(self.chunks())

    def chunks(self) -> Iterator[bytes]:
        if self.content is not None:
            for start in range(0, len(self.content), CHUNK):
                yield self.content[start : start + CHUNK]
            return
        left = self.size
        while left > 0:
            yield _PATTERN[: min(left, CHUNK)]
            left -= CHUNK


def guess_content_type(filename: str) -> str:
    """What Discord reports for a file: its MIME type, text with ``; charset=utf-8``."""
    guessed = mimetypes.guess_type(filename)[0]
    if guessed is None and filename.endswith((".toml", ".md")):
        guessed = "text/plain"  # not in every system's MIME table
    guessed = guessed or "application/octet-stream"
    return f"{guessed}; charset=utf-8" if guessed.startswith("text/") else guessed


class AttachmentStore:
    def __init__(self, base_url: Callable[[], str], application_id: int) -> None:
        self._base_url = base_url
        self._application_id = application_id
        self.files: dict[int, FakeAttachment] = {}

    def add(
        self,
        filename: str,
        content: bytes | str | None = None,
        *,
        size: int | None = None,
        content_type: str | None = None,
        channel_id: int | None = None,
    ) -> FakeAttachment:
        """A file: a user's ephemeral attachment, or (``channel_id`` given) an uploaded one."""
        if isinstance(content, str):
            content = content.encode()
        if (content is None) == (size is None):
            raise ValueError("give the file's content or its size, not both")
        attachment_id = new_snowflake()
        now = int(time.time())
        signed = f"ex={now + 86_400:x}&is={now:x}&hm={secrets.token_hex(32)}"
        where = (
            f"ephemeral-attachments/{self._application_id}"
            if channel_id is None
            else f"attachments/{channel_id}"
        )
        url = f"{self._base_url()}/{where}/{attachment_id}/{quote(filename)}?{signed}"
        attachment = FakeAttachment(
            attachment_id,
            filename,
            url,
            content_type or guess_content_type(filename),
            len(content) if content is not None else int(size or 0),
            content,
            ephemeral=channel_id is None,
        )
        self.files[attachment_id] = attachment
        return attachment

    def find(self, ref: FakeAttachment | Mapping[str, Any] | int) -> FakeAttachment:
        """An attachment by itself, its payload (as in a message's ``attachments``) or its id."""
        if isinstance(ref, FakeAttachment):
            return ref
        attachment_id = ref if isinstance(ref, int) else int(ref["id"])
        try:
            return self.files[attachment_id]
        except KeyError:
            raise ValueError(f"the fake has no attachment {attachment_id}") from None

    def routes(self) -> list[web.RouteDef]:
        async def download(request: web.Request) -> web.StreamResponse:
            attachment = self.files.get(int(request.match_info["attachment_id"]))
            if attachment is None or request.match_info["filename"] != attachment.filename:
                return web.Response(status=404, text="Not Found")
            response = web.StreamResponse(
                headers={
                    "Content-Type": attachment.content_type,
                    "Content-Length": str(attachment.size),
                }
            )
            await response.prepare(request)
            if request.method == "HEAD":
                return response
            attachment.downloads += 1
            try:
                for chunk in attachment.chunks():
                    await response.write(chunk)
                    attachment.bytes_served += len(chunk)
            except (ConnectionError, RuntimeError):
                return response  # the bot stopped reading: fine, that is what caps are for
            await response.write_eof()
            return response

        tail = "/{attachment_id}/{filename}"
        return [
            web.get("/ephemeral-attachments/{application_id}" + tail, download),
            web.get("/attachments/{channel_id}" + tail, download),
        ]
