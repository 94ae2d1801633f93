"""Finding the terms a message names reads each name's words once per word it starts at
(mentions64), with the answers of the plain reading it replaced (`mentions_reference`, main's
function at a8a39543): generated messages and server alias sets, ordinary and hostile (long
names written over and over), give the same mentions, and so do `find_terms` and
`find_named_terms` over them. Hypothesis runs derandomised: the same inputs every run."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.glossary import load_glossary
from bot.search import SearchIndex, terms
from bot.search import index as index_module
from bot.search.names import NameTable
from bot.search.query import derived_forms, plural_variants
from bot.search.server_aliases import NO_ALIASES, ServerAliases
from tests.search import mentions_reference

PHRASE = "kv cache "
SEEDED = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Words names are made of, in the forms messages write them, and words around them: plurals,
# verb forms that name a noun ("quantized"), capitals, everyday words, Han and kana characters
# (each a word of its own), a Chinese function word, a name that is a word ("Adam").
_WORDS_TEXT = """
    kv cache caches KV Cache key value attention multi head multihead Multi-Head flash paged
    PagedAttention rag RAG retrieval augmented generation lora LoRA quantized quantization
    distilled distillation aligning alignment over refuse refusal embedded embeddings
    speculative decoding Speculative Decoding token tokens tokenizer mixture experts MoE moe
    rope RoPE model context step the a of is and in zorb lax Zorb gpt GPT transformer
    transformers adam Adam beam search top p top-k C++ C# Goodhart's law
    蒸 馏 水 的 是 注 意 力 机 制 ゲ ー ト と を ウ ェ イ キ ャ ッ シ ュ 검 색 한 국
"""
WORDS = tuple(_WORDS_TEXT.split())
# (and "Ⓐ": no word character, but a capital letter to count)
SEPARATORS = (" ", " ", " ", "", "-", ", ", ". ", "\n", "'", "“", "**", " Ⓐ ")
TOKEN = st.sampled_from(WORDS).flatmap(
    lambda w: st.sampled_from((w, w.lower(), w.upper(), w.title()))
)
MESSAGE = st.lists(st.tuples(TOKEN, st.sampled_from(SEPARATORS)), max_size=40).map(
    lambda pairs: "".join(w + s for w, s in pairs)
)
# A long name written over and over (flake63): the phrase, cut anywhere, repeated.
HOSTILE = st.builds(
    lambda phrase, cut, n: (phrase * 600)[cut : cut + n],
    st.sampled_from((PHRASE, "KV-Cache ", "multi head attention ", "蒸馏 ", "KVキャッシュと")),
    st.integers(0, 8),
    st.integers(1, 1200),
)
ALIAS = st.one_of(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join),
    st.builds(
        lambda n, tail: ((PHRASE * 12)[:n] + tail).strip(),
        st.integers(2, 100),
        st.sampled_from(("", " z", "s", " kv")),
    ),
)
ALIASES = st.dictionaries(
    ALIAS,
    st.sampled_from(("kv-cache", "rag", "lora-qlora", "training-step", "knowledge-distillation")),
    max_size=12,
)
CONTEXT = st.sampled_from((None, None, "Vision.Steps", "Workflow.Run", "Elsewhere"))


@pytest.fixture(scope="module")
def long_named() -> SearchIndex:
    """The bundled glossary and server terms titled with long runs of a name, each cut elsewhere
    (as the hostile sweep leaves a server), without meanings: names are what is read."""
    bundled = tuple(load_glossary())
    model = bundled[0]
    extra = [
        model.model_copy(
            update={
                "id": f"long-{n}",
                "title": (PHRASE * 30)[: 200 - n * 11].strip(),
                "acronym": None,
                "aliases": ((("multi head attention " * 3)[: 30 + n * 5]).strip(),),
                "match_terms": (),
            }
        )
        for n in range(12)
    ]
    # and names no run of the phrase is, cut mid-word ("... kv ca"), up to 4,000 characters:
    # flake63's sweep left a server so, and every "kv" of a message widened across them
    for n in range(6):
        extra.append(
            model.model_copy(
                update={
                    "id": f"cut-{n}",
                    "title": (PHRASE * 30)[: 9 * (27 - n) + 5],
                    "acronym": None,
                    "aliases": ((PHRASE * 500)[: 9 * (440 - n * 60) + 5],),
                    "match_terms": (),
                }
            )
        )
    # names in scripts without spaces, whose characters are words glued together ("KVキャッシュ":
    # "kv", "キ", "ャ" ... read as one word)
    for n, title in enumerate(
        ("蒸馏", "注意力机制", "ゲートウェイ", "KVキャッシュ", "RAG검색", "ゲート")
    ):
        extra.append(
            model.model_copy(
                update={
                    "id": f"script-{n}",
                    "title": title,
                    "acronym": None,
                    "aliases": (),
                    "match_terms": (),
                }
            )
        )
    return SearchIndex.build((*bundled, *extra), semantic=False)


def both(
    index: SearchIndex,
    text: str,
    server: ServerAliases,
    context: str | None,
    as_typed: bool,
    max_words: int,
) -> tuple[list[terms.Found], list[terms.Found]]:
    def read(find: object) -> list[terms.Found]:
        return find(  # type: ignore[operator, no-any-return]
            text,
            index.names,
            index.entries,
            server,
            context,
            as_typed=as_typed,
            max_words=max_words,
        )

    return read(mentions_reference.find_mentions), read(terms.find_mentions)


@SEEDED
@given(
    text=st.one_of(MESSAGE, HOSTILE, st.tuples(MESSAGE, HOSTILE, MESSAGE).map("".join)),
    aliases=ALIASES,
    context=CONTEXT,
    as_typed=st.booleans(),
    widest=st.booleans(),
)
def test_mentions_are_those_of_the_plain_reading(
    long_named: SearchIndex,
    text: str,
    aliases: dict[str, str],
    context: str | None,
    as_typed: bool,
    widest: bool,
) -> None:
    server = long_named.server_aliases(aliases)
    max_words = terms.ALL_WORDS if widest else terms.MAX_WORDS
    plain, read = both(long_named, text, server, context, as_typed, max_words)
    assert read == plain


def test_the_reading_compared_finds_names() -> None:
    """The comparison is worth something only where names are found: the hostile message finds
    the long names, widest first, and an ordinary one its acronym in any case."""
    bundled = SearchIndex.build(tuple(load_glossary()), semantic=False)
    server = bundled.server_aliases({(PHRASE * 3).strip(): "rag", "蒸馏": "knowledge-distillation"})
    plain, read = both(bundled, PHRASE * 40, server, None, False, terms.ALL_WORDS)
    # 13 times the alias (the first kept), then the two words left over: KV cache itself
    assert read == plain
    assert [(bundled.entries[f.entry].id, f.start, f.end) for f in read] == [
        ("rag", 0, 26),
        ("kv-cache", 351, 359),
    ]
    text = "we tried rag with a kv cache, then 蒸馏的 model"
    plain, read = both(bundled, text, server, None, False, terms.ALL_WORDS)
    assert read == plain
    assert [bundled.entries[f.entry].id for f in read] == [
        "rag",
        "kv-cache",
        "knowledge-distillation",
    ]
    # the same word read twice, in lower case (no acronym, as typed) and then in capitals
    text = "a rag, then RAG, then rag"
    plain, read = both(bundled, text, server, None, True, terms.MAX_WORDS)
    assert read == plain == [terms.Found(bundled.positions["rag"], 12, 15)]


def test_a_long_name_written_over_and_over_is_not_looked_up_at_every_width(
    long_named: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """flake63: 2,000 characters of "kv cache " against names that go on with it for up to
    4,000 characters; from each "kv" the reading widens across 128 words. The plain reading
    looked names up at each width of each (9,647 look-ups here; 0.5 s CPU in the sweep); now
    only where a name is near, each set of words once."""
    looked_up = []
    find = NameTable.find
    monkeypatch.setattr(
        NameTable, "find", lambda self, key: looked_up.append(key) or find(self, key)
    )
    text = (PHRASE * 300)[:2000]
    found = terms.find_mentions(
        text,
        long_named.names,
        long_named.entries,
        NO_ALIASES,
        None,
        as_typed=False,
        max_words=terms.ALL_WORDS,
    )
    # the longest names that are whole runs of the phrase, as the plain reading finds them
    assert [long_named.entries[f.entry].id for f in found] == ["long-0", "long-6"]
    assert len(looked_up) <= len(text.split()) * 2


@settings(max_examples=60, deadline=None, derandomize=True)
@given(text=st.one_of(MESSAGE, HOSTILE), aliases=ALIASES)
def test_explain_terms_answers_as_with_the_plain_reading(
    bundled_index: SearchIndex, text: str, aliases: dict[str, str]
) -> None:
    """`find_named_terms` (Explain terms, with its foreign names and off-field rule) and
    `find_terms` over this function and over the plain one."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(index_module, "find_mentions", mentions_reference.find_mentions)
        plain = (
            bundled_index.find_named_terms(text, aliases),
            bundled_index.find_terms(text, aliases),
        )
    assert (
        bundled_index.find_named_terms(text, aliases),
        bundled_index.find_terms(text, aliases),
    ) == plain


@given(
    word=st.builds(
        str.__add__,
        st.text(st.sampled_from("abcdeghilmnoprstuxyz"), max_size=12),
        st.sampled_from(
            (
                "",
                "e",
                "s",
                "es",
                "ies",
                "y",
                "ize",
                "ise",
                "ate",
                "ated",
                "ating",
                "ized",
                "izing",
                "ised",
                "ising",
                "izeing",
                "ed",
                "ing",
                "ch",
                "sh",
            )
        ),
    )
)
@settings(max_examples=500, deadline=None, derandomize=True)
def test_every_key_looked_up_for_a_key_is_near_it(word: str) -> None:
    """What lets the reading skip look-ups where no name is near (`terms._names_near`): a
    derived form and another number keep all but the word's last `_FORM_DROPS` letters and
    add at most `_FORM_ADDS`."""
    for form in (*derived_forms(word), *plural_variants(word)):
        assert form.startswith(word[: -terms._FORM_DROPS])
        assert len(form) <= len(word) + terms._FORM_ADDS


def test_a_name_is_near_only_where_it_could_be_looked_up() -> None:
    long = "kvcache" * 6
    keys = sorted(["kvcache", long, "rag", "abcdefghijkl" + "x" * 20, "abcdefghijklz"])
    assert terms._names_near(keys, "kvcaches") is True
    assert terms._names_near(keys, long[:21]) is False  # only a name far longer begins so
    assert terms._names_near(keys, long[:37]) is True  # within five letters of it
    assert terms._names_near(keys, long + "kvcachekv") is None  # none begins so
    assert terms._names_near(keys, "ra") is True
    # the first key begun so is too long, a short one comes after the long one's run
    assert terms._names_near(keys, "abcdefghijklm") is True
    assert terms._names_near(keys, "abcdefghijkl" + "x" * 9) is False  # past "...z" now
