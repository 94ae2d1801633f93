"""The records data files hold, validated without pydantic when they are plainly right.

Each kind of record is a dataclass: its fields, their types, and in each field's metadata
what pydantic's `Field` would say of it (`alias`, `min_length`, `pattern`). Records are read once
into the readers' own entries, never compared, printed or changed: `@dataclass(eq=False,
repr=False)` gives them only `__init__`, since every method dataclasses writes costs start-up
(unfrozen, too: a frozen one writes three more and builds each record more slowly). A record
whose every value already has exactly its field's type and meets its constraints is taken as it
is: that is the bundled data on every start, so start-up does not import pydantic. Anything else is judged by
a pydantic model derived from the same dataclass (unknown keys forbidden, aliases or names
accepted), which coerces what pydantic coerces and words every problem as pydantic does.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

R = TypeVar("R")
Check = Callable[[Any], bool]


class RecordError(ValueError):
    """A record pydantic refused; `messages` are its errors as short sentences."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("; ".join(messages))
        self.messages = messages


def parse_record(kind: type[R], data: object) -> R:
    """`data` as a `kind` record, or RecordError naming every problem in it."""
    return kind(**parse_fields(kind, data))


def parse_fields(kind: type[Any], data: object) -> dict[str, Any]:
    """What `parse_record` makes of `data` as the record's values by field name (every field,
    defaults included): for a reader that keeps the values, not the record."""
    values = _taken_as_is(kind, data)
    if values is not None:
        return values
    from pydantic import ValidationError

    try:
        validated = _model(kind).model_validate(data)
    except ValidationError as exc:
        raise RecordError(describe_validation_error(exc)) from None
    return _from_model(kind, validated)


def field_keys(kind: type[Any]) -> frozenset[str]:
    """Every key a `kind` record may hold: field names and their aliases."""
    if kind not in _KEYS:
        _KEYS[kind] = frozenset(key for slot in _slots(kind) for key in (slot.name, slot.key))
    return _KEYS[kind]


def describe_validation_error(exc: ValidationError) -> list[str]:
    """pydantic's errors as short sentences: `definition: field required`."""
    out = []
    for err in exc.errors():
        loc = ".".join(str(part) for part in err["loc"]) or "(entry)"
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        elif err["type"] == "missing":
            msg = "missing required field"
        out.append(f"{loc}: {msg}")
    return out


# -- the quick path: exact types only; any doubt goes to pydantic ------------------------------


class _Slot(NamedTuple):
    name: str
    key: str  # as the file spells it: the alias, if any
    default: Any  # dataclasses.MISSING for none (then the factory's, or the field is required)
    factory: Callable[[], Any] | None  # makes the default (a list of its own)
    value_ok: Check
    nested: type[Any] | None  # the record kind of a list of records


_SLOTS: dict[type[Any], tuple[_Slot, ...]] = {}
_KEYS: dict[type[Any], frozenset[str]] = {}


def _slots(kind: type[Any]) -> tuple[_Slot, ...]:
    if kind not in _SLOTS:
        _SLOTS[kind] = _slots_of(kind)
    return _SLOTS[kind]


def _slots_of(kind: type[Any]) -> tuple[_Slot, ...]:
    hints = typing.get_type_hints(kind)
    return tuple(
        _Slot(
            field.name,
            str(field.metadata.get("alias", field.name)),
            field.default,
            None if field.default_factory is dataclasses.MISSING else field.default_factory,
            _value_check(hints[field.name], field.metadata),
            _nested_kind(hints[field.name]),
        )
        for field in dataclasses.fields(kind)
    )


def _nested_kind(hint: Any) -> type[Any] | None:
    args = typing.get_args(hint)
    if typing.get_origin(hint) is list and isinstance(args[0], type):
        return args[0] if dataclasses.is_dataclass(args[0]) else None
    return None


def _taken_as_is(kind: type[Any], data: object) -> dict[str, Any] | None:
    """`data`'s values by field name, defaults filled in, if every value already has exactly its
    field's type and meets its constraints and no other key is there (the other spelling of an
    alias goes to pydantic); else None. One pass checks and takes them."""
    slots = _slots(kind)
    if type(data) is not dict or len(data) > len(slots):
        return None
    values: dict[str, Any] = {}
    found = 0
    for slot in slots:
        if slot.key in data:
            value = data[slot.key]
            if not slot.value_ok(value):
                return None
            found += 1
            if slot.nested is not None:  # value_ok found each of them plainly right
                value = [parse_record(slot.nested, item) for item in value]
            elif type(value) is list:
                value = list(value)  # a list of its own, as pydantic makes
        elif slot.factory is not None:
            value = slot.factory()
        elif slot.default is not dataclasses.MISSING:
            value = slot.default
        else:
            return None  # a required field is missing
        values[slot.name] = value
    return values if found == len(data) else None


def _value_check(hint: Any, metadata: typing.Mapping[str, Any]) -> Check:
    plain = _type_check(hint)
    min_length = metadata.get("min_length")
    pattern = re.compile(metadata["pattern"]) if "pattern" in metadata else None
    if min_length is None and pattern is None:
        return plain

    def check(value: Any) -> bool:
        if not plain(value):
            return False
        if min_length is not None and len(value) < min_length:
            return False
        return pattern is None or bool(pattern.fullmatch(value))

    return check


def _type_check(hint: Any) -> Check:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is int:  # exactly: no bool for an int, no number for a string
        return lambda value: type(value) is int and -(2**63) < value < 2**63
    if hint in (str, bool):
        return lambda value: type(value) is hint
    if hint is object:
        return lambda value: True
    if origin is Literal:
        return lambda value: type(value) is str and value in args
    if origin in (types.UnionType, typing.Union):
        checks = [_type_check(arg) for arg in args if arg is not type(None)]
        return lambda value: value is None or any(check(value) for check in checks)
    if origin is list:
        item = _type_check(args[0])
        return lambda value: type(value) is list and all(item(v) for v in value)
    if dataclasses.is_dataclass(hint):
        return lambda value: _taken_as_is(hint, value) is not None  # type: ignore[arg-type]
    raise TypeError(f"no quick check for {hint!r}")


# -- pydantic, for everything else -----------------------------------------------------------


_MODELS: dict[type[Any], type[BaseModel]] = {}


def _model(kind: type[Any]) -> type[BaseModel]:
    if kind not in _MODELS:
        _MODELS[kind] = _model_of(kind)
    return _MODELS[kind]


def _model_of(kind: type[Any]) -> type[BaseModel]:
    from pydantic import ConfigDict, Field, create_model

    hints = typing.get_type_hints(kind)
    definitions: dict[str, Any] = {}
    for field in dataclasses.fields(kind):
        constraints = dict(field.metadata)
        if field.default is not dataclasses.MISSING:
            constraints["default"] = field.default
        elif field.default_factory is not dataclasses.MISSING:
            constraints["default_factory"] = field.default_factory
        definitions[field.name] = (_model_hint(hints[field.name]), Field(**constraints))
    config = ConfigDict(extra="forbid", populate_by_name=True)
    model: type[BaseModel] = create_model(kind.__name__, __config__=config, **definitions)
    return model


def _model_hint(hint: Any) -> Any:
    nested = _nested_kind(hint)
    return hint if nested is None else list[_model(nested)]  # type: ignore[misc]


def _from_model(kind: type[Any], validated: BaseModel) -> dict[str, Any]:
    values = {}
    for slot in _slots(kind):
        value = getattr(validated, slot.name)
        if slot.nested is not None:
            value = [slot.nested(**_from_model(slot.nested, item)) for item in value]
        values[slot.name] = value
    return values
