"""The records data files hold, validated without pydantic when they are plainly right.

Each kind of record is a `Record` subclass declared as a dataclass would be: its fields are its
annotations, in order, each with its default, or a `field(...)` giving a default factory and what
pydantic's `Field` would say of it (`alias`, `min_length`, `pattern`). No code is generated for
it (dataclasses would write methods, at a cost at every start): records are read once into the
readers' own entries, never compared, printed or changed. A record whose every value already has
exactly its field's type and meets its constraints is taken as it is: that is the bundled data on
every start, so start-up does not import pydantic. Anything else is judged by a pydantic model
derived from the same declaration (unknown keys forbidden, aliases or names accepted), which
coerces what pydantic coerces and words every problem as pydantic does.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

R = TypeVar("R")
Check = Callable[[Any], bool]
MISSING: Any = object()  # no default: the field is required


class Record:
    """A record of a data file: the fields are the subclass's annotations, which its module must
    not leave as strings (no `from __future__ import annotations` there). Made by
    `parse_record`, with every field's value."""

    def __init__(self, **values: Any) -> None:
        vars(self).update(values)


class Field:
    """A field's default (or factory of one) and what pydantic's `Field` would say of it.

    (This and `_Slot` are plain classes: a NamedTuple compiles each of its annotations as
    the module loads, a thirtieth of `check`.)"""

    __slots__ = ("alias", "default", "default_factory", "min_length", "pattern")

    def __init__(
        self,
        default: Any = MISSING,
        default_factory: Callable[[], Any] | None = None,
        alias: str | None = None,  # the key as the file spells it
        min_length: int | None = None,
        pattern: str | None = None,
    ) -> None:
        self.default = default
        self.default_factory = default_factory
        self.alias = alias
        self.min_length = min_length
        self.pattern = pattern


def field(
    *,
    default: Any = MISSING,
    default_factory: Callable[[], Any] | None = None,
    alias: str | None = None,
    min_length: int | None = None,
    pattern: str | None = None,
) -> Any:
    """`name: type = field(...)` in a Record, as in a dataclass (typed Any for the same reason)."""
    return Field(default, default_factory, alias, min_length, pattern)


class RecordError(ValueError):
    """A record pydantic refused; `messages` are its errors as short sentences."""

    def __init__(self, messages: list[str], fields: frozenset[str] = frozenset()) -> None:
        super().__init__("; ".join(messages))
        self.messages = messages
        self.fields = fields  # the keys refused (as the record spells them)


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
        refused = frozenset(str(err["loc"][0]) for err in exc.errors() if err["loc"])
        raise RecordError(describe_validation_error(exc), refused) from None
    return _from_model(kind, validated)


def field_keys(kind: type[Any]) -> frozenset[str]:
    """Every key a `kind` record may hold: field names and their aliases."""
    if kind not in _KEYS:
        _KEYS[kind] = frozenset(key for slot in _slots(kind) for key in (slot.name, slot.key))
    return _KEYS[kind]


def required_keys(kind: type[Any]) -> frozenset[str]:
    """The keys (as a file spells them) a `kind` record must hold: its fields of no default."""
    return frozenset(
        slot.key
        for slot in _slots(kind)
        if slot.field.default is MISSING and slot.field.default_factory is None
    )


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
        elif err["type"] in {"list_type", "tuple_type"}:  # "Input should be a valid list"
            msg = 'should be a list, written in brackets: ["…", "…"]'
        out.append(f"{loc}: {msg}")
    return out


# -- the quick path: exact types only; any doubt goes to pydantic ------------------------------


class _Slot:
    """A field as the quick path and the pydantic model need it."""

    __slots__ = ("field", "hint", "key", "name", "nested", "value_ok")

    def __init__(self, name: str, hint: Any, field: Field) -> None:
        self.name = name
        self.key = field.alias or name  # as the file spells it
        self.hint = hint  # the field's type
        self.field = field
        self.value_ok = _value_check(hint, field)
        self.nested = _nested_kind(hint)  # the record kind of a list of records


_SLOTS: dict[type[Any], tuple[_Slot, ...]] = {}
_KEYS: dict[type[Any], frozenset[str]] = {}


def _slots(kind: type[Any]) -> tuple[_Slot, ...]:
    if kind not in _SLOTS:
        _SLOTS[kind] = _slots_of(kind)
    return _SLOTS[kind]


def _slots_of(kind: type[Any]) -> tuple[_Slot, ...]:
    """The fields of `kind` and of the records it extends, base fields first; a field declared
    again replaces its base's in its place, as in a dataclass."""
    slots: dict[str, _Slot] = {}
    for declaring in reversed(kind.__mro__):
        for name, hint in vars(declaring).get("__annotations__", {}).items():
            declared = vars(declaring).get(name, MISSING)
            spec = declared if isinstance(declared, Field) else Field(default=declared)
            slots[name] = _Slot(name, hint, spec)
    return tuple(slots.values())


def _nested_kind(hint: Any) -> type[Any] | None:
    args = typing.get_args(hint)
    if typing.get_origin(hint) is list and _is_record(args[0]):
        return typing.cast(type[Any], args[0])
    return None


def _is_record(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, Record)


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
        elif slot.field.default_factory is not None:
            value = slot.field.default_factory()
        elif slot.field.default is not MISSING:
            value = slot.field.default
        else:
            return None  # a required field is missing
        values[slot.name] = value
    return values if found == len(data) else None


def _value_check(hint: Any, spec: Field) -> Check:
    plain = _type_check(hint)
    min_length = spec.min_length
    pattern = re.compile(spec.pattern) if spec.pattern is not None else None
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
    exact = _exact_types(hint)
    if exact is not None:  # most fields: one look at the value's type (no call per check)
        return lambda value: type(value) in exact
    if origin is list and (items := _exact_types(args[0])) is not None:
        return lambda value: type(value) is list and items.issuperset(map(type, value))
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
    if _is_record(hint):
        return lambda value: _taken_as_is(hint, value) is not None
    raise TypeError(f"no quick check for {hint!r}")


def _exact_types(hint: Any) -> frozenset[type] | None:
    """The types a value of `hint` may have when its type alone tells (`str | None`: str and
    NoneType), else None."""
    if hint in (str, bool, type(None)):
        return frozenset([hint])
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        parts = [_exact_types(arg) for arg in typing.get_args(hint)]
        if all(part is not None for part in parts):
            return frozenset().union(*parts)  # type: ignore[arg-type]
    return None


# -- pydantic, for everything else -----------------------------------------------------------


_MODELS: dict[type[Any], type[BaseModel]] = {}


def _model(kind: type[Any]) -> type[BaseModel]:
    if kind not in _MODELS:
        _MODELS[kind] = _model_of(kind)
    return _MODELS[kind]


def _model_of(kind: type[Any]) -> type[BaseModel]:
    from pydantic import ConfigDict, create_model
    from pydantic import Field as PydanticField

    definitions: dict[str, Any] = {}
    for slot in _slots(kind):
        spec = slot.field
        constraints: dict[str, Any] = {"alias": spec.alias, "min_length": spec.min_length}
        constraints["pattern"] = spec.pattern
        said: dict[str, Any] = {k: v for k, v in constraints.items() if v is not None}
        if spec.default is not MISSING:
            said["default"] = spec.default
        elif spec.default_factory is not None:
            said["default_factory"] = spec.default_factory
        definitions[slot.name] = (_model_hint(slot.hint), PydanticField(**said))
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
