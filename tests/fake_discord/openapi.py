"""Discord's published OpenAPI spec as an oracle for the fake's own rules.

``spec_errors("ModalInteractionCallbackRequest", body)`` lists what the spec's schema of that
name finds wrong with ``body`` (JSON Schema 2020-12, as OpenAPI 3.1 uses), so a test can check
that the fake and Discord's spec agree on a body, and name where they knowingly differ. The spec
lives in ``/work/shared/discord-api-spec`` (``DISCORD_API_SPEC`` overrides the file); without
it ``spec_or_skip()`` skips the test with one line saying so.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import pytest

SPEC_PATH = Path(os.environ.get("DISCORD_API_SPEC", "/work/shared/discord-api-spec/openapi.json"))


@functools.cache
def _spec() -> dict[str, Any] | None:
    if not SPEC_PATH.is_file():
        return None
    spec: dict[str, Any] = json.loads(SPEC_PATH.read_text())
    return spec


def spec_or_skip() -> None:
    """Skip the calling test when the spec (or jsonschema) is not available."""
    if _spec() is None:
        pytest.skip(f"Discord's OpenAPI spec not found at {SPEC_PATH}")
    pytest.importorskip("jsonschema", reason="jsonschema is needed to read the OpenAPI spec")


def spec_errors(schema: str, instance: Any) -> list[str]:
    """What the spec's ``components.schemas[schema]`` finds wrong with ``instance``."""
    import jsonschema  # type: ignore[import-untyped, unused-ignore]  # only spec tests need it

    spec = _spec()
    assert spec is not None, "call spec_or_skip() first"
    root = {"$ref": f"#/components/schemas/{schema}", "components": spec["components"]}
    validator = jsonschema.Draft202012Validator(root)
    return [
        f"{'.'.join(map(str, e.absolute_path)) or '<body>'}: {e.message}"
        for e in validator.iter_errors(instance)
    ]
