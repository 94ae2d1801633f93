"""product77: idle connections to the metrics endpoint hold no thread each (3,000 of them held
~1,000 threads and 60 MB): a request is answered by a small pool once it has arrived whole, and
a scrape is answered while they are held. Failed before: a thread per connection."""

from __future__ import annotations

import socket
import threading
import urllib.request

import pytest

from bot import metrics


def scraped(port: int) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as answer:
        return bytes(answer.read())


def test_idle_connections_hold_no_thread_and_a_scrape_is_answered_meanwhile() -> None:
    live = metrics.LiveValues(lambda: [], lambda: True, dict, entries=lambda: 7)
    server = metrics.serve("127.0.0.1", 0, live)
    threads = threading.active_count()
    clients = []
    try:
        for n in range(300):
            client = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            if n % 2:
                client.sendall(b"GET /metr")  # half a request line, then nothing
            clients.append(client)
        # Accepted after all 300 (one listen queue, in order): each was taken in before it.
        assert b"glossary_entries 7.0" in scraped(server.port)
        assert threading.active_count() <= threads + metrics.ANSWERING
    finally:
        for client in clients:
            client.close()
        server.stop()


def test_past_max_waiting_the_oldest_idle_connection_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(metrics, "MAX_WAITING", 20)
    live = metrics.LiveValues(lambda: [], lambda: True, dict, entries=lambda: 7)
    server = metrics.serve("127.0.0.1", 0, live)
    clients = []
    try:
        for _ in range(40):
            clients.append(socket.create_connection(("127.0.0.1", server.port), timeout=30))
        assert b"glossary_entries 7.0" in scraped(server.port)
        assert clients[0].recv(100) == b""  # the oldest, let go
        clients[-1].sendall(b"GET /metrics HTTP/1.0\r\n\r\n")  # the newest still answered
        answer = b""
        while chunk := clients[-1].recv(65536):
            answer += chunk
        assert answer.startswith(b"HTTP/1.0 200"), answer[:80]
    finally:
        for client in clients:
            client.close()
        server.stop()
