// The site's menu on a narrow screen: the button in the header opens and closes the links (a
// disclosure: aria-expanded says which). Escape, a click elsewhere or focus leaving the menu
// closes it; Escape gives focus back to the button. Where the links fit, CSS hides the button and
// shows them, and this module has nothing to do.

const OPEN_CLASS = "is-open";

/** Open or close `menu`, saying so on `button`. */
export function setMenuOpen(button, menu, open) {
  button.setAttribute("aria-expanded", String(open));
  menu.classList.toggle(OPEN_CLASS, open);
}

/** Wire the header's menu button to the links it controls. */
export function bindMenu(button, menu) {
  const isOpen = () => button.getAttribute("aria-expanded") === "true";
  button.addEventListener("click", () => setMenuOpen(button, menu, !isOpen()));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !isOpen()) return;
    setMenuOpen(button, menu, false);
    button.focus();
  });
  document.addEventListener("click", (event) => {
    if (isOpen() && !button.contains(event.target) && !menu.contains(event.target)) {
      setMenuOpen(button, menu, false);
    }
  });
  menu.addEventListener("focusout", (event) => {
    const next = event.relatedTarget;
    if (isOpen() && next && !menu.contains(next) && next !== button) {
      setMenuOpen(button, menu, false);
    }
  });
}

const menuButton = document.querySelector("[data-menu-button]");
const menu = document.querySelector("[data-menu]");
if (menuButton && menu) bindMenu(menuButton, menu);
