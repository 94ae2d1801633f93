"""A PostgreSQL URL as operators paste it: whether its user:password part reads as they meant,
whether its port is a number, and how to show it without the password.

A password holding `@`, `#`, `?`, `/` or `:` ends that part early unless percent-encoded, so the
URL names another host, port or path, and a message quoting it would show the password. A leaf:
the settings and the storage layer both ask it.
"""

from __future__ import annotations

from urllib.parse import SplitResult, unquote_plus, urlsplit

PERCENT_ENCODE = "percent-encode @ : / ? # in its user name or password as %40 %3A %2F %3F %23"
NOT_A_PORT = "its port is not a number from 1 to 65535"


def credentials_problem(url: str) -> str | None:
    """Why ``url``'s user:password part does not read as one, or None when it does."""
    parts = urlsplit(url)
    rest = parts.path + parts.query + parts.fragment
    if _bad_port(parts) and ("@" in rest or "@" not in parts.netloc):
        # A password cut at "/", "?" or "#" leaves "user:pass" read as host:port; with no "@"
        # at all, what follows the ':' may be a password too: never shown, never called a port.
        return f"the URL does not read as user:password@host:port/database; {PERCENT_ENCODE}"
    if parts.fragment or parts.netloc.count("@") > 1 or "@" in rest:
        return f"the URL does not read as user:password@host:port/database; {PERCENT_ENCODE}"
    return None


def port_problem(url: str) -> str | None:
    """Why ``url``'s port (after its user:password@, which reads as one) is no port, or None."""
    if credentials_problem(url) is None and _bad_port(urlsplit(url)):
        return NOT_A_PORT
    return None


def url_problem(url: str) -> str | None:
    """What makes ``url`` no user:password@host:port/database URL, or None."""
    return credentials_problem(url) or port_problem(url)


def without_password(url: str) -> str:
    """A database URL safe to log or print: the password is left out (and all but the scheme of
    a URL whose user:password part does not read as one, since the password may be anywhere)."""
    parts = urlsplit(url)
    if credentials_problem(url):
        return f"{parts.scheme}://…"
    # libpq and asyncpg also take the password as a parameter (`?password=`, beside `host=`
    # for a socket folder): left out as the one in user:password@ is.
    query = "&".join(item for item in parts.query.split("&") if _parameter(item) != "password")
    parts = parts._replace(query=query)
    if parts.password is None:
        return _joined(parts)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    # The port as written: one that is no number is what the line about it must show.
    port = parts.netloc.rpartition("@")[2].rpartition("]")[2].partition(":")[2]
    netloc = f"{parts.username or ''}@{host}" + (f":{port}" if port else "")
    return _joined(parts._replace(netloc=netloc))


def _bad_port(parts: SplitResult) -> bool:
    try:
        return parts.port == 0  # (raises on a port that is no number, or above 65535)
    except ValueError:
        return True


def _joined(parts: SplitResult) -> str:
    """``parts`` written back as a URL; `postgresql:///db` keeps its empty host (urlunsplit drops
    the `//`)."""
    return f"{parts.scheme}://{parts.netloc}{parts.path}" + (
        f"?{parts.query}" if parts.query else ""
    )


def _parameter(item: str) -> str:
    """The name of one `name=value` of a URL's query, as PostgreSQL's clients decode it."""
    return unquote_plus(item.partition("=")[0])
