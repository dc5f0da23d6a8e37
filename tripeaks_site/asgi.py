"""ASGI entry point, served by Daphne: HTTP pages and the game's websockets."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks_site.settings")
django_asgi_app = get_asgi_application()

# Imported after Django is set up: these need the app registry.
from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from core.sockets import websocket_stack  # noqa: E402
from game.routing import websocket_urlpatterns as game_websockets  # noqa: E402
from leaderboard.routing import websocket_urlpatterns as leaderboard_websockets  # noqa: E402
from races.routing import websocket_urlpatterns as race_websockets  # noqa: E402
from spectate.routing import websocket_urlpatterns as spectate_websockets  # noqa: E402
from tripeaks_site.background import start_with_the_server  # noqa: E402
from tripeaks_site.routing import websocket_router  # noqa: E402

websocket_routes = [
    *game_websockets,
    *leaderboard_websockets,
    *race_websockets,
    *spectate_websockets,
]

# In development Daphne serves the static files itself; in production the proxy does.
http_application = ASGIStaticFilesHandler(django_asgi_app) if settings.DEBUG else django_asgi_app

application = ProtocolTypeRouter(
    {
        "http": http_application,
        "websocket": websocket_stack(websocket_router(websocket_routes)),
    }
)

start_with_the_server()

# Everything loaded so far (Django, the apps, their modules: some 150,000 objects) lives as long as
# the process. Frozen, it is left out of the cycle collector's full passes, which took about 80 ms
# of the event loop each under the move bench's load (17 ms frozen), every socket waiting meanwhile.
gc.freeze()
# A move makes and drops a few hundred containers (frames, dicts, the engine's state), nearly all
# freed by their reference counts; yet with the default young generation (700 objects) the cycle
# collector ran every 30 moves or so. In three back-to-back pairs of one 15 s move phase of
# bench/moves.py at N = 200, its passes over the process's life took 930-990 ms with 700 (the
# longest 52-72 ms) and 160-190 ms with 10,000, nearly all of that while starting up, before this
# line; Daphne's CPU per move went from 678, 620 and 605 µs to 595, 612 and 593, its memory the
# same (103 MB).
gc.set_threshold(10_000, 10, 10)
