"""A server's own word that is also a chat word ("ngl", "attn", "hola") is the server's word: a
question around it opens the server's card, as a question around any alias does. Chat spelling is
read plain only where no name of this server is written (outsider round 9, S7 and S8). `/alias add`
refuses "attn" (search reads it as FlashAttention) but takes "mem", which the chat reading wrote
"memory"."""

from __future__ import annotations

import pytest

from bot.glossary import load_glossary
from bot.glossary.server_terms import ServerTerm
from bot.search.index import SearchIndex
from bot.search.local import compile_local

# Chat words of each kind plain_chat rewrites: fillers dropped, a foreign greeting dropped, ML
# shorthand written out (to a bundled name: the wrong card), a chat spelling, stretched letters.
CHAT_ALIASES = ["ngl", "tbh", "hola", "bonjour", "attn", "mem", "idk", "wat", "whaaat"]
QUESTIONS = ["what is {}", "what is {}?", "explain {}", "whats {}", "hey, what does {} mean"]


@pytest.mark.parametrize("alias", CHAT_ALIASES)
@pytest.mark.parametrize("question", QUESTIONS)
def test_a_question_around_a_chat_word_alias_opens_its_entry(
    bundled_index: SearchIndex, alias: str, question: str
) -> None:
    result = bundled_index.search(question.format(alias), {alias: "lora-qlora"})
    assert result.entry is not None, result
    assert result.entry.id == "lora-qlora"
    assert result.query == question.format(alias)


@pytest.mark.parametrize("title", ["Mem", "Lol"])
def test_a_question_around_a_server_term_titled_like_a_chat_word_opens_it(
    bundled_index: SearchIndex, title: str
) -> None:
    term = ServerTerm(
        id="zorb-term", title=title, definition="Our team's word.", category="Fundamentals"
    )
    local = compile_local(load_glossary(), bundled_index, [term], {})
    for question in QUESTIONS:
        result = local.index.search(question.format(title.lower()), local.aliases)
        assert result.entry is not None, (question, result)
        assert result.entry.id == "zorb-term"


def test_chat_words_that_name_nothing_here_are_still_read_plain(
    bundled_index: SearchIndex,
) -> None:
    """The chat reading itself is kept where the server has no such word."""
    assert bundled_index.search("ngl wat r attn heads").entry is not None


def test_a_text_longer_than_any_message_is_read_as_far_as_a_message_goes(
    bundled_index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outsider round 9, S2: a 100,000-character line of chat (`glossary-bot search` reads any
    line) cost 10-19x an ordinary query, every chat rule reading all of it; a mention is at most
    4,000 characters, and the rules read no further (bench/hostile_bench.py times it)."""
    import bot.search.index as index_module

    read: list[int] = []

    def recorded(text: str, names: object = None) -> str:
        read.append(len(text))
        return text

    monkeypatch.setattr(index_module, "plain_chat", recorded)
    query = "ngl wat r attn heads lol " * 4000
    result = bundled_index.search(query)
    assert result.query == query
    assert read, "plain_chat was not called"
    assert max(read) <= 4000


def test_a_chat_text_compiles_the_servers_aliases_once(
    bundled_index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each chat word the rules would rewrite asks whether it is a name here; asked with the
    aliases as a plain mapping, that compiled them again per word (7.6 s for 4,000 characters
    of chat beside 1,000 aliases, during this round's own fix)."""
    import bot.search.index as index_module

    compiled: list[int] = []

    class Counted(index_module.ServerAliases):  # type: ignore[misc,name-defined]
        __slots__ = ()

        def __init__(self, *args: object, **kwargs: object) -> None:
            compiled.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(index_module, "ServerAliases", Counted)
    overlay = {f"zq{n} blorp": "rag" for n in range(20)}
    result = bundled_index.search("ngl tbh lol wat idk hola bonjour " * 20, overlay)
    assert result.status in ("match", "suggest", "none")
    assert len(compiled) <= 2  # once in `search`, at most once more in its comparison
