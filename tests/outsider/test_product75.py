"""product75 (tests/outsider/PLAN.md, "product75"): the parts of its items tested without
Discord: one reading of a server's names."""

from __future__ import annotations


def test_an_alias_read_by_its_core_grows_in_place_as_compiled() -> None:
    """`aliases import` grows one set line by line (`ServerAliases.add`): the rows mentions and
    prefixes read an alias's core by ("quuxer" of "the quuxer") come and go as compiling the
    set afresh would have them, in either order of an alias and one that is its core."""
    from bot.search.server_aliases import ServerAliases

    positions = {"rag": 0, "lora": 1, "dpo": 2}
    orders = [
        [("the quuxer", "rag"), ("quuxer", "lora")],
        [("quuxer", "lora"), ("the quuxer", "rag")],
        [("the quuxer", "rag"), ("a quuxer", "dpo"), ("zorb", "lora")],
        [("zorb", "lora"), ("what is blip", "dpo")],
    ]
    for lines in orders:
        grown = ServerAliases({}, positions)
        for alias, entry_id in lines:
            grown.add(alias, entry_id)
        afresh = ServerAliases(dict(lines), positions)
        for aliases in (grown, afresh):
            assert aliases.found_by == afresh.found_by, lines
            assert aliases.by_key == afresh.by_key, lines
            assert list(aliases.starting_with("")) == list(afresh.starting_with("")), lines
            assert aliases.first_words == afresh.first_words, lines
            assert len(aliases) == len(lines), lines
    assert ServerAliases(dict(orders[0]), positions).get("quuxer").entry == 1  # its own key
    assert ServerAliases(dict(orders[2]), positions).get("quuxer").text == "the quuxer"


def test_a_server_term_s_names_read_as_its_aliases_are() -> None:
    """One reading (`query.read_otherwise`) for a server's alias, title and other name: each
    is found by what search reads it as typed alone, as strongly as written; a data file's
    other name opening with an article stays a part, its other names are not read."""
    from bot.glossary.models import SERVER_SOURCE_KEY, Entry, SourceText
    from bot.search.names import NameKind, entry_names

    def entry(source: str, aliases: tuple[str, ...]) -> Entry:
        said = SourceText(source=source, local_id="z", title="Zorbler Engine", definition="Ours.")
        return Entry(
            id="z",
            title="Zorbler Engine",
            definition="Ours.",
            sources=(said,),
            category="Fundamentals",
            aliases=aliases,
        )

    server = entry(SERVER_SOURCE_KEY, ("the zorbler", "what is blip", "The ZE"))
    names = set(entry_names(server))
    assert {("zorbler", NameKind.ALIAS), ("blip", NameKind.ALIAS), ("ZE", NameKind.ALIAS)} <= names
    data = entry("test", ("the zorbler", "what is blip"))
    names = set(entry_names(data))
    assert ("zorbler", NameKind.PART) in names
    assert not any(name == "blip" for name, _ in names)
