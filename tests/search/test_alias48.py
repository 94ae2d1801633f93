"""Task alias48 (issue #12, "never a confident wrong card"), after review47's two findings:
"what does mt mean in raid chat" (mt: a server's alias of its term Tank) got Raid's card, a
name written only as the place it was met; "Explain terms" on "embedded systems vs
microcontrollers" listed Embeddings, which /define no longer cards.

alias48_probes.tsv and the server's texts below were written from entry titles and general
knowledge before reading the search code, any entry's text or any slice's rows. The rules:
`SearchIndex._asked_over_setting` (what is asked about decides over a name written as its
setting; a card is swapped, never made) and `SearchIndex._derived_off_field` (Explain terms
drops an everyday word's form the meaning does not rank, in a text leaning off the field).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.glossary import load_glossary
from bot.glossary.keys import normalize
from bot.search import SearchIndex, SearchResult
from bot.search.local import LocalGlossary, compile_local, with_vectors
from bot.search.query import asked_in_setting
from bot.search.semantic.term_vectors import TermVectors

from .gaming_server import GAMING, GAMING_ALIASES
from .probe_files import ProbeFile, not_the_asked_card, the_asked_card

# Failing on this branch and on main 2e47754 alike (strict: one that starts passing fails the
# suite). "tokenized" is no common English word: /define keeps it as the field's word
# (offcard47's `_writes_own_form`), and so does Explain terms; "distilled water": the meaning
# ranks Knowledge Distillation among its first ten.
STILL_CARDED = {"is a tokenized wallet safe?"}
STILL_LISTED = {
    "is a tokenized wallet safe?",
    "tokenized real estate on the blockchain",
    "the distilled water in my iron",
}
PROBES = ProbeFile("alias48_probes.tsv", STILL_CARDED)
LISTED = ProbeFile("alias48_probes.tsv", STILL_LISTED)

test_what_is_asked_about_in_a_setting_is_its_card = PROBES.test("setting", expect=the_asked_card)
test_a_word_sharing_a_stem_is_not_that_entrys_card = PROBES.test("stem", expect=not_the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"setting": 18, "stem": 10})


@pytest.mark.parametrize(("query", "asked", "written"), LISTED.params("stem"))
def test_explain_terms_lists_no_entry_a_word_only_shares_a_stem_with(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    listed = [m.entry.id for m in bundled_index.find_named_terms(query)]
    assert asked not in listed, listed


@pytest.mark.parametrize(
    ("text", "listed"),
    [  # the field's own sense of the same forms stays listed
        ("we embedded the sentences with minilm and searched by cosine", "embeddings"),
        ("the text is tokenized before the model sees it", "tokenization"),
        ("I distilled our big model into a small student", "knowledge-distillation"),
        # a tuning row's text, found after the rule was written: the meaning ranks no Alignment
        # and the text leans off the field, but "ppo" is a name only the field writes
        ("aligning on chosen-versus-rejected pairs, skipping ppo entirely", "alignment"),
    ],
)
def test_explain_terms_still_lists_a_form_in_the_fields_sense(
    bundled_index: SearchIndex, text: str, listed: str
) -> None:
    assert listed in [m.entry.id for m in bundled_index.find_named_terms(text)]


@pytest.mark.parametrize(
    ("text", "asked", "setting"),
    [
        ("what does mt mean in raid chat", "mt", "raid chat"),
        ("what's a checkpoint in pytorch", "checkpoint", "pytorch"),
        ("mt means what in raid?", "mt", "raid"),
        ("what does lora mean on the hugging face hub", "lora", "the hugging face hub"),
        ("what does mt mean", None, None),
        ("how does vllm use the kv cache", None, None),
    ],
)
def test_the_thing_asked_and_its_setting_are_read_from_the_words(
    text: str, asked: str | None, setting: str | None
) -> None:
    expected = None if asked is None else (asked, setting)
    assert asked_in_setting(normalize(text)) == expected


@pytest.fixture(scope="module")
def guild(bundled_index: SearchIndex, tmp_path_factory: pytest.TempPathFactory) -> LocalGlossary:
    assert bundled_index.semantic is not None
    vectors = TermVectors(bundled_index.semantic.encoder, Path(tmp_path_factory.mktemp("vec")))
    local = compile_local(load_glossary(), bundled_index, GAMING, GAMING_ALIASES, vectors=vectors)
    vectors.embed([text for _, text in local.texts])
    return with_vectors(local, vectors)


def _searched(guild: LocalGlossary, text: str) -> SearchResult:
    return guild.index.search(text, guild.aliases)


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("what does mt mean in raid chat", "tank"),
        ("what does mt mean on the raid team", "tank"),
        ("mt means what in raid?", "tank"),
        ("what's kiting in a raid", "kiting"),
        ("what does aggro mean in a raid", "aggro"),
        ("what does kiting mean for a tank", "kiting"),
        ("what does latency mean in raid chat", "latency"),  # a bundled name, a server setting
    ],
)
def test_a_servers_alias_or_term_asked_in_a_setting_is_its_card(
    guild: LocalGlossary, text: str, asked: str
) -> None:
    result = _searched(guild, text)
    assert result.entry is not None, result
    assert result.entry.id == guild.card_id(asked), result


@pytest.mark.parametrize(
    ("text", "asked"),
    [  # no card is no wrong card: these get none, on main as here
        ("what does threat mean in raid chat", "aggro"),
        ("what does mt mean in the gpu channel", "tank"),
    ],
)
def test_a_servers_alias_asked_in_a_setting_is_no_other_card(
    guild: LocalGlossary, text: str, asked: str
) -> None:
    result = _searched(guild, text)
    assert result.entry is None or result.entry.id == guild.card_id(asked), result


def test_the_setting_is_offered_first(guild: LocalGlossary) -> None:
    result = _searched(guild, "what does mt mean in raid chat")
    assert result.entry is not None
    assert result.entry.id == "tank"
    assert [s.id for s in result.suggestions][:1] == ["raid"]
