// Benchmark (not a test): a learner's whole first visit, step by step, on a slow phone. Serves the
// release build gzip-encoded from 127.0.0.1 (scripts/bench-support.mjs) and walks it in a fresh
// headless Chromium context per run, cache off, phone viewport, under the throttled profile of
// scripts/bench-first-verdict.mjs (Slow 4G: 1.6 Mbit/s down, 750 kbit/s up, 150 ms; CPU 4x):
//
//   verdict   navigation start → the first frame with the sample's verdict card
//   lesson    `#/lessons/1` → lesson 1 shown with its Run button (the views' module loads)
//   run       lesson 1's Run → its first reply shown (the mock's worker loads)
//   mcp       `#/lessons/6` and its Run → its first reply shown (an MCP lesson: the MCP mock)
//
// Each step is timed from the end of the one before (the user acts at once); the path is their sum.
// Every step also says the bytes it transferred (the page's and the workers' requests, compressed,
// as Chromium counts them).
//
//   node scripts/bench-journey.mjs [DIST_DIR] [--runs N] [--no-throttle] [--max-ms X]
//
//   DIST_DIR       the build to serve (default: $DIST, else dist/; `trunk build --release` makes it)
//   --runs N       runs (default 3); prints every run and the medians
//   --no-throttle  without the network and CPU throttling (cache still off)
//   --max-ms X     exit 1 when the path's median is over X ms
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
    'max-ms': { type: 'string' },
  },
});
const RUNS = Number(options.runs);
const MAX_MS = options['max-ms'] === undefined ? null : Number(options['max-ms']);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs: expected a whole number ≥ 1, got ${options.runs}`);
if (MAX_MS !== null && !(MAX_MS > 0)) throw new Error(`--max-ms: expected a number of milliseconds, got ${options['max-ms']}`);
const DIST = resolve(positionals[0] ?? process.env.DIST ?? 'dist');
if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no ${join(DIST, 'index.html')}: run trunk build --release first, or pass the dist folder`);

/** Slow 4G's download, shaped by the server (bench-support.mjs `shaped`). */
const SLOW_4G = { latencyMs: 150, bytesPerSecond: 1.6e6 / 8 };
const CPU_SLOWDOWN = 4;
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
/** Each step's deadline: a step that passes it fails the run with its name. */
const STEP_TIMEOUT_MS = 120_000;
const STEPS = ['verdict', 'lesson', 'run', 'mcp'];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** In the page before its scripts: the first frame with a verdict card, as `__firstVerdictMs`. */
function watchFirstVerdict() {
  const seen = () => {
    if (!document.querySelector('[data-testid=verdict]')) return false;
    requestAnimationFrame((frameStart) => (globalThis.__firstVerdictMs = Math.max(frameStart, performance.now())));
    return true;
  };
  const observer = new MutationObserver(() => seen() && observer.disconnect());
  observer.observe(document, { childList: true, subtree: true });
}

/** ms of the page's clock once `selector` matches (and, with `count`, more than `count` match). */
async function when(page, step, selector, count = 0) {
  const done = await page
    .waitForFunction(
      ([s, n]) => document.querySelectorAll(s).length > n && performance.now(),
      [selector, count],
      { polling: 'raf', timeout: STEP_TIMEOUT_MS },
    )
    .catch((e) => {
      throw new Error(`step ${step}: ${selector} did not show within ${STEP_TIMEOUT_MS} ms (${e.message.split('\n')[0]})`);
    });
  return done.jsonValue();
}

/** One visit in a fresh context: each step's ms and bytes. */
async function journey(browser, url, throttled) {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (throttled) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    // The page's and its workers' requests (a worker's fetch is the context's too).
    let bytes = 0;
    context.on('requestfinished', async (request) => {
      const sizes = await request.sizes().catch(() => null);
      if (sizes) bytes += sizes.responseBodySize + sizes.responseHeadersSize;
    });
    await page.addInitScript(watchFirstVerdict);
    const steps = {};
    const mark = async (name, endMs, startMs) => {
      // Let the step's last responses be counted.
      await new Promise((r) => setTimeout(r, 50));
      steps[name] = { ms: endMs - startMs, bytes };
      bytes = 0;
    };
    await page.goto(url, { waitUntil: 'commit', timeout: STEP_TIMEOUT_MS });
    const verdict = await (await page.waitForFunction(() => globalThis.__firstVerdictMs, null, { polling: 100, timeout: STEP_TIMEOUT_MS })).jsonValue();
    await mark('verdict', verdict, 0);
    let start = await page.evaluate(() => ((location.hash = '#/lessons/1'), performance.now()));
    const lesson = await when(page, 'lesson', '[data-testid=lesson][data-lesson] [data-testid=lesson-run]');
    await mark('lesson', lesson, start);
    start = await page.evaluate(() => performance.now());
    await page.click('[data-testid=lesson-run]');
    const run = await when(page, 'run', '[data-testid=lesson-reply]');
    await mark('run', run, start);
    start = await page.evaluate(() => ((location.hash = '#/lessons/6'), performance.now()));
    await when(page, 'mcp', '[data-testid=lesson][data-lesson=mcp] [data-testid=lesson-run]');
    await page.click('[data-testid=lesson-run]');
    const mcp = await when(page, 'mcp', '[data-testid=lesson][data-lesson=mcp] [data-testid=lesson-reply]');
    await mark('mcp', mcp, start);
    return steps;
  } finally {
    await context.close();
  }
}

const line = (steps) =>
  STEPS.map((s) => `${s} ${steps[s].ms.toFixed(0)} ms (${(steps[s].bytes / 1024).toFixed(0)} KB)`).join(' → ') +
  ` = ${STEPS.reduce((t, s) => t + steps[s].ms, 0).toFixed(0)} ms`;

const throttled = !options['no-throttle'];
const server = await serveDist(DIST, { gzip: true, shaped: throttled ? SLOW_4G : null });
let browser = null;
try {
  browser = await launch();
  console.log(`journey: ${DIST} served gzip-encoded (${(server.gzipBytes / 1024).toFixed(1)} KB gzipped in all); Chromium ${browser.version()}; phone viewport; ${throttled ? 'Slow 4G, CPU 4x' : 'unthrottled'}; cache off; ${RUNS} run(s)`);
  const runs = [];
  for (let run = 1; run <= RUNS; run++) {
    const steps = await journey(browser, server.url, throttled);
    runs.push(steps);
    console.log(`  run ${run}: ${line(steps)}`);
  }
  const medians = Object.fromEntries(STEPS.map((s) => [s, { ms: median(runs.map((r) => r[s].ms)), bytes: median(runs.map((r) => r[s].bytes)) }]));
  const paths = runs.map((r) => STEPS.reduce((t, s) => t + r[s].ms, 0));
  const path = median(paths);
  console.log(`medians: ${line(medians)}`);
  console.log(`path (first verdict → lesson 1 → its Run → lesson 6's Run): median ${path.toFixed(0)} ms of ${RUNS} (runs: ${paths.map((p) => p.toFixed(0)).join(', ')})`);
  if (MAX_MS !== null && path > MAX_MS) {
    console.error(`journey: FAIL: the path's median ${path.toFixed(0)} ms is over --max-ms ${MAX_MS}`);
    process.exitCode = 1;
  }
} finally {
  await browser?.close();
  server.close();
}
