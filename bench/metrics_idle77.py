"""product77: what idle connections to the metrics endpoint cost the bot's process.

Opens N connections to `bot.metrics.serve` (half of them send half a request line, the rest
nothing), scrapes once while they are held, and prints the threads and the RSS grown, and how
long the scrape took. Run against main and a branch by PYTHONPATH:
    OPENBLAS_NUM_THREADS=1 PYTHONPATH=$PWD python bench/metrics_idle77.py 3000
"""

from __future__ import annotations

import resource
import socket
import sys
import threading
import time
import urllib.request
from pathlib import Path

from bot import metrics


def rss_mb() -> float:
    with Path("/proc/self/status").open() as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * count + 100)), hard))
    live = metrics.LiveValues(lambda: [], lambda: True, dict, entries=lambda: 0)
    server = metrics.serve("127.0.0.1", 0, live)
    threads, rss = threading.active_count(), rss_mb()
    clients = []
    for n in range(count):
        client = socket.create_connection(("127.0.0.1", server.port))
        if n % 2:
            client.sendall(b"GET /metr")
        clients.append(client)
    started = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics", timeout=30) as answer:
        ok = answer.status == 200
    took = time.perf_counter() - started
    time.sleep(0.5)  # a bench, not a test: let the accept loop settle before counting
    print(
        f"{count} idle connections: +{threading.active_count() - threads} threads, "
        f"+{rss_mb() - rss:.0f} MB RSS; a scrape meanwhile {'answered' if ok else 'FAILED'} "
        f"in {took * 1000:.0f} ms"
    )
    for client in clients:
        client.close()
    server.stop()


if __name__ == "__main__":
    main()
