"""review69 (PLAN.md, "review69"): attacks on product68's promises, written from README and
PLAN.md before reading the code they test. Refusals (README, COOLDOWN_USES: "a use refused ...
gives its use back, and such refusals have a limit of their own, twice the uses in the same
window"; PLAN.md product68 1: given back before the answer, once); a first response out by the
3 s whose verdict never comes (README, Self-hosting: "waited for up to 3 s more ... with none by
then it is counted as shown, as a stop counts an answer it cuts after its request went out").
The in-process bot against the fake Discord, on a real SQLite file."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define
from tests.discord_app.term_commands import TERM, TOML
from tests.discord_app.test_term_meaning import put_terms
from tests.fake_discord import FakeUser, InteractionHandle
from tests.resilience.helpers import query, warned

from .conftest import Scene
from .test_quote53 import _answer_to

SLOW = "You're going a bit fast"
NO_TERM = "This server has no term “no such term”"
HANG = 60.0  # a bound on a hang only
CALLBACK = ("POST", "/interactions/{interaction_id}/{token}/callback")
GIVEN_UP = "taken as shown (counted)"


class Counted(logging.Handler):
    """Set once `times` log lines holding `said` have been seen (`watching`: on the root)."""

    def __init__(self, said: str, times: int) -> None:
        super().__init__(logging.INFO)
        self.said, self.times, self.seen = said, times, 0
        self.done = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.seen += self.said in record.getMessage()
        if self.seen >= self.times:
            self.done.set()

    async def wait(self) -> None:
        await asyncio.wait_for(self.done.wait(), HANG)

    @contextlib.asynccontextmanager
    async def watching(self) -> AsyncIterator[None]:
        logging.getLogger().addHandler(self)
        try:
            yield
        finally:
            logging.getLogger().removeHandler(self)


def edit_of_no_term(scene: Scene, user: FakeUser) -> Any:
    return scene.fake.slash(user, "term edit", {"term": "no such term"}, channel=scene.channel)


async def said(handle: InteractionHandle) -> str:
    return str((await handle.final_message())["content"])


async def test_refusals_at_once_each_give_their_use_back_and_count_once(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Two refused `/term edit`s by one moderator and one by another, sent together, with 2
    uses a window (so 4 refusals): each is refused, none "going a bit fast"; then the same
    moderator's third and fourth refusals are answered (the two at once counted once each,
    their uses back), and the fifth is past the refusals' limit."""
    fake = scene.fake
    async with start_bot(store, cooldown=(2, 3600.0)):
        fake.settle_before_actions = False  # all three under way together
        try:
            handles = await asyncio.gather(
                edit_of_no_term(scene, scene.moderator),
                edit_of_no_term(scene, scene.moderator),
                edit_of_no_term(scene, scene.admin),
            )
            together = [await said(h) for h in handles]
        finally:
            fake.settle_before_actions = True
        then = [await said(await edit_of_no_term(scene, scene.moderator)) for _ in range(3)]
    assert all(text.startswith(NO_TERM) for text in together), together
    assert [text.startswith(NO_TERM) for text in then] == [True, True, False], then
    assert then[2].startswith(SLOW), then


# A 503 to an interaction's callback is tried again by discord.py (its webhook adapter: up to 5
# tries, 1 + 3 + 5 + 7 s apart), past Discord's 3 s, to be refused (10062); since limits69
# given up at the 3 s (`respond_in_time`): the faults left for tries not made are cleared.
@pytest.mark.parametrize(
    ("status", "code", "times"), [(503, 0, 5), (404, 10062, 1)], ids=["503", "10062"]
)
async def test_a_refusal_whose_answer_fails_gives_its_use_back_once_and_counts_once(
    scene: Scene, start_bot: StartBot, store: Store, status: int, code: int, times: int
) -> None:
    """1 use a window (so 2 refusals), the refusal's answer failing (Discord 503 to every try,
    or 10062: too late). One moderator retries: refused as the first (its use back: not "going a bit fast";
    counted once: not past the refusals' limit), and a third is past that limit (it was
    counted). Another, after the same failed refusal, has the use for a real edit (its form
    opens), and then not for a second (given back once only)."""
    fake = scene.fake
    term = ServerTerm(
        id="zorblax", title="Zorblax", definition=TERM["definition"], category="Fundamentals"
    )
    await put_terms(store, scene.guild.id, term)

    def edit(user: FakeUser) -> Any:
        return fake.slash(user, "term edit", {"term": "Zorblax"}, channel=scene.channel)

    async with start_bot(store, cooldown=(1, 3600.0)):
        for user in (scene.moderator, scene.admin):
            fake.fail_next(*CALLBACK, status=status, code=code, times=times)
            async with warned("no first response could be sent", HANG):
                await edit_of_no_term(scene, user)
            fake.faults.clear()
        retry = await said(await edit_of_no_term(scene, scene.moderator))
        third = await said(await edit_of_no_term(scene, scene.moderator))
        opened = await (await edit(scene.admin)).response()
        spent = await said(await edit(scene.admin))
    # a first response given up at the 3 s is not refused as too late (the 10062 case's is)
    late = {v.kind for v in fake.pop_violations()}
    assert late <= {"unknown_interaction"}, late
    assert retry.startswith(NO_TERM), retry
    assert third.startswith(SLOW), third
    assert opened["type"] == 9, opened  # the form
    assert spent.startswith(SLOW), spent


async def test_a_first_response_whose_verdict_never_comes_is_counted_once(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Two `/define`s sent 1 s before they reached the bot, both answers held by Discord (it
    took them: shown) and never released while the bot waits: after its 3 s more each is
    taken as shown, counted once, and not posted in the channel a second time."""
    fake = scene.fake
    both_given_up = Counted(GIVEN_UP, 2)
    async with start_bot(store):
        holds = [fake.hold_answer(*CALLBACK), fake.hold_answer(*CALLBACK)]
        try:
            async with warned(GIVEN_UP, HANG, logging.INFO) as lines, both_given_up.watching():
                late = await asyncio.gather(
                    *(
                        fake.slash(
                            user, "define", {"term": "kv cache"}, channel=scene.channel, held_up=1.0
                        )
                        for user in (scene.alice, scene.bob)
                    )
                )
                for hold in holds:
                    await asyncio.wait_for(hold.taken.wait(), HANG)
                await both_given_up.wait()  # not just the first (bounded by HANG)
        finally:
            for hold in holds:
                hold.release()
        shown = [await handle.final_message() for handle in late]
        await fake.settle()
    assert all(message["embeds"] for message in shown), shown
    assert not [m for m in fake.sent_messages if m.kind == "channel_message"]
    assert not [r for r in lines if r.levelno >= logging.ERROR], lines
    assert query(scene.db_path, "SELECT sum(count) FROM lookups") == [(2,)]


async def test_a_stop_while_waiting_for_the_verdict_counts_the_card_once(
    scene: Scene, start_bot: StartBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot stops while it waits for Discord's verdict on a card that went out (its answer
    held): the card is counted once (a stop counts a request that went out), nothing is posted
    in the channel, no ERROR."""
    fake = scene.fake
    caplog.set_level(logging.INFO)
    hold = fake.hold_answer(*CALLBACK)
    waiting = "waiting up to 3 s more for Discord's verdict"
    try:
        async with start_bot(store), warned(waiting, HANG, logging.INFO):
            await fake.slash(
                scene.alice, "define", {"term": "kv cache"}, channel=scene.channel, held_up=1.0
            )
            await asyncio.wait_for(hold.taken.wait(), HANG)
        # the bot has stopped here, the verdict still held (the line came before its stop)
    finally:
        hold.release()
    assert not [m for m in fake.sent_messages if m.kind == "channel_message"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert query(scene.db_path, "SELECT sum(count) FROM lookups") == [(1,)]


async def test_hostile_mentions_for_the_new_readings_are_answered(
    scene: Scene, start_bot: StartBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Mentions against product68's readings ("X/Y which", "X > Y?", a misspelt long name in a
    question): thousands of signs, more than two sides, a quote's own ">" beside one, a long
    message of misspelt words. Each gets an answer (a card, offers or "no entry"), never an
    error. Their time is bench/hostile_bench.py's (results/hostile-review69.txt)."""
    me = scene.fake.bot.mention
    misspelt = " ".join(["why is my latancy so hihg", "waht is a jailbrake in chatgtp"] * 40)
    caplog.set_level(logging.WARNING)
    async with start_bot(store):
        for said in (
            f"{me} " + "rag/" * 450 + "rag which",
            f"{me} " + "rlhf > " * 300 + "dpo?",
            f"{me} gguf/safetensors/onnx/ckpt which one",
            f"{me} rlhf > dpo > ppo?",
            f"> rlhf > dpo\n{me} which is better",
            f"{me} /which",
            f"{me} >?",
            f"{me} {misspelt[:1900]}",
        ):
            answer = await _answer_to(scene, said)
            assert answer["embeds"] or answer["content"], said[:80]
            assert "Something went wrong" not in str(answer["content"]), (said[:80], answer)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_an_import_that_wrote_keeps_its_use_and_one_that_changed_nothing_gives_it_back(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """A command that wrote is never settled as a refusal, one that wrote nothing always is:
    2 uses a window; the file imported (a use kept), the same file again (nothing to change:
    refused, its use back), a changed file imported (the second use), then "going a bit
    fast"."""
    fake = scene.fake

    async def imported(text: str) -> str:
        upload = fake.add_attachment("terms.toml", text)
        handle = await fake.slash(
            scene.moderator, "term import", {"file": upload}, channel=scene.channel
        )
        return await said(handle)

    async with start_bot(store, cooldown=(2, 3600.0)):
        first = await imported(TOML)
        same = await imported(TOML)
        changed = await imported(TOML.replace("nightly rerank job", "nightly re-rank job"))
        spent = await imported(TOML)
    assert first.startswith("Imported: 2 added"), first
    assert not same.startswith(("Imported", SLOW)), same
    assert changed.startswith("Imported: 0 added, 1 changed"), changed
    assert spent.startswith(SLOW), spent


NOT_SENT = "no first response could be sent within Discord's 3 s ("


@pytest.mark.parametrize("why", ["reached late", "10062"])
async def test_the_line_for_an_answer_posted_instead_says_what_happened(
    scene: Scene, start_bot: StartBot, store: Store, why: str
) -> None:
    """PLAN.md product68's "Left": post_instead's WARNING said "(it reached the bot late, rate
    limited, or Discord failing)" whatever happened, a 10062 too. Now it says which: reached
    the bot past the 3 s (how long after Discord sent it), or Discord's 10062 (a 429 is
    tests/resilience/test_discord_faults.py's). The public card is posted in the channel
    either way. Failed before (the one wording)."""
    fake = scene.fake
    async with start_bot(store):
        await define(fake, scene.bob, "rag", scene.channel)  # the clocks' offset, on time
        held_up = 0.0
        if why == "10062":
            fake.fail_next(*CALLBACK, status=404, code=10062)
        else:
            held_up = 3.5  # Discord sent it 3.5 s before the bot got it
        async with warned("posted in channel") as lines:
            handle = await fake.slash(
                scene.alice, "define", {"term": "kv cache"}, channel=scene.channel, held_up=held_up
            )
            await fake.wait_for_channel_message(scene.channel)
    [line] = [r.getMessage() for r in lines if NOT_SENT in r.getMessage()]
    assert line.startswith(f"interaction {handle.id} (define) by {scene.alice.id}: {NOT_SENT}"), (
        line
    )
    why_said = line.split(NOT_SENT)[1].split(")")[0]
    if why == "10062":
        assert why_said == "Discord refused it as too late, 10062", line
    else:
        assert why_said.startswith("the bot got to it 3."), line
        assert why_said.endswith(
            " s after Discord sent it: it reached the bot late, or the bot was held up"
        ), line
