// Benchmark tool (not a test): where the page's start goes, from the app's wasm being ready to the
// frame that paints the first verdict (the bench's "start to verdict", scripts/bench-first-verdict.mjs).
// Serves the release build gzip-encoded as the bench does, loads it in a fresh headless Chromium
// context per run under the same throttled profile (Slow 4G, 4× CPU slowdown, cache off), and
// records that window twice:
//   - a V8 CPU profile (console.profile at the wasm's instantiation, console.profileEnd in the
//     verdict's frame; Profiler.setSamplingInterval --interval µs): self time per function,
//     grouped as wasm (by crate: the first segment of the function's name), the JS glue, other
//     JS, the garbage collector and "(program)" (the browser's own work: style, layout, paint);
//   - a trace (Tracing, devtools.timeline): the renderer main thread's style recalculations,
//     layouts (those inside a script call are forced by it), paints and GCs in the same window,
//     and how much of the window the thread was busy.
// Times are per run, averaged over the runs (the CPU slowdown included: they are the slow
// phone's milliseconds).
//
//   node scripts/profile-start.mjs [DIST_DIR] [--runs N] [--top N] [--interval US] [--named DIR] [--no-throttle]
//
//   DIST_DIR       the build (default: $DIST, else dist/)
//   --runs N       runs (default 3)
//   --top N        functions listed (default 15)
//   --interval US  the profiler's sampling interval in microseconds (default 100)
//   --named DIR    the page's wasm with function names: DIR holds named.wasm and
//                  bindgen/jsonrpc-playground.js as `bash scripts/size-twiggy.sh DIR` leaves them
//                  (built from the same cargo output as the dist). A copy of the dist is served with
//                  these two in place of the page's wasm and glue and without integrity attributes.
//                  Without it the wasm's functions are V8's `$func123`.
//   --no-throttle  the unthrottled profile (cache off only)
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveDist } from './bench-support.mjs';
import { launch } from '../tests/e2e/support.mjs';

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '3' },
    top: { type: 'string', default: '15' },
    interval: { type: 'string', default: '100' },
    named: { type: 'string' },
    'no-throttle': { type: 'boolean', default: false },
  },
});
const RUNS = Number(options.runs);
const TOP = Number(options.top);
const INTERVAL_US = Number(options.interval);
for (const [name, n] of [['runs', RUNS], ['top', TOP], ['interval', INTERVAL_US]]) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: expected a whole number ≥ 1, got ${options[name]}`);
}
const SOURCE = resolve(positionals[0] ?? process.env.DIST ?? 'dist');
if (!existsSync(join(SOURCE, 'index.html'))) throw new Error(`no ${join(SOURCE, 'index.html')}: run trunk build --release first, or pass the dist folder`);

/** The same profile as scripts/bench-first-verdict.mjs. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };
const CPU_SLOWDOWN = 4;
const VERDICT_TIMEOUT_MS = 120_000;
/** The page's crate in the wasm's function names. */
const OWN_CRATE = 'jsonrpc_playground::';
const TRACE_CATEGORIES = 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,v8';

/** The dist to serve: SOURCE, or with --named a copy with the named wasm and its glue. */
function distToServe() {
  if (!options.named) return { dir: SOURCE, done: () => {} };
  const named = resolve(options.named);
  const [wasm, glue] = [join(named, 'named.wasm'), join(named, 'bindgen', 'jsonrpc-playground.js')];
  for (const f of [wasm, glue]) if (!existsSync(f)) throw new Error(`--named: no ${f} (bash scripts/size-twiggy.sh ${options.named})`);
  const dir = mkdtempSync(join(tmpdir(), 'profile-start-'));
  cpSync(SOURCE, dir, { recursive: true });
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const entry = /<meta [^>]*app-entry[^>]*>/.exec(html)?.[0];
  const name = (attr) => new RegExp(`${attr}="?\\./([^" >]+)`).exec(entry ?? '')?.[1];
  const [pageWasm, pageJs] = [name('data-wasm'), name('data-js')];
  if (!pageWasm || !pageJs) throw new Error('index.html: no <meta name="app-entry" data-js data-wasm>');
  cpSync(wasm, join(dir, pageWasm));
  cpSync(glue, join(dir, pageJs));
  writeFileSync(join(dir, 'index.html'), html.replace(/ integrity="?[^" >]+"?/g, ''));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** In the page before its own scripts: the CPU profile and the trace's marks span the window from
 * the app's wasm instantiated to the frame that paints the first verdict card. */
function markWindow() {
  let started = false;
  for (const name of ['instantiateStreaming', 'instantiate']) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (...args) {
      const done = original.apply(this, args);
      done.then(() => {
        if (started) return;
        started = true;
        performance.mark('start:ready');
        console.profile('start');
      }, () => {});
      return done;
    };
  }
  const seen = () => {
    if (!document.querySelector('[data-testid=verdict]')) return false;
    requestAnimationFrame(() => {
      console.profileEnd('start');
      performance.mark('start:verdict');
      globalThis.__windowMs = performance.getEntriesByName('start:verdict')[0].startTime - performance.getEntriesByName('start:ready')[0].startTime;
    });
    return true;
  };
  const observer = new MutationObserver(() => seen() && observer.disconnect());
  observer.observe(document, { childList: true, subtree: true });
}

/** Self time in ms per profile node id (a sample lasts until the next one). */
function selfTimes(profile) {
  const ms = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const next = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0;
    ms.set(samples[i], (ms.get(samples[i]) ?? 0) + next / 1000);
  }
  return ms;
}

/** A profile node's group and name: `wasm <crate>`, `JS glue`, `JS <file>`, or V8's own kinds. */
function classify(frame, glueUrl) {
  const fn = frame.functionName || '(anonymous)';
  if (!frame.url && fn.startsWith('(')) return { group: fn, name: fn };
  // The browser's own functions called from script (DOM methods, TextDecoder, V8's wasm↔JS stubs).
  if (!frame.url) return { group: 'native (DOM, builtins)', name: fn };
  if (frame.url.startsWith('wasm://') || frame.url.endsWith('.wasm')) {
    const crate = fn.replace(/^\$/, '').replace(/^<+(impl )?/, '').replace(/^&(mut )?/, '').match(/^[A-Za-z0-9_]+/)?.[0] ?? '?';
    return { group: `wasm ${crate}`, name: fn };
  }
  const file = frame.url.split('/').pop() || '(page)';
  const group = frame.url === glueUrl ? 'JS glue' : `JS ${file.replace(/-[0-9a-f]{8,}/, '')}`;
  return { group, name: `${fn} (${file.replace(/-[0-9a-f]{8,}/, '')}:${frame.lineNumber + 1})` };
}

/** The trace's events of the renderer main thread in the window: busy time, and the rendering
 * steps (with those inside a script call: forced). */
function traceSummary(events) {
  const mark = (name) => events.find((e) => e.name === name && e.cat.includes('blink.user_timing'));
  const [ready, verdict] = [mark('start:ready'), mark('start:verdict')];
  if (!ready || !verdict) return null;
  const { pid, tid } = ready;
  const [from, to] = [ready.ts, verdict.ts];
  // Complete events, and begin/end pairs made complete.
  const open = new Map();
  const all = [];
  for (const e of events) {
    if (e.pid !== pid || e.tid !== tid) continue;
    if (e.ph === 'X') all.push(e);
    else if (e.ph === 'B') open.set(e.name, [...(open.get(e.name) ?? []), e]);
    else if (e.ph === 'E') {
      const begin = open.get(e.name)?.pop();
      if (begin) all.push({ ...begin, ph: 'X', dur: e.ts - begin.ts });
    }
  }
  const mine = all.filter((e) => e.ts + (e.dur ?? 0) > from && e.ts < to);
  const clip = (e) => (Math.min(e.ts + e.dur, to) - Math.max(e.ts, from)) / 1000;
  const scripts = mine.filter((e) => ['FunctionCall', 'EvaluateScript', 'RunMicrotasks', 'v8.callFunction', 'TimerFire', 'FireAnimationFrame', 'EventDispatch'].includes(e.name));
  const insideScript = (e) => scripts.some((s) => s !== e && s.ts <= e.ts && e.ts + e.dur <= s.ts + s.dur);
  const sum = { window: (to - from) / 1000, busy: 0 };
  for (const e of mine) {
    if (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') sum.busy += clip(e);
    const step = { UpdateLayoutTree: 'style', Layout: 'layout', PrePaint: 'pre-paint', Paint: 'paint', Layerize: 'layerize', MinorGC: 'GC', MajorGC: 'GC', 'V8.GC_SCAVENGER': 'GC', ParseHTML: 'parse HTML', ScheduleStyleRecalculation: null }[e.name];
    if (!step) continue;
    sum[step] = (sum[step] ?? 0) + clip(e);
    if ((step === 'style' || step === 'layout') && insideScript(e)) sum[`${step} forced by script`] = (sum[`${step} forced by script`] ?? 0) + clip(e);
  }
  return sum;
}

/** One first visit: its CPU profile of the window and the trace's summary of it. */
async function visit(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (!options['no-throttle']) {
      await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    }
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: INTERVAL_US });
    const profile = new Promise((done) => cdp.on('Profiler.consoleProfileFinished', (e) => done(e.profile)));
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const traced = new Promise((done) => cdp.on('Tracing.tracingComplete', done));
    await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES, transferMode: 'ReportEvents' });
    await page.addInitScript(markWindow);
    await page.goto(url, { waitUntil: 'commit', timeout: VERDICT_TIMEOUT_MS });
    await page.waitForFunction(() => globalThis.__windowMs, null, { polling: 100, timeout: VERDICT_TIMEOUT_MS });
    const windowMs = await page.evaluate(() => globalThis.__windowMs);
    const glueUrl = await page.evaluate(() => new URL(document.querySelector('meta[name=app-entry]').dataset.js, location.href).href);
    await cdp.send('Tracing.end');
    await traced;
    return { windowMs, profile: await profile, glueUrl, trace: traceSummary(events) };
  } finally {
    await context.close();
  }
}

/** Adds `ms` to `map[key]`. */
const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
const fmt = (ms) => ms.toFixed(1).padStart(7);

const served = distToServe();
const server = await serveDist(served.dir, { gzip: true });
let browser = null;
try {
  browser = await launch();
  console.log(`start profile: ${SOURCE}${options.named ? ` with the named wasm of ${options.named}` : ''}; Chromium ${browser.version()}; ${RUNS} run(s), ${options['no-throttle'] ? 'unthrottled' : 'Slow 4G + CPU 4x'}, sampling every ${INTERVAL_US} µs`);
  const byFunction = new Map();
  const byGroup = new Map();
  const groupOf = new Map();
  const traceSums = new Map();
  const windows = [];
  const inclusive = new Map();
  for (let run = 1; run <= RUNS; run++) {
    const { windowMs, profile, glueUrl, trace } = await visit(browser, server.url);
    windows.push(windowMs);
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    let sampled = 0;
    // Inclusive time of the page's own functions (the crate's, whose names say which component or
    // service runs): each sample counts once for every such function on its stack.
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    for (const [id, ms] of selfTimes(profile)) {
      const onStack = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const fn = nodes.get(at).callFrame.functionName;
        if (fn.includes(OWN_CRATE)) onStack.add(fn.replace(/::h[0-9a-f]{16}$/, ''));
      }
      for (const fn of onStack) add(inclusive, fn, ms / RUNS);
    }
    for (const [id, ms] of selfTimes(profile)) {
      const { group, name } = classify(nodes.get(id).callFrame, glueUrl);
      add(byFunction, name, ms / RUNS);
      add(byGroup, group, ms / RUNS);
      groupOf.set(name, group);
      sampled += ms;
    }
    for (const [k, ms] of Object.entries(trace ?? {})) add(traceSums, k, ms / RUNS);
    console.log(`  run ${run}: start to verdict ${windowMs.toFixed(0)} ms (profile ${sampled.toFixed(0)} ms sampled; trace: busy ${(trace?.busy ?? NaN).toFixed(0)} of ${(trace?.window ?? NaN).toFixed(0)} ms)`);
  }
  const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
  console.log(`\nstart to verdict, runs: ${windows.map((w) => w.toFixed(0)).join(', ')} ms`);
  console.log('\nself time by group (ms per run):');
  for (const [group, ms] of sorted(byGroup)) console.log(`${fmt(ms)}  ${group}`);
  console.log(`\ntop ${TOP} functions by self time (ms per run):`);
  for (const [name, ms] of sorted(byFunction).slice(0, TOP)) console.log(`${fmt(ms)}  [${groupOf.get(name)}] ${name.length > 150 ? `${name.slice(0, 147)}…` : name}`);
  console.log(`\nthe page's own functions by total time (self and callees; ms per run):`);
  for (const [name, ms] of sorted(inclusive).slice(0, 2 * TOP)) console.log(`${fmt(ms)}  ${name.length > 150 ? `${name.slice(0, 147)}…` : name}`);
  console.log('\nthe renderer main thread in the window, from the trace (ms per run):');
  for (const [step, ms] of sorted(traceSums)) console.log(`${fmt(ms)}  ${step}`);
} finally {
  await browser?.close();
  server.close();
  served.done();
}
