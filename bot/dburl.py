"""A PostgreSQL URL as operators paste it: whether its user:password part reads as they meant,
whether its hosts and ports read as libpq and asyncpg read them (`host1:5432,host2:5433`, a list
tried in order; an IPv6 address in brackets), and how to show it without the password.

A password holding `@`, `#`, `?`, `/` or `:` ends that part early unless percent-encoded, so the
URL names another host, port or path, and a message quoting it would show the password. A leaf:
the settings and the storage layer both ask it.
"""

from __future__ import annotations

import re
from urllib.parse import SplitResult, unquote_plus, urlsplit

PERCENT_ENCODE = "percent-encode @ : / ? # in its user name or password as %40 %3A %2F %3F %23"
NOT_A_PORT = "its port is not a number from 1 to 65535"
IPV6_BRACKETS = "an IPv6 address is written in brackets, as [::1]:5432"
EMPTY_HOST = "a host in its list of hosts is empty"
# urllib refuses a host part with a bracket left open or a name in brackets (ValueError)
UNSPLIT_HOST = "its host part does not read: an IPv6 address is written in brackets, as [::1]:5432"
# The query's parameters that are secrets (libpq's names, which asyncpg reads too).
_SECRETS = frozenset({"password", "sslpassword"})
_BRACKETED = re.compile(r"\[[^\]]+\](?::(?P<port>[^:]*))?")


def scheme(url: str) -> str:
    """``url``'s scheme as urllib reads it, also where its host part does not split."""
    return urlsplit(url.partition("/")[0]).scheme


def credentials_problem(url: str) -> str | None:
    """Why ``url``'s user:password part does not read as one, or None when it does (or when
    the host part does not split: `port_problem` says so)."""
    parts = _split(url)
    if parts is None:
        return None
    rest = parts.path + parts.query + parts.fragment
    if _hosts_problem(parts.netloc) and ("@" in rest or "@" not in parts.netloc):
        # A password cut at "/", "?" or "#" leaves "user:pass" read as host:port; with no "@"
        # at all, what follows the ':' may be a password too: never shown, never called a port.
        return f"the URL does not read as user:password@host:port/database; {PERCENT_ENCODE}"
    if parts.fragment or parts.netloc.count("@") > 1 or "@" in rest:
        return f"the URL does not read as user:password@host:port/database; {PERCENT_ENCODE}"
    return None


def port_problem(url: str) -> str | None:
    """Why ``url``'s hosts and ports (after its user:password@, which reads as one) are not
    what PostgreSQL's clients read, or None."""
    parts = _split(url)
    if parts is None:
        return UNSPLIT_HOST
    if credentials_problem(url) is None:
        return _hosts_problem(parts.netloc)
    return None


def url_problem(url: str) -> str | None:
    """What makes ``url`` no user:password@host:port/database URL, or None."""
    return credentials_problem(url) or port_problem(url)


def without_password(url: str) -> str:
    """A database URL safe to log or print: the password is left out (and all but the scheme of
    a URL whose user:password part does not read as one, since the password may be anywhere)."""
    parts = _split(url)
    if parts is None or credentials_problem(url):
        return f"{scheme(url)}://…"
    # libpq and asyncpg also take the password as a parameter (`?password=`, beside `host=`
    # for a socket folder), and the SSL key's passphrase (`?sslpassword=`): left out as the one
    # in user:password@ is, in any letters (one who writes `?PASSWORD=` means it, and a line
    # about the unknown setting would show it).
    query = "&".join(
        item for item in parts.query.split("&") if _parameter(item).lower() not in _SECRETS
    )
    parts = parts._replace(query=query)
    if parts.password is None:
        return _joined(parts)
    # The hosts and ports as written: one that is wrong is what the line about it must show.
    hosts = parts.netloc.rpartition("@")[2]
    return _joined(parts._replace(netloc=f"{parts.username or ''}@{hosts}"))


def each_host(url: str) -> list[tuple[str, str]]:
    """Each host of ``url``'s `host:port,host:port` list, as written, with the URL naming it
    alone (for asking each what it says); [] for a URL of one host or none."""
    parts = _split(url)
    if parts is None:
        return []
    auth, at, hosts = parts.netloc.rpartition("@")
    listed = hosts.split(",")
    if len(listed) < 2:
        return []
    return [(host, _joined(parts._replace(netloc=f"{auth}{at}{host}"))) for host in listed]


def _split(url: str) -> SplitResult | None:
    """``url`` split by urllib, or None where urllib refuses its host part."""
    try:
        return urlsplit(url)
    except ValueError:
        return None


def _hosts_problem(netloc: str) -> str | None:
    """What in the `host:port,host:port` list after ``netloc``'s last "@" asyncpg (as libpq)
    would not read, or None. No host at all is theirs to default (a socket, `?host=`)."""
    hosts = netloc.rpartition("@")[2]
    if not hosts:
        return None
    for host in hosts.split(","):
        if not host:
            return EMPTY_HOST
        if bracketed := _BRACKETED.fullmatch(host):
            port = bracketed["port"] or ""
        elif host.count(":") > 1:
            return IPV6_BRACKETS  # `::1:5432`: where the address ends is anyone's guess
        else:
            port = host.partition(":")[2]
        if port and not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
            return NOT_A_PORT
    return None


def _joined(parts: SplitResult) -> str:
    """``parts`` written back as a URL; `postgresql:///db` keeps its empty host (urlunsplit drops
    the `//`)."""
    return f"{parts.scheme}://{parts.netloc}{parts.path}" + (
        f"?{parts.query}" if parts.query else ""
    )


def _parameter(item: str) -> str:
    """The name of one `name=value` of a URL's query, as PostgreSQL's clients decode it."""
    return unquote_plus(item.partition("=")[0])
