// The checking worker (src/web/page/checking.rs): checks a large text off the page's main thread with the
// same wasm as the page (its `workerCheck` export), so the page stays responsive while it works.
// The page sends { request, text }: `request` is JSON (CheckRequest: fp, profile, js, wasm), `text`
// the text itself. The worker answers with JSON (CheckAnswer): { fp, analysis } or { fp, error }.
let app;
onmessage = async ({ data }) => {
  let fp = null;
  try {
    const request = JSON.parse(data.request);
    fp = request.fp;
    app ??= import(request.js).then(async (m) => {
      await m.default({ module_or_path: request.wasm });
      return m;
    });
    const m = await app;
    postMessage(m.workerCheck(data.request, data.text));
  } catch (err) {
    postMessage(JSON.stringify({ fp, error: String(err?.message ?? err) }));
  }
};
