// The service worker that makes the web UI installable and quick to open: the page's own files (never the API)
// come from a cache first and are refreshed in the background, so a new version shows at the next load.
const CACHE = 'agentbus-ui-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(['/', '/style.css', '/js/app.js'])));
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE)
    .map((k) => caches.delete(k)))));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== location.origin || url.pathname.startsWith('/api/')
      || url.pathname.startsWith('/v1/') || url.pathname.startsWith('/ws')) {
    return;
  }
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const cached = await cache.match(event.request);
    const fresh = fetch(event.request).then((response) => {
      if (response.ok) {
        cache.put(event.request, response.clone());
      }
      return response;
    }).catch(() => cached);
    return cached || fresh;
  }));
});
