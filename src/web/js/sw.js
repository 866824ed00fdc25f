// The offline cache (a service worker, registered by src/web/js/boot.js; copied to dist/ by Trunk).
// After the first load the site works without the network: on install it caches the page and
// every same-origin file the page loads at start (the hashed JS, wasm, CSS and boot script, under
// any --public-url), the mock server's worker with its loader (Send and a lesson's Run work
// offline; the page itself fetches them only on the first Send or Run), the live link's worker
// (data-lazy-link-*: a link to a server on this machine works offline; the page fetches it on
// the first Connect), the teaching views'
// module (data-lazy-views-*: the page loads it on the first open of the reference, lessons,
// quiz, the Probe or the API panel, or when the log first has an entry) and the teaching text
// (data-lazy-teaching, ~12 KB gzipped: the page fetches it on the first open of the reference,
// lessons or quiz; cached at install, after the app started, those views open offline even when
// the first visit never opened one, or opened one before this worker controlled the page), and the
// examples' texts (data-lazy-examples, fetched on the first pick from the Examples menu). The files of the other
// workers the page starts on first use (the Probe's, the API's, the mock's under MCP with its
// JSON Schema engine: named in data-lazy-* of <meta name="app-entry">) are cached when first
// fetched, not at install: a visitor who never probes never downloads them (Send under MCP works
// offline once it has worked online). Pages are then fetched network-first (a new
// build shows up when online; the files of older builds are dropped from the cache) and files
// cache-first (their names are hashed, so a cached file never goes stale).
const CACHE = 'jsonrpc-playground-v1';
const SCOPE = self.registration.scope;

/** The attributes naming the files cached at install, and those naming every file of the build. */
const AT_INSTALL = 'href|src|data-js|data-wasm|data-worker|data-lazy-worker-boot|data-lazy-mock-js|data-lazy-mock-wasm|data-lazy-link-js|data-lazy-link-wasm|data-lazy-views-js|data-lazy-views-wasm|data-lazy-teaching|data-lazy-examples';
const ANY = 'href|src|data-js|data-wasm|data-worker|data-lazy-[a-z-]+';

/** The same-origin files the page's HTML names in the attributes `attributes`. */
function filesOf(html, attributes) {
  const files = new Set();
  const names = new RegExp(`\\s(?:${attributes})=(?:"([^"#]+)"|([^\\s"'>#]+))`, 'g');
  // The release HTML is minified: attribute values are quoted or bare.
  for (const [, quoted, bare] of html.matchAll(names)) {
    const url = new URL((quoted ?? bare).replaceAll('&amp;', '&'), SCOPE);
    if (url.origin === self.location.origin && url.href !== SCOPE) files.add(url.href);
  }
  return files;
}

async function precache() {
  const cache = await caches.open(CACHE);
  const page = await fetch(SCOPE, { cache: 'reload' });
  if (!page.ok) throw new Error(`offline cache: ${SCOPE} answered HTTP ${page.status}`);
  const files = filesOf(await page.clone().text(), AT_INSTALL);
  await cache.put(SCOPE, page);
  await cache.addAll([...files]);
}

/** Keeps the page `html` and its files; drops what an older build named. */
async function prune(html) {
  const keep = filesOf(html, ANY);
  const cache = await caches.open(CACHE);
  for (const request of await cache.keys()) {
    if (request.url !== SCOPE && !keep.has(request.url)) await cache.delete(request);
  }
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

async function fromNetworkThenCache(event) {
  try {
    const response = await fetch(event.request);
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil((async () => {
        const html = await copy.clone().text();
        await (await caches.open(CACHE)).put(SCOPE, copy);
        await prune(html);
      })());
    }
    return response;
  } catch (err) {
    return (await caches.match(SCOPE)) ?? Response.error();
  }
}

/** Where the cache keeps `request`'s file: a Retry of the teaching views' module asks for its
 * files as `NAME?attempt=N` (src/web/js/boot.js: a module that failed to load is never fetched again
 * under its own address), the same file as `NAME`, so both are one entry (offline, a Retry finds
 * the files the install cached). Any other query is another resource. */
function cacheKey(request) {
  const url = new URL(request.url);
  const names = [...url.searchParams.keys()];
  if (names.length !== 1 || names[0] !== 'attempt') return request;
  url.search = '';
  return url.href;
}

async function fromCacheThenNetwork(request) {
  const key = cacheKey(request);
  const hit = await caches.match(key);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) (await caches.open(CACHE)).put(key, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(request.mode === 'navigate' ? fromNetworkThenCache(event) : fromCacheThenNetwork(request));
});
