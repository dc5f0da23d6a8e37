// The running clock: how long the game has taken, from the server's started_at.

/**
 * Milliseconds as "4:07" or "1:02:09": whole seconds elapsed, rounded down, as a clock shows
 * them. The one rule for a game's time on every page: the server writes boards and results by it
 * too (core.formats.game_time; tests/core/test_formats.py holds the two together).
 */
export function formatDuration(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`;
  return `${minutes}:${seconds}`;
}

export class Clock {
  /**
   * `serverOffset` is the server's clock minus this browser's, in milliseconds, so that a wrong
   * clock on the player's machine does not show a wrong time.
   */
  constructor(element, serverOffset = 0) {
    this.element = element;
    this.serverOffset = serverOffset;
    this.startedAt = null;
    this.finishedAt = null;
    this.timer = 0;
  }

  /** Show the time from `startedAt` (ISO) to `finishedAt`, or to now while it is null. */
  set(startedAt, finishedAt) {
    this.startedAt = startedAt ? Date.parse(startedAt) : null;
    this.finishedAt = finishedAt ? Date.parse(finishedAt) : null;
    window.clearTimeout(this.timer);
    this.tick();
  }

  elapsed() {
    if (this.startedAt === null) return 0;
    const end = this.finishedAt ?? Date.now() + this.serverOffset;
    return end - this.startedAt;
  }

  tick() {
    const elapsed = this.elapsed();
    this.element.textContent = formatDuration(elapsed);
    if (this.startedAt !== null && this.finishedAt === null) {
      // Wake just after the next whole second, so the display never skips one.
      this.timer = window.setTimeout(() => this.tick(), 1000 - (elapsed % 1000) + 20);
    }
  }
}
