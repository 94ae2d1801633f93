"""The lists term answers write: the first 20 names, quoted and made safe, the rest counted."""

from __future__ import annotations

from bot.discord_app.cogs.terms import aliases_named, quoted_list


def test_a_list_names_twenty_and_counts_the_rest() -> None:
    names = [f"n{i}" for i in range(25)]
    listed = quoted_list(names)
    assert listed.startswith("“n0”, “n1”, ")
    assert listed.endswith("“n19” and 5 more")
    assert quoted_list(names[:20]).endswith("“n19”")


def test_names_are_made_safe_to_show() -> None:
    assert "@everyone" not in quoted_list(["@everyone"])


def test_aliases_say_alias_or_aliases() -> None:
    assert aliases_named(["kvc"]) == "alias “kvc”"
    assert aliases_named(["kvc", "kv"]) == "aliases “kvc”, “kv”"
