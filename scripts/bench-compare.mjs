// Browser benchmark for one change (not a test): two release builds side by side in one headless
// Chromium, each in its own page, on the same generated ~1 MB batch as scripts/bench-browser.mjs.
// One round runs, in each page in turn, the wasm check, JSON.parse and jsonrpc-lite's parse(), so
// a slow moment of the machine hits both builds alike; ratios are taken within each page.
//   node scripts/bench-compare.mjs DIST_A DIST_B      (RUNS=N rounds, default 21)
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';
import { batchOf, quantile, serveDist } from './bench-support.mjs';
import { launch } from '../tests/e2e/support.mjs';

const dirs = process.argv.slice(2, 4).map((d) => resolve(d));
if (dirs.length !== 2) {
  console.error('usage: node scripts/bench-compare.mjs DIST_A DIST_B');
  process.exit(2);
}
const RUNS = Number(process.env.RUNS ?? 21);
const liteSource = await readFile(createRequire(import.meta.url).resolve('jsonrpc-lite/dist/esnext/jsonrpc.js'), 'utf8');
const text = batchOf(1_000_000);

const browser = await launch();
const sides = [];
for (const dir of dirs) {
  const server = await serveDist(dir);
  // The page's CSP forbids injected scripts; the benchmark (only) adds jsonrpc-lite to the page.
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict]');
  await page.addScriptTag({ type: 'module', content: `${liteSource}\nglobalThis.jsonrpcLite = { parse };` });
  await page.waitForFunction(() => globalThis.jsonrpcLite);
  await page.evaluate(async (t) => {
    const mod = await import(document.querySelector('meta[name="app-entry"]').dataset.js);
    globalThis.benchText = t;
    globalThis.benchRound = () => {
      const a = performance.now();
      let sink = mod.benchCheck(globalThis.benchText);
      const b = performance.now();
      sink += JSON.parse(globalThis.benchText).length;
      const c = performance.now();
      sink += globalThis.jsonrpcLite.parse(globalThis.benchText).length;
      const d = performance.now();
      return { wasm: b - a, parse: c - b, lite: d - c, sink };
    };
  }, text);
  sides.push({ dir, page, server, t: { wasm: [], parse: [], lite: [] }, sink: 0 });
}
for (let r = 0; r < RUNS + 2; r++) {
  for (const side of sides) {
    const one = await side.page.evaluate(() => globalThis.benchRound());
    side.sink = one.sink;
    if (r >= 2) for (const k of ['wasm', 'parse', 'lite']) side.t[k].push(one[k]);
  }
}
console.log(`1 MB batch (${text.length} bytes), medians of ${RUNS} interleaved rounds, one page per build:`);
for (const [i, side] of sides.entries()) {
  const [w, p, l] = ['wasm', 'parse', 'lite'].map((k) => quantile(side.t[k], 0.5));
  console.log(`  ${'AB'[i]} ${side.dir}: wasm ${w.toFixed(2)} ms, JSON.parse ${p.toFixed(2)} ms, jsonrpc-lite ${l.toFixed(2)} ms; wasm / JSON.parse = ${(w / p).toFixed(2)}, wasm / jsonrpc-lite = ${(w / l).toFixed(2)} (result ${side.sink})`);
}
const [a, b] = sides.map((s) => quantile(s.t.wasm, 0.5));
console.log(`  B / A (wasm) = ${(b / a).toFixed(2)}`);
await browser.close();
for (const side of sides) side.server.close();
