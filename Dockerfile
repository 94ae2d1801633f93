# syntax=docker/dockerfile:1
# Glossary Bot: install the locked dependencies (requirements/run.txt, hashed) and the bot into a
# virtual environment in one stage; copy that environment whole into the run stage, so no layer of
# the image holds bytes that its final filesystem does not (no wheel folder copied, then deleted).
# The base image is pinned by digest; README.md "Upgrading the base image" says how to move it.
ARG PYTHON_IMAGE=docker.io/library/python:3.12-slim@sha256:30b37263133e97092e6e967699dab5e53bf71843550e98f5830760c0f6e74ba9

FROM ${PYTHON_IMAGE} AS build
# SOURCE_DATE_EPOCH set: .pyc files are checked by hash rather than stamped with the install time,
# so two builds give the same bytes. Its value reaches no file of the image (podman build
# --timestamp sets their times), so this stage has a fixed one rather than the commit's: a new
# commit then reuses the dependencies' layers from podman's cache instead of reinstalling them.
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    SOURCE_DATE_EPOCH=0
# strip (binutils) stays in this stage; the Debian release is fixed by the base image's digest.
# hadolint ignore=DL3008
RUN apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends binutils >/dev/null \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Only the two files installed here: a change to the test or bench tools keeps this layer cached.
COPY requirements/build.txt requirements/run.txt ./requirements/
# The build backend lives in an environment of its own, which stays in this stage. The bot's
# environment gets no pip of its own: the build tools' pip installs into it (--python).
RUN python -m venv /opt/build-tools \
    && /opt/build-tools/bin/pip install --quiet --require-hashes -r requirements/build.txt \
    && python -m venv --without-pip /opt/glossary-bot \
    && /opt/build-tools/bin/pip --python /opt/glossary-bot/bin/python install --quiet \
        --require-hashes -r requirements/run.txt
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY data ./data
# Then what never runs here goes: the test suites shipped inside packages (numpy's alone is
# ~20 MB) and the debug symbols of the compiled libraries (~22 MB; asyncpg's 12 MB are 3 MB
# without them). Not from the libraries wheels vendor in `*.libs/`: patchelf rewrote those, and
# strip breaks them (numpy's OpenBLAS then fails to load), so every library is loaded once after.
# All of it in the stage that is copied whole, so no layer keeps the bytes.
RUN /opt/build-tools/bin/pip wheel --quiet --no-deps --no-build-isolation --wheel-dir /tmp/wheel . \
    && /opt/build-tools/bin/pip --python /opt/glossary-bot/bin/python install --quiet --no-deps \
        /tmp/wheel/*.whl \
    && find /opt/glossary-bot -depth -type d -name tests -path '*/site-packages/*' -exec rm -rf {} + \
    && find /opt/glossary-bot -type f -name '*.so*' -not -path '*.libs/*' \
        -exec strip --strip-unneeded {} + \
    && /opt/glossary-bot/bin/python -c "import ctypes, pathlib; \
[ctypes.CDLL(str(p)) for p in pathlib.Path('/opt/glossary-bot').rglob('*.so*')]"

FROM ${PYTHON_IMAGE}
# useradd dates the account by it, so this stage is the same from one day to the next too.
ARG SOURCE_DATE_EPOCH=0
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/glossary-bot/bin:$PATH
# The image's defaults, read beneath the environment and .env: a setting left empty in an
# --env-file (`HEARTBEAT_PATH=`, as in .env.example) falls back to these, not to nothing. The
# heartbeat beside the database on the volume: `health` run in another container of the volume
# reads it (a /tmp is each container's own), and a read-only root needs no tmpfs for it.
RUN mkdir -p /etc/glossary-bot \
    && printf 'DATABASE_PATH=/data/glossary-bot.db\nHEARTBEAT_PATH=/data/glossary-bot.heartbeat\n' \
        > /etc/glossary-bot/defaults.env
RUN groupadd --system --gid 10001 glossary \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin glossary \
    && mkdir -p /data && chown 10001:10001 /data
COPY --from=build /opt/glossary-bot /opt/glossary-bot
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
# Healthy = connected to the gateway and the database writable: the bot keeps the heartbeat fresh.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["glossary-bot", "health"]
# Exec form: the bot is PID 1 and receives SIGTERM itself, so it flushes its counts.
ENTRYPOINT ["glossary-bot"]
CMD ["run"]
