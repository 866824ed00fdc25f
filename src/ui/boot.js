// Starts the app without an inline script, so the page's Content-Security-Policy needs neither
// 'unsafe-inline' nor a hash. Trunk writes this module's <script> tag (Trunk.toml `pattern_script`)
// with the hashed names of the wasm-bindgen JS and the .wasm as data attributes.
const tag = document.querySelector('script[type="module"][data-js][data-wasm]');
const { default: init } = await import(tag.dataset.js);
await init({ module_or_path: tag.dataset.wasm });
dispatchEvent(new CustomEvent('TrunkApplicationStarted'));
