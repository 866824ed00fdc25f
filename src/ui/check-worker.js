// The checking worker (src/ui/worker.rs): checks a large text off the page's main thread with the
// same wasm as the page (its `workerCheck` export), so the page stays responsive while it works.
// The page sends { fp, text, profile, js, wasm }; the worker answers { fp, result } (or { fp, error }).
let app;
onmessage = async ({ data }) => {
  try {
    app ??= import(data.js).then(async (m) => {
      await m.default({ module_or_path: data.wasm });
      return m;
    });
    const m = await app;
    postMessage({ fp: data.fp, result: m.workerCheck(data.text, data.profile) });
  } catch (err) {
    postMessage({ fp: data.fp, error: String(err?.message ?? err) });
  }
};
