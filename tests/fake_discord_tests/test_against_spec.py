"""The fake's new rules checked against Discord's published OpenAPI spec: where both can say
it, they agree; where the fake is stricter, the case is named with the source it follows."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from tests.fake_discord import FakeDiscord
from tests.fake_discord.openapi import SPEC_PATH, spec_errors, spec_or_skip
from tests.fake_discord.validation import check_modal

from .conftest import Scene
from .test_validation import MODAL_CASES, modal, row, text_input
from .tiny_bot import TinyBot

# Cases the spec's schema cannot express or allows, with what the fake follows instead.
STRICTER_THAN_SPEC = {
    "six-inputs": "the spec allows 40 top-level components; the docs and discord.py say 5",
    "two-inputs-in-a-row": "the spec allows 5 per row; a text input is as wide as a row",
    "min-over-max": "a schema cannot compare two fields",
    "duplicate-custom-id": "a schema cannot compare two fields",
    "label-missing": "the spec lets a text input go unlabelled (a Label around it may carry "
    "the label); alone in an action row it has no label, and the docs require one there",
}


@pytest.fixture(autouse=True)
def _spec() -> None:
    spec_or_skip()


@pytest.mark.parametrize(("data", "where", "code"), MODAL_CASES)
def test_the_spec_refuses_the_modals_the_fake_refuses(
    request: pytest.FixtureRequest, data: dict[str, Any], where: str, code: str
) -> None:
    case = request.node.callspec.id
    body = {"type": 9, "data": data}
    assert check_modal(data), "the fake must refuse it"
    if case in STRICTER_THAN_SPEC:
        assert spec_errors("ModalInteractionCallbackRequest", body) == [], (
            f"the spec now refuses {case}: drop it from STRICTER_THAN_SPEC"
        )
    else:
        assert spec_errors("ModalInteractionCallbackRequest", body), f"the spec accepts {case}"


def test_the_spec_accepts_modals_at_the_limits() -> None:
    five = [
        row(text_input(f"t{i}", label="l" * 45, style=2, min_length=0, max_length=4000))
        for i in range(5)
    ]
    data = modal(*five, title="t" * 45, custom_id="c" * 100)
    assert check_modal(data) == []
    assert spec_errors("ModalInteractionCallbackRequest", {"type": 9, "data": data}) == []


async def test_modals_discord_py_sends_fit_the_spec(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    for command in ("term_add", "feedback", "modal_again"):
        handle = await fake.slash(scene.alice, command, channel=scene.channel)
        body = await handle.response()
        assert spec_errors("ModalInteractionCallbackRequest", body) == []


async def test_gateway_bot_fits_the_spec() -> None:
    async with FakeDiscord(shard_count=3, max_concurrency=2) as fake:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{fake.api_base}/gateway/bot", headers=headers) as response,
        ):
            body = await response.json()
    assert spec_errors("GatewayBotResponse", body) == []
    assert body["shards"] == 3
    assert body["session_start_limit"]["max_concurrency"] == 2


@pytest.mark.parametrize("is_global", [False, True])
async def test_the_fakes_429_fits_the_spec_and_what_discord_py_retries(is_global: bool) -> None:
    """A rate-limited interaction callback: the body and headers the spec gives a 429 (body
    RatelimitedResponse, headers ClientRatelimitedResponse's), and what discord.py needs to
    wait and retry rather than raise (a Via header, a JSON body with retry_after)."""
    route = "/interactions/{interaction_id}/{token}/callback"
    async with FakeDiscord() as fake:
        fake.fail_next("POST", route, status=429, retry_after=3.2, is_global=is_global)
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                f"{fake.api_base}/interactions/1/t/callback", json={"type": 5}
            ) as response,
        ):
            body = await response.json()
            headers = response.headers
    assert response.status == 429
    assert spec_errors("RatelimitedResponse", body) == []
    assert (body["retry_after"], body["global"]) == (3.2, is_global)
    spec = json.loads(SPEC_PATH.read_text())
    named = spec["components"]["responses"]["ClientRatelimitedResponse"]["headers"]
    assert set(named) <= set(headers), set(named) - set(headers)
    assert headers["Via"]
    assert int(headers["Retry-After"]) == 4  # whole seconds, rounded up, as Discord sends it
    assert headers["X-RateLimit-Scope"] == ("global" if is_global else "user")
    assert (headers.get("X-RateLimit-Global") == "true") is is_global


async def test_attachments_fit_the_spec(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    given = fake.add_attachment("terms.toml", b"[[term]]\n")
    assert spec_errors("AttachmentResponse", given.payload()) == []
    handle = await fake.slash(scene.moderator, "read_file", {"file": given}, channel=scene.channel)
    await handle.final_message()
    resolved = handle.payload["data"]["resolved"]["attachments"][str(given.id)]
    assert spec_errors("AttachmentResponse", resolved) == []


def test_the_fakes_guild_update_fits_the_spec() -> None:
    """GUILD_UPDATE carries the guild object (GuildResponse): outsider50 added it for a server
    renamed while the bot runs. Discord's gateway adds nothing to it; GUILD_CREATE's extra
    fields (channels, members, ...) are GUILD_CREATE's alone."""
    spec_or_skip()
    fake = FakeDiscord()
    guild = fake.add_guild("Lab")
    guild.add_text_channel("general")
    payload = guild.update_payload()
    assert spec_errors("GuildResponse", payload) == []
    assert not {"channels", "members", "joined_at"} & set(payload)
