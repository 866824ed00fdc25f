// Typing benchmark (not a test): keystroke → verdict on screen, in headless Chromium, on the
// release build. Needs dist/ (`trunk build --release`); serves it on 127.0.0.1 itself.
//   node scripts/bench-typing.mjs [DIST_DIR]        (CHROMIUM=/usr/bin/chromium by default)
//
// For each size (10 KB, 100 KB, 1 MB) it loads a stream of one-line JSON-RPC messages (some
// broken, so there are verdict cards and underlines), puts the caret inside a method name in the
// middle, types characters one by one through Chromium's input pipeline (CDP key events) and
// measures, in the page, from the keydown event's timestamp to the last DOM mutation the
// keystroke caused (the verdict cards, the status line, the mirror line; Leptos applies them in
// microtasks right after the input event). "frame" adds the wait for the next animation frame.
import { resolve } from 'node:path';
import { documentOf, quantile, serveDist } from './bench-support.mjs';
import { launch } from '../tests/e2e/support.mjs';

const DIST = resolve(process.argv[2] ?? 'dist');
const { url, close } = await serveDist(DIST);

const browser = await launch();
const rows = [];
for (const [label, bytes, keys] of [['10 KB', 10_000, 60], ['100 KB', 100_000, 60], ['1 MB', 1_000_000, 25]]) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.waitForSelector('[data-testid=verdict]');
  const text = documentOf(bytes);
  const lineCount = text.split('\n').length;
  // Load the document the way a paste does (set the value, one input event), then wait for it.
  await page.$eval('[data-testid=editor]', (t, text) => {
    t.value = text;
    t.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=mirror] .line').length === n, lineCount, { timeout: 120_000 });
  // The caret: inside "subtract" of the middle line's request.
  const caret = await page.$eval('[data-testid=editor]', (t) => {
    const mid = t.value.indexOf('"subtract"', Math.floor(t.value.length / 2));
    const at = mid + 4;
    t.focus();
    t.setSelectionRange(at, at);
    return at;
  });
  await page.evaluate(() => {
    const m = (window.__bench = { t0: 0, last: 0, frame: 0, samples: [] });
    document.addEventListener('keydown', (e) => {
      m.t0 = e.timeStamp;
      m.last = 0;
      requestAnimationFrame(() => (m.frame = performance.now()));
    }, true);
    new MutationObserver(() => (m.last = performance.now())).observe(document.body, {
      subtree: true, childList: true, characterData: true, attributes: true,
    });
  });
  const lat = [];
  const frame = [];
  for (let i = 0; i < keys; i++) {
    await page.keyboard.type(i % 2 ? 'y' : 'x');
    await page.waitForTimeout(bytes >= 1_000_000 ? 150 : 40);
    const { t0, last, frame: f } = await page.evaluate(() => window.__bench);
    if (last > t0) {
      lat.push(last - t0);
      frame.push(Math.max(f, last) - t0);
    }
  }
  const ms = await page.$eval('[data-testid=validate-ms]', (e) => Number(e.dataset.ms));
  const value = await page.$eval('[data-testid=editor]', (t) => t.value.length);
  rows.push({
    size: label, bytes: text.length, lines: lineCount, keys: lat.length,
    median: quantile(lat, 0.5), p95: quantile(lat, 0.95),
    frameMedian: quantile(frame, 0.5), checkMs: ms, typed: value - text.length, caret,
  });
  await page.close();
}
await browser.close();
close();

console.log('keystroke → verdict DOM updated (keydown timestamp → last mutation), release build, headless Chromium');
console.log('size     bytes     lines  keys  median ms  p95 ms  →next frame median  last check ms');
for (const r of rows) {
  console.log(
    `${r.size.padEnd(7)} ${String(r.bytes).padStart(8)} ${String(r.lines).padStart(7)} ${String(r.keys).padStart(5)}` +
      `  ${r.median.toFixed(1).padStart(9)}  ${r.p95.toFixed(1).padStart(6)}  ${r.frameMedian.toFixed(1).padStart(18)}  ${r.checkMs.toFixed(2).padStart(13)}`,
  );
  if (r.typed !== r.keys) console.log(`  note: ${r.typed} characters reached the text for ${r.keys} measured keys`);
}
