// Starts the app without an inline script, so the page's Content-Security-Policy needs neither
// 'unsafe-inline' nor a hash. Trunk writes <meta name="app-entry"> (Trunk.toml `pattern_script`)
// with the hashed names of the wasm-bindgen JS and the .wasm.
const entry = document.querySelector('meta[name="app-entry"]').dataset;
const loading = document.querySelector('[data-testid=boot-status]');
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
// Offline after the first load: the service worker beside the app's files (src/ui/sw.js),
// found from the entry's address so it works wherever the files are served.
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register(new URL('sw.js', new URL(entry.js, location.href)))
    .catch((err) => console.warn('offline cache unavailable:', err.message));
}
