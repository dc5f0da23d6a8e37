"""What every app of the site stands on, below the game itself: the websocket base and its close
codes, broadcasts through the channel layer, the channel layers, the database pool's options,
outages of the database and Redis, and the operators' metrics. It imports no app of the site."""
