// The loader of the page's worker binaries (a module worker the page starts on first use): the
// mock's, the API's, the Probe's and the live link's (src/web/kit/lazy_worker.rs starts them; each
// binary's main is src/web/workers/port.rs). Its first message, the envelope {"load":{"js":…,"wasm":…}}
// (src/wire/envelope.rs), names the worker's own wasm-bindgen glue and wasm; once they are loaded,
// the wasm's main takes the messages over and says "ready". Files that do not load are said:
// {"unavailable":{"reason":…}}.
onmessage = async ({ data }) => {
  try {
    const { js, wasm } = JSON.parse(data).load;
    const { default: init } = await import(js);
    await init({ module_or_path: wasm });
  } catch (err) {
    postMessage(JSON.stringify({ unavailable: { reason: String(err?.message ?? err) } }));
  }
};
