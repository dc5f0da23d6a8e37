// TriPeaks Online's service worker (tripeaks_site/install.py): static files from the cache,
// pages from the network; the offline page, and the tutorial, when there is none.
const CACHE = "tripeaks-{{ version }}";
const FILES = {{ files|safe }};
const OFFLINE = "{{ offline }}";
// The scripts' catalog of a page not in English: kept once fetched, under its versioned address
// (core/script_catalog.py), so that the stored tutorial speaks the page's language offline.
const CATALOG = "{{ catalog }}";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlinePage(url)));
  } else if (FILES.includes(url.pathname)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  } else if (url.pathname === CATALOG && url.searchParams.has("v")) {
    event.respondWith(catalog(request));
  }
});

async function catalog(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const answer = await fetch(request);
  if (answer.ok) await cache.put(request, answer.clone());
  return answer;
}

async function offlinePage(url) {
  return (await caches.match(url.pathname)) || (await caches.match(OFFLINE));
}
