# The card table's web image: Daphne serving Django + Channels, static files by WhiteNoise.
# Build: docker build -t cardtable .   Run: see docker-compose.yml and docs/deploy.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, read from pyproject.toml so there is one list of them;
# this layer is rebuilt only when pyproject.toml changes.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY manage.py ./
COPY games ./games
COPY cardtable ./cardtable
COPY templates ./templates
COPY static ./static

# Static files are collected into the image; WhiteNoise serves them from there.
# collectstatic needs settings, not secrets: a throwaway key (DEBUG off, as at run time), no database.
RUN DEBUG=0 SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput

# Run as an unprivileged user; the app writes nothing to its own tree at run time.
RUN useradd --system --uid 10001 --home-dir /app cardtable
USER cardtable

ENV DEBUG=0 PORT=8000
EXPOSE 8000

# Migrations run on start (a no-op when the schema is current), then Daphne
# replaces the shell so it receives signals directly. Django's migrate takes no
# lock: when several web containers start at once, scale up after the first is
# healthy (docs/deploy.md) so only one of them migrates.
CMD ["sh", "-c", "python manage.py migrate --noinput && exec daphne --proxy-headers -b 0.0.0.0 -p \"$PORT\" cardtable.asgi:application"]
