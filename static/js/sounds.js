// Optional sound effects, off unless the player turns them on (the "sounds" setting,
// settings.js): a tick for a card played, a soft flick for a draw, a little run of notes for a
// win. Synthesised with the Web Audio API on the spot: no sound file is fetched.

import { preference } from "./settings.js";

// Each sound: notes as [frequency in Hz, start in s, length in s], on one kind of wave.
const SOUNDS = {
  play: {
    wave: "triangle",
    volume: 0.18,
    notes: [
      [880, 0, 0.07],
      [1320, 0.03, 0.06],
    ],
  },
  draw: { wave: "sine", volume: 0.16, glide: 0.5, notes: [[420, 0, 0.12]] },
  win: {
    wave: "triangle",
    volume: 0.16,
    notes: [
      [523, 0, 0.14],
      [659, 0.12, 0.14],
      [784, 0.24, 0.14],
      [1047, 0.36, 0.35],
    ],
  },
};

let context = null;

/** The page's one audio context, made on first use (browsers start it only after a gesture). */
function audio() {
  if (context === null) {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** One note: a wave whose volume rises fast and dies away, bending down by `glide` if given. */
function note(ctx, { wave, volume, glide }, [frequency, start, length]) {
  const at = ctx.currentTime + start;
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = wave;
  oscillator.frequency.setValueAtTime(frequency, at);
  if (glide) oscillator.frequency.exponentialRampToValueAtTime(frequency * glide, at + length);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(at);
  oscillator.stop(at + length + 0.02);
}

/**
 * Play sound `name` ("play", "draw" or "win") if the player turned sounds on; say whether it
 * played.
 */
export function playSound(name) {
  const sound = SOUNDS[name];
  if (!sound || !preference("sounds")) return false;
  const ctx = audio();
  if (ctx === null) return false;
  for (const tone of sound.notes) note(ctx, sound, tone);
  return true;
}
