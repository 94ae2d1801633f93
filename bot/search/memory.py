"""Giving the memory of a finished build back to the operating system."""

from __future__ import annotations


def release_free_memory() -> None:
    """Return freed heap pages to the OS (glibc's `malloc_trim`; a no-op elsewhere).

    Building an index at 100k entries allocates ~100 MB of short-lived numpy and string
    temporaries; glibc keeps freed heap for reuse, so without this the process would stay
    that much larger for its whole life.
    """
    import ctypes  # here: a one-shot command that builds nothing big needs no ctypes

    try:  # the process's own symbols, libc's among them (find_library would run ldconfig)
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS)
        return
    trim(0)
