// Benchmark (not a test): how long a first visit waits for its first verdict. Serves the release
// build gzip-encoded (compressed once at start, as static hosts serve it) from 127.0.0.1, opens it
// in a fresh headless Chromium context per run with the cache off, and measures, in the page, the
// time from the navigation's start (performance.now() = 0) to the first frame that shows the
// default sample's verdict card (`data-testid=verdict`).
//
//   node scripts/bench-first-verdict.mjs [DIST_DIR] [--runs N] [--no-throttle | --throttle-only] [--max-ms X]
//
//   DIST_DIR         the build to serve (default: $DIST, else dist/; `trunk build --release` makes it)
//   --runs N         runs per profile (default 3); each profile prints every run and the median
//   --no-throttle    only the unthrottled profile
//   --throttle-only  only the throttled profile (by default both are run, throttled first)
//   --max-ms X       exit 1 when the throttled median (the unthrottled one with --no-throttle) is over X ms
//
// The throttled profile (issue 27's "slow phone"), applied over CDP: Slow 4G
// (Network.emulateNetworkConditions: 1.6 Mbit/s down, 750 kbit/s up, 150 ms latency), the cache off
// (Network.setCacheDisabled) and a 4× CPU slowdown (Emulation.setCPUThrottlingRate 4). The unthrottled
// profile keeps only the cache off. Chromium is $CHROMIUM or /usr/bin/chromium (tests/e2e/support.mjs).
// Prints the dist's gzip total too: node's zlib at level 9, what is sent, ~0.8% more than GNU
// `gzip -9` in scripts/size.sh. Exits non-zero only on an error or a missed --max-ms.
//
// Where the time goes: each run also prints its phases, in ms from the navigation's start, and each
// profile their medians: `html` the page's HTML received; `wasm` the app's .wasm requested → received
// (its resource timing: the request starts from index.html's preload); `ready` the wasm compiled
// and instantiated (WebAssembly.instantiateStreaming's promise resolved: `streaming` says it compiled
// while downloading, as it does when the .wasm is served as application/wasm; `buffered` that
// it waited for the whole file); then the app's start (Leptos builds the first view) until the
// first verdict's frame.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveDist } from './bench-support.mjs';
import { launch } from '../tests/e2e/support.mjs';

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '3' },
    'no-throttle': { type: 'boolean', default: false },
    'throttle-only': { type: 'boolean', default: false },
    'max-ms': { type: 'string' },
  },
});
const RUNS = Number(options.runs);
const MAX_MS = options['max-ms'] === undefined ? null : Number(options['max-ms']);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs: expected a whole number ≥ 1, got ${options.runs}`);
if (MAX_MS !== null && !(MAX_MS > 0)) throw new Error(`--max-ms: expected a number of milliseconds, got ${options['max-ms']}`);
if (options['no-throttle'] && options['throttle-only']) throw new Error('--no-throttle and --throttle-only exclude each other');
const DIST = resolve(positionals[0] ?? process.env.DIST ?? 'dist');
if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no ${join(DIST, 'index.html')}: run trunk build --release first, or pass the dist folder`);

/** Slow 4G as bytes per second and milliseconds, the CPU slowdown as a factor. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };
const CPU_SLOWDOWN = 4;
/** Long enough for a first load on the throttled profile many times over. */
const VERDICT_TIMEOUT_MS = 120_000;

/** The middle value, or the mean of the two middle ones for an even count. */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** In the page before its own scripts: records performance.now() on the first animation frame after
 * a verdict card is in the document (the frame that paints it) as `__firstVerdictMs`. */
function watchFirstVerdict() {
  // When the app's wasm is ready (the first instantiation: the app's; workers have their own globals).
  for (const [name, how] of [['instantiateStreaming', 'streaming'], ['instantiate', 'buffered']]) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (...args) {
      const done = original.apply(this, args);
      done.then(() => (globalThis.__wasmReady ??= { ms: performance.now(), how }), () => {});
      return done;
    };
  }
  const seen = () => {
    if (!document.querySelector('[data-testid=verdict]')) return false;
    requestAnimationFrame((frameStart) => (globalThis.__firstVerdictMs = Math.max(frameStart, performance.now())));
    return true;
  };
  const observer = new MutationObserver(() => seen() && observer.disconnect());
  observer.observe(document, { childList: true, subtree: true });
}

/** The phases of the visit so far (see the header), in ms from the navigation's start. */
function phases() {
  const wasmUrl = new URL(document.querySelector('meta[name=app-entry]').dataset.wasm, location.href).href;
  const wasm = performance.getEntriesByType('resource').find((r) => r.name === wasmUrl);
  return {
    html: performance.getEntriesByType('navigation')[0]?.responseEnd,
    wasmStart: wasm?.startTime,
    wasmEnd: wasm?.responseEnd,
    ready: globalThis.__wasmReady?.ms,
    how: globalThis.__wasmReady?.how,
  };
}

/** One first visit in a fresh context: ms from navigation start to the first verdict's frame, and
 * the phases before it. */
async function firstVerdictMs(browser, url, throttled) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (throttled) {
      await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    }
    await page.addInitScript(watchFirstVerdict);
    await page.goto(url, { waitUntil: 'commit', timeout: VERDICT_TIMEOUT_MS });
    const ms = await page.waitForFunction(() => globalThis.__firstVerdictMs, null, { polling: 100, timeout: VERDICT_TIMEOUT_MS });
    return { ...(await page.evaluate(phases)), verdict: await ms.jsonValue() };
  } finally {
    await context.close();
  }
}

/** `html 170 · wasm 430→3330 (2900) · ready 3380 streaming · verdict 3660`. */
function phaseText(p) {
  const ms = (x) => (Number.isFinite(x) ? x.toFixed(0) : '?');
  return `html ${ms(p.html)} · wasm ${ms(p.wasmStart)}→${ms(p.wasmEnd)} (${ms(p.wasmEnd - p.wasmStart)}) · ready ${ms(p.ready)} ${p.how ?? '?'} · verdict ${ms(p.verdict)}`;
}

const profiles = [
  { name: 'throttled (Slow 4G 1.6 Mbit/s down, 750 kbit/s up, 150 ms; CPU 4x; cache off)', throttled: true },
  { name: 'unthrottled (cache off)', throttled: false },
].filter((p) => (p.throttled ? !options['no-throttle'] : !options['throttle-only']));

const server = await serveDist(DIST, { gzip: true });
let browser = null;
let failed = false;
try {
  browser = await launch();
  console.log(`first verdict: ${DIST} served gzip-encoded, ${(server.gzipBytes / 1024).toFixed(1)} KB gzipped in all; Chromium ${browser.version()}; ${RUNS} run(s) per profile`);
  for (const profile of profiles) {
    const visits = [];
    for (let run = 1; run <= RUNS; run++) {
      const visit = await firstVerdictMs(browser, server.url, profile.throttled);
      visits.push(visit);
      console.log(`  ${profile.throttled ? 'throttled  ' : 'unthrottled'} run ${run}: ${visit.verdict.toFixed(0)} ms (${phaseText(visit)})`);
    }
    const times = visits.map((v) => v.verdict);
    const middle = median(times);
    console.log(`${profile.name}: median ${middle.toFixed(0)} ms of ${RUNS} (runs: ${times.map((t) => t.toFixed(0)).join(', ')})`);
    const medians = Object.fromEntries(['html', 'wasmStart', 'wasmEnd', 'ready', 'verdict'].map((k) => [k, median(visits.map((v) => v[k] ?? NaN))]));
    console.log(`  phases, medians: ${phaseText({ ...medians, how: [...new Set(visits.map((v) => v.how))].join('/') })}; start to verdict ${(medians.verdict - medians.ready).toFixed(0)} ms`);
    if (MAX_MS !== null && profile === profiles[0] && middle > MAX_MS) {
      console.error(`first verdict: FAIL: the ${profile.throttled ? 'throttled' : 'unthrottled'} median ${middle.toFixed(0)} ms is over --max-ms ${MAX_MS}`);
      failed = true;
    }
  }
} finally {
  await browser?.close();
  server.close();
}
if (failed) process.exitCode = 1;
