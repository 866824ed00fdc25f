// Starts the app without an inline script, so the page's Content-Security-Policy needs neither
// 'unsafe-inline' nor a hash. Trunk writes <meta name="app-entry"> (Trunk.toml `pattern_script`)
// with the hashed names of the wasm-bindgen JS and the .wasm.
const entry = document.querySelector('meta[name="app-entry"]').dataset;
const loading = document.querySelector('[data-testid=boot-status]');
// The views loaded later (the teaching views: reference, quiz, lessons; the link panel's Probe;
// the API panel's body; the log pane's rows), a second wasm module loaded once, on the first use
// of one of them: src/web/page/router.rs, src/web/page/probe_host.rs, src/web/page/api/panel.rs and
// src/web/page/log_rows.rs ask with a `views:load` event on their host, the module is loaded
// (once for every host; again, under a new address, only after it failed: a module that failed
// to load is never fetched again under its own) and mounted into that host, and a file that does
// not load or is not the build's (release builds: SRI hashes in data-views-integrity-*, written
// by scripts/post-build.mjs; the glue is checked by a modulepreload before it is imported) is
// said with `views:unavailable` (src/web/kit/views_port.rs).
const preload = (href, integrity) => new Promise((loaded, failed) => {
  const link = Object.assign(document.createElement('link'), { rel: 'modulepreload', href });
  if (integrity) link.integrity = integrity;
  link.onload = loaded;
  link.onerror = () => failed(new Error(`${href.split('/').pop()} did not load or is not this build's`));
  document.head.append(link);
});
// A load that is not done within the timeout (30 s; a build or a host may set another in
// milliseconds in <meta name="app-entry" data-views-timeout-ms>, read at each load) is said as
// failed, with the Retry; what it was still fetching is dropped.
const VIEWS_TIMEOUT_MS = 30000;
let failedLoads = 0;
const loadViews = () => {
  const ms = Number(entry.viewsTimeoutMs) || VIEWS_TIMEOUT_MS;
  const abandon = new AbortController();
  let timer;
  const late = new Promise((_, failed) => {
    timer = setTimeout(() => {
      abandon.abort();
      failed(new Error(`it did not load within ${ms / 1000} s`));
    }, ms);
  });
  const load = (async () => {
    const again = failedLoads ? `?attempt=${failedLoads}` : '';
    const js = entry.lazyViewsJs + again;
    await preload(js, entry.viewsIntegrityJs);
    const views = await import(js);
    const wasm = fetch(entry.lazyViewsWasm + again, { integrity: entry.viewsIntegrityWasm ?? '', signal: abandon.signal });
    await views.default({ module_or_path: wasm });
    return views;
  })();
  // A load that ends after its timeout is dropped, its failure too.
  load.catch(() => {});
  return Promise.race([load, late]).finally(() => clearTimeout(timer));
};
let views; // the module's loading, shared by the hosts (forgotten when it fails)
addEventListener('views:load', async ({ target: host }) => {
  try {
    views ??= loadViews().catch((err) => {
      views = undefined;
      failedLoads += 1;
      throw err;
    });
    (await views).mount(host);
  } catch (err) {
    host.dispatchEvent(new CustomEvent('views:unavailable', { detail: String(err?.message ?? err) }));
  }
});
try {
  const { default: init } = await import(entry.js);
  await init({ module_or_path: entry.wasm });
  loading?.remove();
  dispatchEvent(new CustomEvent('TrunkApplicationStarted'));
} catch (err) {
  loading?.remove();
  // A browser without WebAssembly or a file that did not load: say so instead of leaving the page blank.
  const p = document.createElement('p');
  p.setAttribute('role', 'alert');
  p.dataset.testid = 'boot-error';
  p.textContent = `The playground could not start in this browser: ${err?.message ?? err}. ` +
    'It needs a browser with WebAssembly (Chrome, Edge, Firefox or Safari from 2021 on) and the site\'s files reachable.';
  document.body.append(p);
}
// Offline after the first load: the service worker beside the app's files (src/web/js/sw.js),
// found from the entry's address so it works wherever the files are served.
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register(new URL('sw.js', new URL(entry.js, location.href)))
    .catch((err) => console.warn('offline cache unavailable:', err.message));
}
