# The fairwitness GitHub Action. GitHub mounts the workspace and sets the working directory, so
# there is no WORKDIR; it runs as root (no USER) because the workspace belongs to the runner's
# user, and the entrypoint hands every file it writes there back to the workspace's owner.
FROM python:3.12-slim-bookworm

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

# git: the baseline can be a report committed on the base branch (git show, shallow fetch).
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/* \
    && git config --system --add safe.directory '*'

COPY . /tmp/fairwitness-src
RUN pip install --no-cache-dir /tmp/fairwitness-src \
    && cp /tmp/fairwitness-src/entrypoint.py /entrypoint.py \
    && rm -rf /tmp/fairwitness-src

ENTRYPOINT ["python", "/entrypoint.py"]
