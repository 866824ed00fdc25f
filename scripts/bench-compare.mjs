// Browser benchmark for one change (not a test): two release builds of the page, A and B, on the four
// ~1 MB mixes in ONE headless Chromium page, interleaved call by call, next to JSON.parse and
// jsonrpc-lite — the before/after of an engine change measured in one run, free of the drift
// between two runs.
//   node scripts/bench-compare.mjs DIST_A DIST_B      (two `trunk build --release --dist …` outputs)
import { mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { mixes, quantile, serveDist } from './bench-support.mjs';
import { launch } from '../tests/e2e/support.mjs';

const [A, B] = process.argv.slice(2, 4).map((d) => resolve(d));
if (!A || !B) {
  console.error('usage: node scripts/bench-compare.mjs DIST_A DIST_B');
  process.exit(2);
}
const RUNS = Number(process.env.RUNS ?? 21);
const root = await mkdtemp(join(tmpdir(), 'bench-ab-'));
await symlink(A, join(root, 'a'));
await symlink(B, join(root, 'b'));
const { url, close } = await serveDist(root);
const browser = await launch();
const context = await browser.newContext({ bypassCSP: true });
const page = await context.newPage();
await page.goto(`${url}a/index.html`);
await page.waitForSelector('[data-testid=verdict]');
const liteModule = createRequire(import.meta.url).resolve('jsonrpc-lite/dist/esnext/jsonrpc.js');
await page.addScriptTag({ type: 'module', content: `${await readFile(liteModule, 'utf8')}\nglobalThis.jsonrpcLite = { parse };` });
await page.waitForFunction(() => globalThis.jsonrpcLite);
// B's glue and wasm, loaded beside A's (the page runs A).
const b = await page.evaluate(async (base) => {
  const html = await (await fetch(`${base}b/index.html`)).text();
  const entry = new DOMParser().parseFromString(html, 'text/html').querySelector('meta[name="app-entry"]').dataset;
  return { js: new URL(entry.js, `${base}b/`).href, wasm: new URL(entry.wasm, `${base}b/`).href };
}, url);

console.log(`A = ${A}\nB = ${B}\nmedian of ${RUNS} interleaved samples (5 calls each), one page:`);
console.log(`  ${'mix'.padEnd(14)} ${'A ms'.padStart(7)} ${'B ms'.padStart(7)} ${'B/A'.padStart(6)} ${'JSON.parse'.padStart(10)} ${'lite'.padStart(6)}  ${'A/parse'.padStart(7)} ${'B/parse'.padStart(7)} ${'A/lite'.padStart(6)} ${'B/lite'.padStart(6)}`);
for (const [mix, text] of Object.entries(mixes())) {
  const t = await page.evaluate(async ({ text, runs, bEntry }) => {
    const a = await import(document.querySelector('meta[name="app-entry"]').dataset.js);
    const b = await import(bEntry.js);
    if (!globalThis.bReady) {
      await b.default({ module_or_path: bEntry.wasm });
      globalThis.bReady = true;
    }
    const lite = globalThis.jsonrpcLite;
    const fns = { a: (s) => a.benchCheck(s), b: (s) => b.benchCheck(s), parse: (s) => JSON.parse(s).length, lite: (s) => lite.parse(s).length };
    const t = { a: [], b: [], parse: [], lite: [] };
    let sink = 0;
    for (let r = 0; r < runs + 2; r++) {
      for (const [name, f] of Object.entries(fns)) {
        const s = performance.now();
        for (let k = 0; k < 5; k++) sink += f(text);
        if (r >= 2) t[name].push((performance.now() - s) / 5);
      }
    }
    return { t, sink };
  }, { text, runs: RUNS, bEntry: b });
  const m = Object.fromEntries(Object.entries(t.t).map(([k, v]) => [k, quantile(v, 0.5)]));
  const f = (x, w = 7) => x.toFixed(2).padStart(w);
  console.log(`  ${mix.padEnd(14)} ${f(m.a)} ${f(m.b)} ${f(m.b / m.a, 6)} ${f(m.parse, 10)} ${f(m.lite, 6)}  ${f(m.a / m.parse)} ${f(m.b / m.parse)} ${f(m.a / m.lite, 6)} ${f(m.b / m.lite, 6)}`);
}
await context.close();
await browser.close();
close();
