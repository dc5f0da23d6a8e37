// The daily challenge's and leaderboards' pages: one bootstrap for the countdown to the next day,
// the live daily board and the share box (each does nothing where its element is absent).

import { startCountdowns } from "./countdown.js";
import { startDailyBoards } from "./daily-board.js";
import { startShareButtons } from "./share.js";

startCountdowns();
startDailyBoards();
startShareButtons();
