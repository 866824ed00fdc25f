// End-to-end: a text too large for the textarea (src/web/page/playground/editor/large.rs) is shown by the read-only
// viewer and checked by the worker (src/web/page/checking.rs), off the main thread, on the release build.
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/large.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp } from './support.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A stream of `n` requests, one in three with the wrong version, padded to ~100 bytes each. */
function stream(n) {
  const lines = [];
  for (let i = 0; i < n; i++) {
    const version = i % 3 === 0 ? '1.0' : '2.0';
    lines.push(`{"jsonrpc": "${version}", "method": "m", "params": ["${'x'.repeat(40)}"], "id": ${i}}`);
  }
  return lines.join('\n');
}

/** Pastes `text` into the editor the way the browser does (a paste event with the clipboard's
 * text) and records the status line's texts until `until` matches one. */
async function paste(page, text, until) {
  return page.evaluate(async ({ text, until }) => {
    const ta = document.querySelector('[data-testid=editor]');
    const status = document.querySelector('[data-testid=validate-ms]');
    const seen = [];
    const watch = new MutationObserver(() => seen.push(status.textContent));
    watch.observe(status, { childList: true, characterData: true, subtree: true });
    const data = new DataTransfer();
    data.setData('text/plain', text);
    ta.focus();
    ta.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    const deadline = performance.now() + 20000;
    while (!seen.some((s) => s.startsWith(until)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    watch.disconnect();
    return seen;
  }, { text, until });
}

test('a 3 MB paste goes to the viewer and is checked by the worker, exactly', async () => {
  const { page, problems } = await openApp(browser);
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.locator('[data-testid=editor]').fill('');
  const text = stream(30000);
  assert.ok(text.length > 2_000_000);
  const seen = await paste(page, text, '30000 documents');
  assert.equal(seen[0], 'Checking in the background…', `statuses: ${seen.join(' | ')}`);
  assert.ok(seen.at(-1).startsWith('30000 documents checked in'), seen.at(-1));
  assert.equal(workers.length, 1, 'one checking worker');
  assert.match(workers[0], /check-worker\.js$/);
  // The textarea holds nothing; the viewer shows a screenful of numbered lines.
  assert.equal(await page.$eval('[data-testid=editor]', (t) => t.value.length), 0);
  assert.ok(await page.isVisible('[data-testid=big-view]'));
  const shown = await page.$$eval('[data-testid=big-lines] .big-line', (ls) => ls.length);
  assert.ok(shown > 10 && shown < 200, `${shown} lines in the DOM`);
  // The worker's verdicts are the engine's: 300 cards, the rest counted, errors found.
  assert.equal(await page.locator('[data-testid=verdict]').count(), 300);
  const more = await page.textContent('[data-testid=verdicts-more]');
  assert.match(more, /The first 300 of 30000 documents/);
  assert.match(more, /10000 with errors/);
  // Scrolling far down renders the lines there (numbered from where the scroll is).
  await page.$eval('[data-testid=big-view]', (v) => { v.scrollTop = 20000 * 20; });
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=big-lines] .big-no')?.textContent) > 19000);
  // Clicking a violation marks its line in the viewer.
  await page.click('[data-testid=violation] button');
  await page.waitForSelector('[data-testid=big-lines] .big-line.marked');
  assert.equal(await page.textContent('[data-testid=big-lines] .big-line.marked .big-no'), '1');
  assert.deepEqual(problems, []);
});

test('a text too large for a draft says so; Clear brings the editor back, checked on the page', async () => {
  const { page, problems } = await openApp(browser);
  await page.locator('[data-testid=editor]').fill('');
  await paste(page, stream(45000), '45000 documents');
  // Over 4 MB: not kept as a draft, said once; the text stays.
  await page.waitForSelector('[data-testid=notice][data-level=error]');
  assert.match(await page.textContent('[data-testid=notice]'), /too large for browser storage: it is not kept as a draft/);
  assert.match(await page.textContent('[data-testid=big-note]'), /in 45000 lines/);
  await page.click('[data-testid=big-clear]');
  await page.waitForSelector('[data-testid=big-view]', { state: 'hidden' });
  const editor = page.locator('[data-testid=editor]');
  await editor.fill('{"jsonrpc": "2.0", "method": "m", "id": 1}');
  await page.waitForFunction(() => document.querySelector('[data-testid=validate-ms]').textContent.startsWith('1 document checked'));
  assert.equal(await page.locator('[data-testid=verdict][data-kind=request]').count(), 1);
  assert.deepEqual(problems, []);
});
