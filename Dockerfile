# TriPeaks Online: one image for the web processes (Daphne) and one-off commands (migrate).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    STATIC_ROOT=/srv/static

WORKDIR /srv/app

COPY pyproject.toml README.md ./
COPY tripeaks_site ./tripeaks_site
COPY game ./game
COPY accounts ./accounts
COPY leaderboard ./leaderboard
COPY templates ./templates
COPY static ./static
COPY manage.py ./

RUN pip install . \
    && useradd --system --home /srv/app tripeaks \
    && DEBUG=1 python manage.py collectstatic --noinput

USER tripeaks
EXPOSE 8000

# Daphne behind the proxy: it trusts X-Forwarded-For/-Proto (for throttling and HTTPS), and cuts
# off oversized websocket messages before the application sees them.
CMD ["daphne", "--bind", "0.0.0.0", "--port", "8000", "--proxy-headers", \
     "--websocket-max-message-size", "16384", "--websocket-max-frame-size", "16384", \
     "--websocket_connect_timeout", "10", "tripeaks_site.asgi:application"]
