"""Whole questions in another language (task "longtext"): the field's words read as English
(`bot/search/foreign.py`). Sentences written for this file, none from a relevance slice."""

from __future__ import annotations

import pytest

from bot.cards.text import how_matched
from bot.glossary import load_glossary
from bot.glossary.keys import compact
from bot.search import SearchIndex
from bot.search.chat import plain_chat
from bot.search.everyday import common_words
from bot.search.foreign import _SCRIPT, _TERMS, _literal_start, english_terms, unread_dropped
from bot.search.names import NameTable


@pytest.mark.parametrize(
    ("typed", "english"),
    [
        ("que es la cuantización de un modelo", "que es the quantization of a model"),
        ("cuantizacion", "quantization"),  # typed without its accent
        ("o que é a taxa de aprendizado", "the que é a learning rate"),
        ("was ist Überanpassung", "was ist overfitting"),
        ("임베딩이 뭔지", "embeddings 뭔지"),  # the particle goes with the word
        ("量子化とは", "quantization とは"),
        ("что такое квантизация", "что такое quantization"),
        ("destilación de conocimiento", "knowledge distillation"),  # the longer phrase first
        ("ajuste fino supervisado", "supervised fine-tuning"),
        ("was ist Rückpropagierung", "was ist backpropagation"),
        ("ruckpropagierung", "backpropagation"),
    ],
)
def test_the_fields_words_are_written_in_english(typed: str, english: str) -> None:
    assert english_terms(typed) == english


@pytest.mark.parametrize(
    "text",
    [
        "how does a kv cache grow when the context gets long",
        "what is quantization",
        "uncertainty quantification for regression",  # an English word, also French
        "la destilación del tequila",  # bare, distillation is the drink's
        "mi hijo no presta atención en clase",  # bare, attention is everyday
        "el modelo de la casa",  # the words around a term are read only beside one
    ],
)
def test_a_text_without_the_fields_foreign_words_is_left_as_it_is(text: str) -> None:
    assert english_terms(text) == text


def test_no_foreign_word_is_a_name_or_an_english_word() -> None:
    # the table turns a word into English only where it could not have been meant as written
    names = NameTable(tuple(load_glossary()))
    plain = [way for ways in _TERMS.values() for way in ways if way.isalpha()]  # no pattern
    assert len(plain) > 30
    assert [w for w in plain if w in common_words() or names.lookup(compact(w))] == []


def test_every_way_is_found_by_its_start() -> None:
    # a way is looked for only where a word starts with its literal start (three letters at
    # least), and its pattern is loosened letter by letter (no character sets to nest)
    for ways in _TERMS.values():
        for way in ways:
            if not _SCRIPT.search(way):
                assert len(_literal_start(way)) >= 3, way
                assert "[" not in way, way


def test_question_words_and_terms_read_together() -> None:
    assert plain_chat("¿qué es la cuantización de un modelo?") == (
        "what is quantization of a model?"  # the article goes with the asking words
    )
    assert plain_chat("alguien me explica qué es el sobreajuste?") == (
        "can someone explain qué es the overfitting ?"
    )
    assert plain_chat("come funziona la discesa del gradiente?") == (
        "how does the gradient descent ?"
    )
    assert plain_chat("sobreajuste") == "overfitting"  # one word alone too
    # Russian's question words; Chinese, Japanese and Korean ones, after the term or with no
    # space after them
    assert plain_chat("что такое переобучение модели?") == "what is overfitting of the model?"
    assert plain_chat("как работает механизм внимания?") == "how does attention mechanism ?"
    assert plain_chat("什么是知识蒸馏？") == "what is knowledge distillation ?"
    assert plain_chat("过拟合是什么？") == "overfitting?"
    assert plain_chat("ファインチューニングとは何ですか？") == "fine-tuning?"
    assert plain_chat("양자화가 뭐예요?") == "quantization?"
    # the weather: nothing of the field's, nothing but the wide question mark changes
    assert plain_chat("今日の天気はどうですか？") == "今日の天気はどうですか?"
    assert plain_chat("para qué sirve el descenso de gradiente?") == (
        "what is the use of the gradient descent ?"
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("¿qué es la cuantización de un modelo?", "quantization"),
        ("qué es la destilación de conocimiento", "knowledge-distillation"),
        ("¿qué es la ventana de contexto de un llm?", "context-windows"),
        ("o que é sobreajuste em aprendizado de máquina?", "overfitting"),
        ("como funciona o ajuste fino de um modelo?", "fine-tuning"),
        ("qu'est-ce que le surapprentissage ?", "overfitting"),
        ("quelqu'un peut m'expliquer la descente de gradient ?", "gradient-descent"),
        ("was ist die Lernrate?", "learning-rate"),
        ("wie funktioniert der Aufmerksamkeitsmechanismus?", "attention"),
        ("cos'è la quantizzazione di un modello?", "quantization"),
        ("과적합은 어떻게 막나요?", "overfitting"),
        ("学习率应该设置多少？", "learning-rate"),
        ("ファインチューニングとは何ですか？", "fine-tuning"),
        ("что такое переобучение модели?", "overfitting"),
        ("¿para qué sirve el descenso de gradiente?", "gradient-descent"),
    ],
)
def test_a_question_in_another_language_gets_its_card(
    bundled_index: SearchIndex, query: str, expected: str
) -> None:
    assert bundled_index.search(query).entry_id == expected


@pytest.mark.parametrize(
    "query",
    [
        "¿cómo funciona la destilación del tequila?",
        "como funciona a destilação da cachaça?",
        "mi hijo no presta atención en clase, qué hago?",
        "¿qué tiempo hace hoy en Madrid?",
        "was ist die beste Temperatur für Rotwein?",
        "la destilación fraccionada del petróleo",
        "¿dónde compro una red para pescar?",
        "오늘 날씨 어때요?",
    ],
)
def test_an_everyday_question_in_another_language_gets_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    assert bundled_index.search(query).entry_id is None


def test_an_article_after_the_asking_words_is_no_typo_of_a_name(bundled_index: SearchIndex) -> None:
    """ "¿qué es un transformer?" read as "what is un transformer" took "un transformer" for a
    mistyped name: a card "matched as a typo". The article goes with the asking words, and the
    name is read as written (found by outsider round 11)."""
    for question in (
        "¿qué es un transformer?",
        "o que é um transformer",
        "was ist ein transformer",
    ):
        result = bundled_index.search(question)
        assert result.entry is not None, question
        assert result.entry.id == "transformers", question
        assert result.strategy == "alias", (question, result.strategy)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("트랜스포머가 뭐야?", "transformers"),  # a particle on a word the table knows
        ("트랜스포머란 무엇인가요?", "transformers"),
        ("토큰은 뭐예요?", "token"),
        ("임베딩이란 무엇인가요?", "embeddings"),
        ("토크나이저가 뭐예요?", "tokenization"),
        ("어텐션을 설명해줘", "attention"),  # "explain attention": no typo of a longer name
        ("트랜스포머를 설명해 주세요", "transformers"),
    ],
)
def test_a_korean_word_with_its_particle_gets_its_card(
    bundled_index: SearchIndex, query: str, expected: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, (query, result.status, result.suggestions)
    assert result.entry.id == expected
    assert result.strategy != "fuzzy"


@pytest.mark.parametrize(
    ("query", "footer"),
    [
        ("什么是注意力机制", 'matched "什么是注意力机制" in translation'),
        ("¿qué es la cuantización?", 'matched "¿qué es la cuantización?" in translation'),
        ("트랜스포머가 뭐야?", 'matched "트랜스포머가 뭐야?" in translation, as another name'),
        # the words the table did not read are no typo of the name (task everyday14)
        ("양자화의 장점", 'matched "양자화의 장점" in translation'),
        ("어텐션의 원리", 'matched "어텐션의 원리" in translation'),
        ("트랜스포머의 구조", 'matched "트랜스포머의 구조" in translation, as another name'),
        (
            "トランスフォーマーの仕組み",
            'matched "トランスフォーマーの仕組み" in translation, as another name',
        ),
        ("wat r logits lol", None),  # chat spelling: the name is written as typed
        ("what is the attention mechanism", None),
        ("kv cahce", 'matched "kv cahce" as a typo'),
    ],
)
def test_a_card_read_in_translation_says_so(
    bundled_index: SearchIndex, query: str, footer: str | None
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None
    assert how_matched(result) == footer


@pytest.mark.parametrize(
    ("message", "named"),
    [
        ("注意力机制是什么？", [("attention", "注意力机制")]),
        ("트랜스포머 설명 좀 해주세요", [("transformers", "트랜스포머")]),
        (
            "la cuantización de un modelo y el sobreajuste, con LoRA",
            [
                ("quantization", "cuantización"),
                ("overfitting", "sobreajuste"),
                ("lora-qlora", "LoRA"),
            ],
        ),
        ("la destilación del tequila", []),  # bare, distillation is the drink's
    ],
)
def test_explain_terms_finds_the_fields_words_in_another_language(
    bundled_index: SearchIndex, message: str, named: list[tuple[str, str]]
) -> None:
    """The message command lists what /define would find for them, named as written."""
    found = bundled_index.find_named_terms(message)
    assert [(m.entry.id, m.surface) for m in found] == named
    assert all(message[m.start : m.end] == m.surface for m in found)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("transformer 구조", "transformer"),
        ("transformer の仕組み?", "transformer ?"),
        ("what is (LoRA)가", "what is (LoRA)"),
        ("what is rag", "what is rag"),
    ],
)
def test_words_of_another_script_the_table_did_not_read_are_dropped(text: str, read: str) -> None:
    assert unread_dropped(text) == read


@pytest.mark.parametrize(
    ("query", "entry_id"),
    [
        ("トランスフォーマとは", "transformers"),  # no final long-vowel mark, as JIS writes it
        ("トークナイザとは", "tokenization"),
        ("エンベディングとは", "embeddings"),
        ("アテンションの仕組み", "attention"),
    ],
)
def test_japanese_loanwords_as_technical_writing_spells_them(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry_id


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("RAGとは何ですか", "rag"),
        ("LoRAとは？", "lora-qlora"),
        ("מה זה RAG", "rag"),
        ("מה זה LoRA?", "lora-qlora"),
        ("מהו RAG?", "rag"),
        ("ما هو RAG؟", "rag"),
        ("RAG คืออะไร", "rag"),
        ("LoRAคืออะไร", "lora-qlora"),
        ("RAG क्या है?", "rag"),
        ("LoRA là gì?", "lora-qlora"),
    ],
)
def test_what_is_a_name_asked_in_another_language_gets_its_card(
    bundled_index: SearchIndex, query: str, expected: str
) -> None:
    """As "what is RAG" does: the asking words of Japanese, Hebrew, Arabic, Thai, Hindi and
    Vietnamese around a name written in Latin letters ask for that name's card."""
    assert bundled_index.search(query).entry_id == expected


@pytest.mark.parametrize(
    "query",
    ["מה זה?", "מה זה הדבר הזה", "นี่คืออะไร", "यह क्या है?", "đây là gì?", "ما هو الطقس اليوم؟"],
)
def test_asking_words_alone_or_about_everyday_things_get_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    assert bundled_index.search(query).entry_id is None
