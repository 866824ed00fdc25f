// The offline cache (a service worker, registered by src/ui/boot.js; copied to dist/ by Trunk).
// After the first load the site works without the network: on install it caches the page and
// every same-origin file the page names (the hashed JS, wasm, CSS and boot script, under any
// --public-url); pages are then fetched network-first (a new build shows up when online) and
// files cache-first (their names are hashed, so a cached file never goes stale).
const CACHE = 'jsonrpc-playground-v1';
const SCOPE = self.registration.scope;

async function precache() {
  const cache = await caches.open(CACHE);
  const page = await fetch(SCOPE, { cache: 'reload' });
  if (!page.ok) throw new Error(`offline cache: ${SCOPE} answered HTTP ${page.status}`);
  const html = await page.clone().text();
  await cache.put(SCOPE, page);
  const files = new Set();
  for (const [, ref] of html.matchAll(/\s(?:href|src|data-js|data-wasm)="([^"#]+)"/g)) {
    const url = new URL(ref.replaceAll('&amp;', '&'), SCOPE);
    if (url.origin === self.location.origin && url.href !== SCOPE) files.add(url.href);
  }
  await cache.addAll([...files]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

async function fromNetworkThenCache(request) {
  try {
    const response = await fetch(request);
    if (response.ok) (await caches.open(CACHE)).put(SCOPE, response.clone());
    return response;
  } catch (err) {
    return (await caches.match(SCOPE)) ?? Response.error();
  }
}

async function fromCacheThenNetwork(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(request.mode === 'navigate' ? fromNetworkThenCache(request) : fromCacheThenNetwork(request));
});
