// The loader of the page's worker binaries (a module worker the page starts on first use): the
// Probe's (src/ui/link/probe/worker.rs), the API's (src/api.rs, src/ui/api/runner.rs) and the mock's
// (src/ui/exchange/mock_worker.rs, src/ui/lazy_worker.rs). Its first message, {"request":"load","js":…,"wasm":…} (JSON), names the worker's own
// wasm-bindgen glue and wasm; once they are loaded, the wasm's main takes the messages over and
// answers {"event":"ready"}. Files that do not load are said: {"event":"unavailable","reason":…}.
onmessage = async ({ data }) => {
  try {
    const { js, wasm } = JSON.parse(data);
    const { default: init } = await import(js);
    await init({ module_or_path: wasm });
  } catch (err) {
    postMessage(JSON.stringify({ event: 'unavailable', reason: String(err?.message ?? err) }));
  }
};
