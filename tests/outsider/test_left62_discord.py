"""left62 (PLAN.md, "Leftovers (left62)"): the last stop's product leftovers through the fake
Discord, as moderators meet them; each test failing on main 1571f2ec first."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_app.cogs import aliases
from bot.storage import Store
from tests.discord_app.conftest import StartBot

from .conftest import Scene
from .test_scale50 import toml_of

SLOW = "You're going a bit fast"
# A file the import refuses whole: an entry with no definition.
REFUSED_FILE = '[[entries]]\ntitle = "Zorbic Nothing"\ncategory = "Fundamentals"\n'


async def test_a_refused_term_command_costs_no_use_but_refusals_have_a_limit(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/alias add` and `remove` gave a refusal's use back (left61); the `/term` commands did
    not: with 2 uses a window, a moderator whose file was refused twice (a term with no
    definition) could not import the corrected one, "going a bit fast", nor try a third
    `/term edit` of a name the server does not have. Now whatever writes (or exports)
    nothing gives its use back, and refusals have the same limit of their own as `/alias`'s
    (twice the uses). The window is an hour: nothing here waits on the clock."""
    fake = scene.fake

    async def term(command: str, **options: Any) -> str:
        handle = await fake.slash(
            scene.moderator, f"term {command}", options, channel=scene.channel
        )
        return str((await handle.final_message())["content"])

    def upload(name: str, text: str) -> Any:
        return fake.add_attachment(name, text.encode())

    async with start_bot(store, cooldown=(2, 3600.0), term_caps=(1, 100_000)):
        for _ in range(3):  # nothing to export yet
            said = await term("export")
            assert said.startswith("This server has no terms yet"), said
        for _ in range(3):  # no such term to edit or remove
            said = await term("edit", term="zorbic nothing")
            assert said.startswith("This server has no term"), said
            said = await term("remove", term="zorbic nothing")
            assert said.startswith("This server has no term"), said

        for _ in range(2):
            said = await term("import", file=upload("bad.toml", REFUSED_FILE))
            assert said.startswith("Nothing was imported: 1 problem"), said
        said = await term("import", file=upload("good.toml", toml_of("Zorbic", 1)))
        assert said.startswith("Imported: 1 added"), said
        said = await term("import", file=upload("good.toml", toml_of("Zorbic", 1)))
        assert said.startswith("Nothing changed"), said  # already there
        for _ in range(3):  # at its cap of one term: no form opens
            said = await term("add")
            assert "reached its limit of 1 term" in said, said

        # The second use writes; a third is going a bit fast.
        said = await term("import", file=upload("other.toml", toml_of("Qorbic", 1)))
        assert said.startswith("Imported: 1 added, 0 changed, 1 removed"), said
        said = await term("import", file=upload("again.toml", toml_of("Xorbic", 1)))
        assert said.startswith(SLOW), said

        # Each command's refusals have a limit: four a window, twice its two uses.
        said = await term("add")  # `/term add`'s fourth refusal: still answered
        assert "reached its limit of 1 term" in said, said
        said = await term("add")
        assert said.startswith(SLOW), said
        said = await term("edit", term="zorbic nothing")  # `/term edit`'s fourth
        assert said.startswith("This server has no term"), said
        said = await term("edit", term="zorbic nothing")
        assert said.startswith(SLOW), said


async def test_an_added_alias_costs_its_use_however_its_answer_reads(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/alias add` gave the use back unless its answer began "Added: " (the step that stores
    the alias answered with text alone): an answer worded otherwise gave every alias stored
    its use back, and the moderator's writes had no limit. The step now says whether it
    stored beside what to answer; here its answers are reworded and the limit holds."""
    real = aliases._added

    async def reworded(*args: Any, **kwargs: Any) -> Any:
        answer = await real(*args, **kwargs)
        if isinstance(answer, str):  # main's text alone
            return answer.replace("Added: ", "Done: ")
        text, *rest = answer
        return (text.replace("Added: ", "Done: "), *rest)

    monkeypatch.setattr(aliases, "_added", reworded)

    async def add(alias: str, term: str) -> str:
        handle = await scene.fake.slash(
            scene.moderator, "alias add", {"alias": alias, "term": term}, channel=scene.channel
        )
        return str((await handle.final_message())["content"])

    async with start_bot(store, cooldown=(2, 3600.0)):
        for n in range(2):
            said = await add(f"zorbkv {'ab'[n]}", "kv cache")
            assert said.startswith("Done: "), said
        said = await add("zorbkv c", "kv cache")
        assert said.startswith(SLOW), said
        said = await add("kv cache", "lora")  # a refusal waits too: the window's uses are spent
        assert said.startswith(SLOW), said
