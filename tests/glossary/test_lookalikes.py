"""Look-alike keys: equal for names a reader cannot tell apart, apart for names in other scripts
that only share a meaning."""

from __future__ import annotations

import pytest

from bot.glossary.keys import compact
from bot.glossary.lookalikes import (
    TABLE,
    LookAlikes,
    letters_alike,
    lookalike_key,
    same_name,
    skeleton,
)


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("RAG", "R\u0410G"),  # Cyrillic A
        ("RAG", "\uff32\uff21\uff27"),  # fullwidth
        ("RAG", "\u0280\u1d00\u0262"),  # small capitals
        ("LoRA", "L\u03bfRA"),  # Greek omicron
        ("ZeRO", "Z\u0435R0"),  # Cyrillic e, the digit zero
        ("LLM", "LL\u041c"),  # Cyrillic capital M
        ("LLM", "IIM"),  # capital i reads as small L
        ("MSE", "rnse"),  # "rn" reads as "m"
        ("KV cache", "kv-c\u0430che"),  # spacing and punctuation as search folds them
    ],
)
def test_look_alikes_share_a_key(name: str, other: str) -> None:
    assert lookalike_key(name) == lookalike_key(other)


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("KV cache", "\u043a\u044d\u0448"),  # кэш
        ("cache", "\u30ad\u30e3\u30c3\u30b7\u30e5"),  # キャッシュ
        ("RAG", "R\u00c0G"),  # an accent shows
        ("RAG", "RAGS"),
    ],
)
def test_names_that_differ_to_the_eye_do_not(name: str, other: str) -> None:
    assert lookalike_key(name) != lookalike_key(other)


def test_the_table_is_unicodes_with_its_source_named() -> None:
    header = TABLE.read_text(encoding="utf-8").splitlines()[0]
    assert "96f2500ec78fd96f11561d4b40237435dfece70303b1db3c0974138a333aa206" in header
    assert skeleton("\u0430") == "a"  # CYRILLIC SMALL LETTER A -> LATIN SMALL LETTER A
    assert skeleton("m") == "rn"


def test_like_names_the_holder_and_skips_the_same_spelling_and_its_own() -> None:
    index: LookAlikes[str] = LookAlikes()
    index.add("rag", ["Retrieval-Augmented Generation", "RAG"])
    index.add("mla", ["MLA", None])
    assert index.like("R\u0410G") == ("rag", "RAG")
    assert index.like("rag") is None  # the same name: another rule's business
    assert index.like("R\u0410G", apart_from=["rag"]) is None
    assert index.like("M\u0406A") == ("mla", "MLA")  # a Cyrillic capital I
    assert index.like("\u043a\u044d\u0448") is None


@pytest.mark.parametrize(
    ("held", "name"),
    [("AI", "AL"), ("MLA", "MIA"), ("MSE", "rnse"), ("modem", "modern"), ("GPT-4o", "GPT-40")],
)
def test_two_ascii_spellings_are_different_words_not_look_alikes(held: str, name: str) -> None:
    index: LookAlikes[str] = LookAlikes()
    index.add("held", [held])
    assert lookalike_key(name) == lookalike_key(held)  # the skeletons agree ...
    assert index.like(name) is None  # ... but both are typed as they read


def test_letters_alike_finds_look_alike_letters_only() -> None:
    """left53: a waiting suggestion accepted with a term written under a look-alike of its name
    (`waiting_named`): letters a reader cannot tell apart, never another number, accents or
    two ASCII spellings (which would tell a member "added" of another name)."""
    names = ["Zorblax", "GA", "MSE", "Schrödinger", "µP", "Llama 2"]
    find = letters_alike({compact(name): name for name in names})
    assert find(compact("Z\u043erblax")) == "Zorblax"  # a Cyrillic о
    assert find(compact("\u03bcP")) == "µP"  # the Greek mu for the micro sign
    for apart in ["gas", "rnse", "schrodinger", "uP", "Llama 3", "Zorblaxes", "Z\u043erblaxes"]:
        assert find(compact(apart)) is None, apart


@pytest.mark.parametrize(
    ("waiting", "added"),
    [
        ("\u03c1", "p"),  # Spearman's rho beside the p of a p-value
        ("\u03c4", "t"),  # Kendall's tau beside Student's t
        ("\u03b3", "y"),  # the discount factor gamma beside the target y
        ("\u03b1", "a"),
        ("p", "\u03c1"),
    ],
)
def test_letters_alike_leaves_a_name_written_wholly_in_another_script(
    waiting: str, added: str
) -> None:
    """review57: a name written wholly in Greek ("ρ", "τ") is a name of its own, not
    a spelling of the Latin letter it is confusable with: a member who suggested Spearman's rho
    was told "added" when a moderator added "p". Only a name mixing Latin letters with
    look-alikes of them ("Zоrblax") is another spelling."""
    assert lookalike_key(waiting) == lookalike_key(added)  # they do share a key
    find = letters_alike({compact(added): added})
    assert find(compact(waiting)) is None
    assert letters_alike({compact("Zorblax"): 1})(compact("Z\u043erblax")) == 1


def test_same_name_leaves_a_name_written_wholly_in_another_script() -> None:
    """review57: `same_name` (a member's own waiting suggestion) took "\u03c1" for their
    waiting "p" and refused it as "the same name here", though search reads them apart; a name
    mixing Latin letters with look-alikes is still the same."""
    assert not same_name("\u03c1", "p")
    assert not same_name("p", "\u03c1")
    assert not same_name("\u03c4", "t")
    assert same_name("Z\u043erblax", "Zorblax")
    assert same_name("\u03c1", "\u03c1")


def test_letters_alike_reads_a_waiting_name_as_written() -> None:
    """review58: `waiting_named` gave `find` the waiting name case-folded, and UTS #39 reads
    many capitals otherwise than their small letters: a Cyrillic "М" or a Greek "Η" in a name
    written in capitals looked like "M" and "H" to a reader and to `like`, not here. A name as
    written is read both ways; a name it does not look like stays apart ("MP" is not "µP")."""
    find = letters_alike({compact(name): name for name in ["RAM", "HTTP", "LIME", "\u00b5P"]})
    assert find("RA\u041c") == "RAM"  # a Cyrillic М
    assert find("\u0397TTP") == "HTTP"  # a Greek Η
    assert find("L\u0399ME") == "LIME"  # a Greek Ι: alike once folded to its small ι
    assert find("\u039cP") == "\u00b5P"  # a Greek capital Μ: search folds it to µ
    for apart in ["MP", "ram", "\u03c1am", "RA\u043c"]:  # small Cyrillic м is no m
        assert find(apart) is None, apart
