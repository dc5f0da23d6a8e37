"""The game's feel in a real browser: the floating "+N" of a play (a plain fade where motion is not
welcome) and the optional sound effects, off by default and kept in the browser, signed in or not.

The sounds are counted, not heard: an init script stands in for the Web Audio API's
AudioContext and counts the notes started.
"""

import pytest
from playwright.sync_api import Page, Request, expect

from tests.e2e.test_play import PLAYABLE, draw_until_something_fits, expect_seq, start_game
from tests.e2e.test_settings import SETTINGS_URL, make_player, open_game, open_settings, sign_in

# A stand-in AudioContext that counts the notes (oscillators) started, by wave type.
AUDIO_SPY = """
window.__notes = [];
class FakeParam {
  setValueAtTime() {}
  exponentialRampToValueAtTime() {}
}
class FakeNode {
  constructor() {
    this.frequency = new FakeParam();
    this.gain = new FakeParam();
  }
  connect(node) { return node; }
  start() { window.__notes.push(this.type); }
  stop() {}
}
window.AudioContext = class {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createOscillator() { return new FakeNode(); }
  createGain() { return new FakeNode(); }
};
"""


def notes(page: Page) -> int:
    return int(page.evaluate("window.__notes.length"))


@pytest.mark.usefixtures("transactional_db")
def test_sounds_are_off_until_turned_on_and_stay_in_the_browser(page: Page) -> None:
    page.add_init_script(AUDIO_SPY)
    start_game(page)
    seq = draw_until_something_fits(page)
    assert notes(page) == 0  # off by default: the draws made no sound
    open_settings(page)
    expect(page.get_by_label("Sound effects")).not_to_be_checked()

    page.get_by_label("Sound effects").check()
    page.locator(PLAYABLE).first.click()
    expect_seq(page, seq + 1)
    assert notes(page) > 0
    before = notes(page)
    page.keyboard.press("d")
    expect_seq(page, seq + 2)
    assert notes(page) > before
    assert page.evaluate("localStorage.getItem('tripeaks.sounds')") == "1"

    page.reload()
    expect_seq(page, seq + 2)
    open_settings(page)
    expect(page.get_by_label("Sound effects")).to_be_checked()


@pytest.mark.usefixtures("transactional_db")
def test_a_signed_in_players_sound_setting_stays_on_the_device(page: Page) -> None:
    """Sound effects belong to the device: toggling them sends nothing to the account."""
    posted: list[Request] = []
    page.on("request", lambda r: posted.append(r) if r.url.endswith(SETTINGS_URL) else None)
    user = make_player("quiet")
    sign_in(page, "quiet")
    open_game(page, user)
    open_settings(page)

    page.get_by_label("Sound effects").check()
    page.wait_for_timeout(200)

    assert posted == []
    assert page.evaluate("localStorage.getItem('tripeaks.sounds')") == "1"
    expect(page.locator("[data-settings-status]")).to_have_text("")


@pytest.mark.usefixtures("transactional_db")
def test_a_play_floats_its_points(page: Page) -> None:
    """A play floats "+N" over the waste; with reduced motion it only fades."""
    start_game(page)
    seq = draw_until_something_fits(page)
    page.locator(PLAYABLE).first.click()
    expect(page.locator(".points-float")).to_have_text("+10")
    expect(page.locator(".points-float")).not_to_have_class("points-float points-float--still")
    expect_seq(page, seq + 1)
    expect(page.locator(".points-float")).to_have_count(0, timeout=3000)  # gone after its rise

    page.emulate_media(reduced_motion="reduce")
    while page.locator(PLAYABLE).count() == 0:
        page.locator(".stock").click()
        seq += 1
        expect_seq(page, seq + 1)
    page.locator(PLAYABLE).first.click()
    expect(page.locator(".points-float")).to_have_class("points-float points-float--still")
