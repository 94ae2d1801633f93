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
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/glossary-bot.db
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin glossary \
    && mkdir -p /data && chown glossary /data
COPY --from=build /wheels /wheels
RUN python -m pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER glossary
WORKDIR /data
VOLUME ["/data"]
ENTRYPOINT ["glossary-bot"]
CMD ["run"]
