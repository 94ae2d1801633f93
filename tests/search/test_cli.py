"""`glossary-bot search` and `glossary-bot relevance`."""

from __future__ import annotations

import io
import json

import pytest

from bot.cli import main


def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = ""
) -> list[str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    assert main(list(argv)) == 0
    return capsys.readouterr().out.splitlines()


def test_search_plain(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(monkeypatch, capsys, "search", stdin="kv cahce\npy\n\nkubernetes\n")
    assert len(lines) == 4  # one line per query, in order, blank ones included
    assert lines[0] == '"kv cahce" -> KV Cache [kv-cache] (fuzzy 89.3)'
    assert lines[1].startswith('"py" -> did you mean: Python [python]')
    assert lines[2] == '"" -> no entry'
    assert lines[3] == '"kubernetes" -> no entry'


def test_search_json(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(monkeypatch, capsys, "search", "--json", stdin="What is RAG?\npy\nkubernetes")
    first, second, third = (json.loads(line) for line in lines)
    assert set(first) == {
        "query",
        "status",
        "strategy",
        "name_written",
        "score",
        "entry",
        "suggestions",
    }
    assert (first["query"], first["status"], first["strategy"]) == (
        "What is RAG?",
        "match",
        "acronym",
    )
    assert first["entry"]["id"] == "rag"
    assert first["entry"]["sources"]  # the entry as export writes it
    assert second["status"] == "suggest"
    assert second["entry"] is None
    assert {"id": "python", "title": "Python"} in second["suggestions"]
    assert (third["status"], third["strategy"], third["suggestions"]) == ("none", None, [])


def test_relevance_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = run(monkeypatch, capsys, "relevance", "--misses")
    table = "\n".join(lines)
    assert "on-topic" in table
    assert "naive top-1" in table


def test_search_takes_queries_as_arguments_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`glossary-bot search "what is rag"`, as people try it first: the arguments are the
    queries, one result each in order, and stdin is not read."""
    lines = run(monkeypatch, capsys, "search", "--json", "what is rag", "kv cahce", stdin="py\n")
    assert [json.loads(line)["query"] for line in lines] == ["what is rag", "kv cahce"]
    assert [json.loads(line)["entry"]["id"] for line in lines] == ["rag", "kv-cache"]


def test_search_json_offers_a_comparisons_other_side_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "X vs Y": X's entry, Y the first suggestion (compare25)."""
    (line,) = run(monkeypatch, capsys, "search", "--json", stdin="safetensors vs checkpoint\n")
    found = json.loads(line)
    assert (found["status"], found["entry"]["id"]) == ("match", "safetensors")
    assert found["suggestions"][0] == {"id": "checkpoint", "title": "Checkpoint"}


def test_search_json_reads_two_names_before_a_question_as_a_comparison(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "X and Y, <question>": X's entry, Y the first suggestion, as /define reads it
    (compare27; read since compare68)."""
    query = "latency and throughput, is one the inverse of the other\n"
    (line,) = run(monkeypatch, capsys, "search", "--json", stdin=query)
    found = json.loads(line)
    assert (found["status"], found["entry"]["id"]) == ("match", "latency")
    assert found["suggestions"][0] == {"id": "throughput", "title": "Throughput"}


def test_search_reads_an_embedded_question_after_a_request(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """chat42: "can someone explain what rag is?" was "did you mean: RAG", as by /define."""
    (line,) = run(monkeypatch, capsys, "search", "--json", "can someone explain what rag is?")
    found = json.loads(line)
    assert (found["status"], found["entry"]["id"]) == ("match", "rag")


def test_search_sets_links_aside_as_define_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`glossary-bot search "rag https://…"` answers as `/define rag https://…` and a mention
    do (left42, item 4): where the whole finds no card, its words without the links are searched;
    the result names what was asked (the whole); a link alone stays its own answer."""
    lines = run(
        monkeypatch,
        capsys,
        "search",
        "--json",
        "rag https://discord.com/channels/1/2/3",
        "https://arxiv.org/abs/2005.11401 rag",
        "kv cache <https://huggingface.co/docs/transformers>",
        "https://discord.com/channels/1/2/3",
    )
    found = [json.loads(line) for line in lines]
    assert [(f["entry"] or {}).get("id") for f in found] == ["rag", "rag", "kv-cache", None]
    assert found[0]["query"] == "rag https://discord.com/channels/1/2/3"


def test_search_json_says_a_name_written_in_a_question_the_description_decided(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """left70's footer flag reaches `--json` too: the card's name written in the question,
    though the description decided it; a bare name (a name rule decided) and a description naming nothing
    say false."""
    asked = "when my loss spikes after warmup, what is gradient clipping?"
    described = "the model keeps making stuff up in its answers"
    lines = run(monkeypatch, capsys, "search", "--json", stdin=f"{asked}\nrag\n{described}")
    named, bare, unnamed = (json.loads(line) for line in lines)
    assert named["entry"]["id"] == "gradient-clipping"
    assert named["strategy"] not in ("exact", "id")
    assert named["name_written"] is True
    assert (bare["strategy"], bare["name_written"]) == ("acronym", False)  # a name rule decided
    assert unnamed["name_written"] is False
