# syntax=docker/dockerfile:1
# Glossary Bot: build wheels in one stage, run from a slim image as a non-root user.
ARG PYTHON_IMAGE=python:3.12-slim

FROM ${PYTHON_IMAGE} AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY data ./data
RUN python -m pip wheel --no-cache-dir --wheel-dir /wheels .

FROM ${PYTHON_IMAGE}
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
# The image's defaults, read beneath the environment and .env: a setting left empty in an
# --env-file (`HEARTBEAT_PATH=`, as in .env.example) falls back to these, not to nothing.
RUN mkdir -p /etc/glossary-bot \
    && printf 'DATABASE_PATH=/data/glossary-bot.db\nHEARTBEAT_PATH=/tmp/glossary-bot.heartbeat\n' \
        > /etc/glossary-bot/defaults.env
RUN groupadd --system --gid 10001 glossary \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin glossary \
    && mkdir -p /data && chown 10001:10001 /data
COPY --from=build /wheels /wheels
RUN python -m pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
# Healthy = connected to the gateway and the database writable: the bot keeps the heartbeat fresh.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["glossary-bot", "health"]
# Exec form: the bot is PID 1 and receives SIGTERM itself, so it flushes its counts.
ENTRYPOINT ["glossary-bot"]
CMD ["run"]
