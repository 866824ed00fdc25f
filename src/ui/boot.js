// Starts the app without an inline script, so the page's Content-Security-Policy needs neither
// 'unsafe-inline' nor a hash. Trunk writes <meta name="app-entry"> (Trunk.toml `pattern_script`)
// with the hashed names of the wasm-bindgen JS and the .wasm.
const entry = document.querySelector('meta[name="app-entry"]').dataset;
const { default: init } = await import(entry.js);
await init({ module_or_path: entry.wasm });
dispatchEvent(new CustomEvent('TrunkApplicationStarted'));
