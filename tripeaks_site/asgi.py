"""ASGI entry point, served by Daphne: HTTP now, the game's websockets as they arrive."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks_site.settings")
django_asgi_app = get_asgi_application()

# Imported after Django is set up: these need the app registry.
from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

# In development Daphne serves the static files itself; in production the proxy does.
http_application = ASGIStaticFilesHandler(django_asgi_app) if settings.DEBUG else django_asgi_app

application = ProtocolTypeRouter({"http": http_application})
