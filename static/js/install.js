// Installable: the service worker (tripeaks_site/install.py) keeps the static files and an
// offline page; the page names its address (<meta name="service-worker">). Where service workers
// are missing (or blocked), the site works as before.
const worker = document.querySelector('meta[name="service-worker"]')?.content;
if (worker && "serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(worker).catch(() => {
      // Not installable here (a private window, an insecure origin): nothing else changes.
    });
  });
}
