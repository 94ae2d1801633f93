"""review75 (tests/outsider/PLAN.md, "review75"): attacks on the last two sessions' features as
an outsider makes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.glossary.check import reference_problem

from .test_product70 import _imported
from .test_review71 import ONE_ENTRY

# -- A reference with userinfo that urlparse cannot read: said without its password --


@pytest.mark.parametrize(
    "reference",
    [
        "https://admin:s3cret@[wiki.example.org/page",
        "https://admin:s3cret@wiki.example.org]/page",
        "https://admin:s3cret\uff20@wiki.example.org/page",
        "https://admin:s3cret\uff20wiki.example.org/page",
    ],
    ids=["bracket-open", "bracket-closed", "nfkc-at-and-at", "nfkc-at"],
)
def test_a_reference_with_userinfo_urlparse_refuses_is_said_without_its_password(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
) -> None:
    """mend74 refuses a reference with userinfo without quoting it (it may hold a password);
    one urlparse raises on (a bracket left open, a character NFKC reads as "@" or ":") fell
    through to "bad reference URL 'https://admin:s3cret@[…'", the password quoted, in `terms
    import`, `check`, /term import's answer and its report file. Failed before."""
    assert "s3cret" not in (reference_problem(reference) or "s3cret")
    monkeypatch.chdir(tmp_path)
    code, said = _imported(
        tmp_path, capsys, "ours.toml", ONE_ENTRY + f'reference = "{reference}"\n'
    )
    assert code == 1, said
    assert "Reference: reference URL has a user name or password before its host" in said, said
    assert "s3cret" not in said, said
