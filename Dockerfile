# TriPeaks Online: one image for the web processes (Daphne) and one-off commands (migrate).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    STATIC_ROOT=/srv/static

WORKDIR /srv/app

# The whole project but what .dockerignore keeps out (tests, benches, caches, local databases).
# The site runs from this copy: manage.py and Daphne put /srv/app first on the import path, and
# templates and static files are read from here. `pip install .` brings the pinned dependencies
# (and puts the same packages in site-packages, unused while /srv/app comes first).
COPY . .

# collectstatic with the production settings the containers run with (the key signs nothing
# here): hashed names, rewritten imports and .gz copies in /srv/static (tripeaks_site/storage.py).
RUN pip install . \
    && useradd --system --home /srv/app tripeaks \
    && DEBUG=0 SECRET_KEY=collectstatic-signs-nothing python manage.py collectstatic --noinput

USER tripeaks
EXPOSE 8000

# Daphne behind the proxy: it trusts X-Forwarded-For/-Proto (for throttling and HTTPS), and cuts
# off oversized websocket messages before the application sees them.
CMD ["daphne", "--bind", "0.0.0.0", "--port", "8000", "--proxy-headers", \
     "--websocket-max-message-size", "16384", "--websocket-max-frame-size", "16384", \
     "--websocket_connect_timeout", "10", "tripeaks_site.asgi:application"]
