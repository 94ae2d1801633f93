"""Names inside scripts written without spaces between words (Japanese, Chinese, Thai): a Latin
name where the script changes ("とRAGを"), a name written in such a script inside a run, and
never a name inside a longer Latin word ("drag")."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex


def named(index: SearchIndex, text: str, **aliases: str) -> list[tuple[str, str]]:
    return [(m.entry_id, m.surface) for m in index.find_named_terms(text, aliases or None)]


@pytest.mark.parametrize(
    "text",
    [
        "私たちは埋め込みベクトルとRAGを使いました。",  # Japanese
        "我们在项目里用了RAG和向量数据库。",  # Chinese
        "เราใช้RAGกับเอกสารของบริษัท",  # Thai
        "RAGとは何ですか",
        "これはRAG。",
        "우리는 RAG를 사용했습니다",  # Korean spaces its words, but a particle follows unspaced
    ],
)
def test_a_latin_name_where_the_script_changes(small_index: SearchIndex, text: str) -> None:
    assert named(small_index, text) == [("rag", "RAG")]


def test_names_of_several_words_between_words_of_another_script(small_index: SearchIndex) -> None:
    assert named(small_index, "このKV cacheは大きすぎる、Speculative Decodingで速くした") == [
        ("kv-cache", "KV cache"),
        ("speculative-decoding", "Speculative Decoding"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "drag and drop",
        "the ragged edge",
        "ドラッグ&dragで移動",
        "これはraggedです",
        "ファイルをdragして",
    ],
)
def test_no_name_inside_a_longer_latin_word(small_index: SearchIndex, text: str) -> None:
    assert [entry for entry, _ in named(small_index, text)] == []


@pytest.mark.parametrize(
    ("alias", "text", "surface"),
    [
        # made-up names, which no table of the field's words in other languages holds
        ("ゾルブラックス", "私たちはゾルブラックスを使いました。", "ゾルブラックス"),
        ("佐布拉克斯", "我们的佐布拉克斯系统很慢", "佐布拉克斯"),
        ("ซอร์บแล็กซ์", "ระบบซอร์บแล็กซ์ของเราช้า", "ซอร์บแล็กซ์"),
    ],
)
def test_a_server_alias_in_a_script_without_spaces_inside_a_run(
    small_index: SearchIndex, alias: str, text: str, surface: str
) -> None:
    assert named(small_index, text, **{alias: "rag"}) == [("rag", surface)]


def test_an_alias_mixing_scripts(small_index: SearchIndex) -> None:
    text = "このKVキャッシュは大きい"
    assert named(small_index, text, **{"KVキャッシュ": "kv-cache"}) == [
        ("kv-cache", "KVキャッシュ")
    ]


def test_a_latin_alias_is_not_found_inside_a_latin_word_next_to_another_script(
    small_index: SearchIndex,
) -> None:
    assert named(small_index, "ファイルをkvcsして", kvc="kv-cache") == []
    assert named(small_index, "ファイルをkvcして", kvc="kv-cache") == [("kv-cache", "kvc")]


def test_spaced_scripts_are_read_as_before(small_index: SearchIndex) -> None:
    assert named(small_index, "استخدمنا RAG مع KV cache") == [
        ("rag", "RAG"),
        ("kv-cache", "KV cache"),
    ]
    assert named(small_index, "Chúng tôi dùng RAG và KV cache") == [
        ("rag", "RAG"),
        ("kv-cache", "KV cache"),
    ]


@pytest.mark.parametrize(
    ("alias", "text", "surface"),
    [
        # Devanagari's vowel signs (marks, not letters) are inside its words
        ("मॉडल कैश", "हमारा मॉडल कैश बहुत बड़ा है", "मॉडल कैश"),
        ("कैश", "कैश भर गया", "कैश"),
        ("கேஷ்", "எங்கள் கேஷ் பெரியது", "கேஷ்"),  # Tamil: a vowel sign and a virama
    ],
)
def test_a_server_alias_whose_letters_carry_marks(
    small_index: SearchIndex, alias: str, text: str, surface: str
) -> None:
    assert named(small_index, text, **{alias: "kv-cache"}) == [("kv-cache", surface)]


@pytest.mark.parametrize(
    ("alias", "text"),
    [
        # the price of reading words without a splitter: a two-character name inside a longer
        # Han word, a katakana name at the start of a longer katakana run
        ("蒸馏", "蒸馏水很便宜"),
        ("蒸馏", "用蒸馏水冲洗"),
        ("学习", "学习率太高了"),
        # ... and a content word on one side, a function word on the other: "蒸馏训练" may be one
        # word as "蒸馏水" is; both sides must be bounds
        ("蒸馏", "我们用蒸馏训练了小模型"),
        ("トランスフォーマー", "トランスフォーマーモデルを使う"),
    ],
)
def test_a_short_or_katakana_name_inside_a_run_of_its_script_is_not_linked(
    small_index: SearchIndex, alias: str, text: str
) -> None:
    assert named(small_index, text, **{alias: "rag"}) == []


def test_a_two_character_name_bounded_by_another_script_is_linked(small_index: SearchIndex) -> None:
    assert named(small_index, "この推論は遅い", 推論="rag") == [("rag", "推論")]
    assert named(small_index, "用RAG做推論", 推論="rag") == [("rag", "RAG")]


@pytest.mark.parametrize(
    ("alias", "text"),
    [
        # a Chinese function word beside a two-character Han name ends its word
        ("蒸馏", "什么是蒸馏？"),
        ("蒸馏", "蒸馏的原理是什么"),
        ("蒸馏", "这就是蒸馏"),
        ("蒸馏", "为什么用蒸馏？"),
        ("蒸馏", "蒸馏和量化哪个好"),
        ("蒸餾", "什麼是蒸餾？"),  # traditional
    ],
)
def test_a_two_character_han_name_beside_a_function_word_is_linked(
    small_index: SearchIndex, alias: str, text: str
) -> None:
    assert named(small_index, text, **{alias: "rag"}) == [("rag", alias)]
