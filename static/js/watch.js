// The spectate app's pages: one bootstrap for the watch page's board and the live-now list (each
// does nothing where its element is absent).

import { startWatching } from "./watch-board.js";
import { startLiveNow } from "./watch-live.js";

startWatching(document.querySelector("[data-watch]"));
startLiveNow(document.querySelector("[data-live-now]"));
