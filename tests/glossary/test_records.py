"""Records are validated without pydantic when plainly right, by pydantic otherwise: the outcome
(values, or every message) must be what the pydantic models the readers used before gave.

The reference is those models as they were written (`models_before`); any record at all, right
or wrong, must come out of `parse_record` as it came out of them."""

from __future__ import annotations

import copy
import functools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field, ValidationError, create_model

from bot.glossary.formats.curated_toml import CuratedEntry, ImportedEntry, Overlay
from bot.glossary.formats.topics_json import Topic, TopicsHeader
from bot.glossary.records import (
    Record,
    RecordError,
    _taken_as_is,
    describe_validation_error,
    parse_fields,
    parse_record,
)
from bot.glossary.sources import Manifest
from tests.glossary import models_before as before

# An imported entry as a pydantic model would extend the curated one: no category or id needed
# (named as the record is, for pydantic's messages name the model).
# senses77 gave both a server term's other senses (as a pydantic model would have them).
IMPORTED = create_model(
    "ImportedEntry",
    __base__=before.CuratedEntry,
    category=(str | None, None),
    id=(str, ""),
    other_senses=(list[str], Field(default_factory=list)),
)
TOPIC = create_model(
    "Topic",
    __base__=before.Topic,
    other_senses=(list[str], Field(default_factory=list, alias="otherSenses")),
)

PAIRS: list[tuple[type[Any], type[BaseModel]]] = [
    (CuratedEntry, before.CuratedEntry),
    (ImportedEntry, IMPORTED),
    (Overlay, before.Overlay),
    (Topic, TOPIC),
    (TopicsHeader, before.TopicsHeader),
    (Manifest, before.Manifest),
]


def outcome_of_reference(model: type[BaseModel], data: object) -> tuple[str, object]:
    try:
        return "ok", model.model_validate(data).model_dump()
    except ValidationError as exc:
        return "refused", describe_validation_error(exc)


def outcome(kind: type[Any], data: object) -> tuple[str, object]:
    try:
        return "ok", _plain(parse_record(kind, data))
    except RecordError as exc:
        return "refused", exc.messages


# Values as a TOML or JSON file may hold them: right ones, near misses and plain wrong ones.
SCALARS = st.one_of(
    st.text(max_size=6),
    st.sampled_from(["", "kv-cache", "Kv", "a\n", "markdown", "curated-toml", "topics-json"]),
    st.integers(min_value=-(2**65), max_value=2**65),
    st.sampled_from([0, 1, 2**63 - 1, 2**63, -(2**63)]),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
    st.sampled_from(["1", "true", "yes", "0", "3.0"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=6,
)


def keys_of(model: type[BaseModel]) -> list[str]:
    names = list(model.model_fields)
    aliases = [f.alias for f in model.model_fields.values() if f.alias]
    return names + aliases + ["colour", "Id"]


def right_record(model: type[BaseModel]) -> dict[str, object]:
    fields = model.model_fields
    return {fields[n].alias or n: _right_value(f.annotation) for n, f in fields.items()}


@functools.cache
def records(model: type[BaseModel]) -> st.SearchStrategy[object]:
    """Mostly a right record with a few keys changed, dropped or added; sometimes not a dict.

    Built once per model (building it per example cost more than drawing from it); the keys
    dropped are one draw of any subset, not a fresh set drawn per key, which cost half the run. Values are copied: a reader must not see another example's lists."""
    right = right_record(model)
    changes = st.dictionaries(st.sampled_from(keys_of(model)), VALUES, max_size=3)
    dropped = st.sets(st.sampled_from(list(right)), max_size=len(right))

    @st.composite
    def build(draw: st.DrawFn) -> object:
        gone = draw(dropped)
        record = {k: copy.deepcopy(v) for k, v in right.items() if k not in gone}
        record.update(draw(changes))
        return record

    return st.one_of(build(), VALUES)


def _right_value(annotation: object) -> object:
    text = str(annotation)
    if "ManifestSource" in text:
        return [{"key": "a-1", "name": "A", "file": "a.md", "format": "markdown"}]
    if "list" in text:
        return ["x", "y"]
    if annotation is int:
        return 3
    if "bool" in text:
        return True
    if "Literal" in text:
        return "markdown"
    return "text"


@pytest.mark.parametrize(("kind", "model"), PAIRS, ids=[k.__name__ for k, _ in PAIRS])
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_record_comes_out_as_the_pydantic_model_had_it(
    kind: type[Any], model: type[BaseModel], data: st.DataObject
) -> None:
    record = data.draw(records(model))
    assert outcome(kind, record) == outcome_of_reference(model, record)


def _plain(value: object) -> object:
    """A record as a dict of its fields (records in it too), as pydantic's `model_dump` has it."""
    if isinstance(value, Record):
        return {name: _plain(v) for name, v in vars(value).items()}
    return [_plain(v) for v in value] if isinstance(value, list) else value


@pytest.mark.parametrize(("kind", "model"), PAIRS, ids=[k.__name__ for k, _ in PAIRS])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_reader_keeps_every_field_as_the_record_has_it(
    kind: type[Any], model: type[BaseModel], data: st.DataObject
) -> None:
    """`parse_fields` (what the readers keep) gives every field, defaults included, with the
    values the record gets, quick path or pydantic's, and lists of their own."""
    record = data.draw(records(model))
    try:
        fields = parse_fields(kind, record)
    except RecordError:
        return
    assert {name: _plain(value) for name, value in fields.items()} == outcome(kind, record)[1]
    if isinstance(record, dict):
        given_lists = [id(v) for v in record.values() if isinstance(v, list)]
        assert not any(id(v) in given_lists for v in fields.values())


@pytest.mark.parametrize(("kind", "model"), PAIRS, ids=[k.__name__ for k, _ in PAIRS])
def test_a_right_record_takes_the_quick_path(kind: type[Any], model: type[BaseModel]) -> None:
    """So the comparison above covers the quick path, not pydantic against itself."""
    assert _taken_as_is(kind, right_record(model)) is not None
    assert _taken_as_is(kind, {**right_record(model), "colour": "red"}) is None


def test_manifest_sources_are_checked_one_by_one() -> None:
    base = {"key": "a-1", "name": "A", "file": "a.md", "format": "markdown"}
    wrong = [base, {**base, "key": "A 1", "name": "", "colour": 1}]
    assert outcome(Manifest, {"sources": wrong}) == outcome_of_reference(
        before.Manifest, {"sources": wrong}
    )
    assert outcome(Manifest, {"sources": []})[0] == "refused"
    assert outcome(Manifest, {"sources": [base]})[0] == "ok"
