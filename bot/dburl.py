"""A PostgreSQL URL as operators paste it: whether its user:password part reads as they meant.

A password holding `@`, `#`, `?`, `/` or `:` ends that part early unless percent-encoded, so the
URL names another host, port or path, and a message quoting it would show the password. A leaf:
the settings and the storage layer both ask it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

PERCENT_ENCODE = "percent-encode @ : / ? # in its user name or password as %40 %3A %2F %3F %23"


def credentials_problem(url: str) -> str | None:
    """Why ``url``'s user:password part does not read as one, or None when it does."""
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018  (raises on a password cut at "/" or "?": "user:pass" read as host:port)
    except ValueError:
        return f"the URL does not read as user:password@host:port/database; {PERCENT_ENCODE}"
    if parts.fragment or parts.netloc.count("@") > 1 or "@" in parts.path + parts.query:
        return f"the URL does not read as user:password@host:port/database; {PERCENT_ENCODE}"
    return None
