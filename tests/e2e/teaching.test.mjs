// End-to-end: the teaching text as data (src/web/kit/teaching.rs, engine/src/teach/teaching.json). The
// first load does not fetch it; the first open of a teaching view does, once, with its SRI hash
// (a changed file is refused); the view says it is loading, and a failed fetch says so with a
// retry; the service worker caches it at install, so the reference opens offline although the
// first visit never opened it. The views themselves are a wasm module of their own
// (src/bin/later_views.rs, loaded by src/web/js/boot.js when src/web/page/router.rs asks:
// src/web/kit/views_port.rs), loaded the same way: not on the first load, once on the first open
// of a teaching view, of the link panel's Probe fold or of the API panel (the module holds the
// Probe and the API panel's body too), and a
// module whose files do not load, or are not the build's (their SRI hashes), is said with a
// Retry, and Retry loads it; a load that never ends is said as failed within its timeout
// (src/web/js/boot.js), and offline a Retry (`?attempt=N`) finds the files the service worker cached.
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/teaching.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launch, visitor, waitForCached } from './support.mjs';

const TEACHING = /\/teaching-[0-9a-f]{16}\.json$/;
const MODULE_JS = /\/later-views-[0-9a-f]{16}\.js(\?attempt=\d+)?$/;
const MODULE_WASM = /\/later-views-[0-9a-f]{16}_bg\.wasm(\?attempt=\d+)?$/;
/** The link panel's fold the Probe (from the views module) is mounted into. */
const PROBE_FOLD = 'details[data-testid=probe-fold]';
/** The API panel, whose body (from the views module) is mounted into it. */
const API_PANEL = 'details[data-testid=api-panel]';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A fresh context (no service worker unless `worker`) and a page recording its problems and
 * the teaching file's requests. */
const visit = (options) => visitor(browser, TEACHING, options);

/** The names of the views module's files `page` requests, as they come. */
function moduleRequests(page) {
  const fetched = [];
  page.on('request', (r) => {
    const url = r.url();
    if (MODULE_JS.test(url) || MODULE_WASM.test(url)) fetched.push(new URL(url).pathname.split('/').pop());
  });
  return fetched;
}

test('the first load does not fetch the teaching text; opening the reference does, once', async () => {
  const { context, page, problems, fetched } = await visit();
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  await page.waitForLoadState('networkidle');
  assert.deepEqual(fetched, [], 'nothing of the teaching text on the first load');
  await page.click('[data-testid=views] a[data-view=reference]');
  await page.waitForSelector('[data-testid=rule-entry] pre.bad');
  assert.equal(fetched.length, 1, fetched.join(' '));
  // Another teaching view uses the text already read.
  await page.click('[data-testid=views] a[data-view=quiz]');
  await page.waitForSelector('[data-testid=quiz] .quiz-item');
  await page.click('[data-testid=views] a[data-view=lessons]');
  await page.click('[data-testid=lesson-link] >> nth=0');
  await page.waitForSelector('[data-testid=lesson-example]');
  assert.match(await page.textContent('[data-testid=lesson-example]'), /"subtract"/);
  assert.equal(fetched.length, 1, fetched.join(' '));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a cold load of a lesson shows the loading state, then the lesson', async () => {
  const { context, page, problems } = await visit();
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(TEACHING, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${BASE_URL}#/lessons/2`);
  await page.waitForSelector('[data-testid=teaching-loading]');
  assert.equal(await page.$('[data-testid=lesson]'), null);
  release();
  await page.waitForSelector('[data-testid=lesson][data-lesson=notification]');
  assert.equal(await page.$('[data-testid=teaching-loading]'), null);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a failed fetch of the teaching text says so, and Retry loads it', async () => {
  const { context, page } = await visit();
  await page.route(TEACHING, (route) => route.abort('connectionrefused'));
  await page.goto(`${BASE_URL}#/reference/batch-empty`);
  await page.waitForSelector('[data-testid=teaching-failed]');
  assert.match(await page.textContent('[data-testid=teaching-failed]'), /did not load/);
  await page.unroute(TEACHING);
  await page.click('[data-testid=teaching-retry]');
  await page.waitForSelector('[data-testid=rule-entry][data-rule=batch-empty].focused pre.bad');
  await context.close();
});

test('a teaching file that is not the one the build names (its SRI hash) is refused', async () => {
  const { context, page } = await visit();
  await page.route(TEACHING, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace('A message that is not JSON', 'A changed text');
    await route.fulfill({ response, body });
  });
  await page.goto(`${BASE_URL}#/reference`);
  await page.waitForSelector('[data-testid=teaching-failed]');
  assert.equal(await page.$('[data-testid=rule-entry]'), null);
  await context.close();
});

test('after a first load that opened no teaching view, the reference opens offline', async () => {
  const { context, page } = await visit({ worker: true });
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  // The worker's install cached the page's files and the teaching text.
  await waitForCached(page, TEACHING.source);
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('[data-testid=verdict]');
  await page.click('[data-testid=views] a[data-view=reference]');
  await page.waitForSelector('[data-testid=rule-entry] pre.bad');
  await context.close();
});

/** A fresh visitor's first load of the playground, which fetches nothing of the views module;
 * `fetched` then names the module's files requested as they come. */
async function firstLoad() {
  const { context, page, problems } = await visit();
  const fetched = moduleRequests(page);
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  await page.waitForLoadState('networkidle');
  assert.deepEqual(fetched, [], 'nothing of the views module on the first load');
  return { context, page, problems, fetched };
}

test('the first load does not fetch the views module; the first open of the reference does, once', async () => {
  const { context, page, problems, fetched } = await firstLoad();
  await page.click('[data-testid=views] a[data-view=reference]');
  await page.waitForSelector('[data-testid=rule-entry] pre.bad');
  assert.equal(fetched.length, 2, fetched.join(' '));
  assert.ok(fetched.some((f) => f.endsWith('.js')) && fetched.some((f) => f.endsWith('_bg.wasm')), fetched.join(' '));
  // The other views are in the module already loaded.
  await page.click('[data-testid=views] a[data-view=quiz]');
  await page.waitForSelector('[data-testid=quiz] .quiz-item');
  await page.click('[data-testid=views] a[data-view=lessons]');
  await page.waitForSelector('[data-testid=lesson-link]');
  await page.click('[data-testid=views] a[data-view=playground]');
  await page.click('[data-testid=views] a[data-view=reference]');
  await page.waitForSelector('[data-testid=rule-entry] pre.bad');
  assert.equal(fetched.length, 2, fetched.join(' '));
  // The Probe, in the same module, mounts into its fold without fetching it again.
  await page.click('[data-testid=views] a[data-view=playground]');
  await page.click(`${PROBE_FOLD} > summary`);
  await page.waitForSelector(`${PROBE_FOLD} [data-testid=probe-run]`);
  assert.equal(fetched.length, 2, fetched.join(' '));
  assert.deepEqual(problems, []);
  await context.close();
});

test('the first open of the Probe fold fetches the views module once, and a teaching view opened later does not fetch it again', async () => {
  const { context, page, problems, fetched } = await firstLoad();
  assert.equal(await page.$(`${PROBE_FOLD} [data-testid=probe]`), null, 'the Probe is not in the page before');
  await page.click(`${PROBE_FOLD} > summary`);
  await page.waitForSelector(`${PROBE_FOLD} [data-testid=probe-run]`);
  assert.equal(fetched.length, 2, fetched.join(' '));
  assert.ok(fetched.some((f) => f.endsWith('.js')) && fetched.some((f) => f.endsWith('_bg.wasm')), fetched.join(' '));
  // Folded and opened again: the same Probe, nothing fetched.
  await page.click(`${PROBE_FOLD} > summary`);
  await page.click(`${PROBE_FOLD} > summary`);
  assert.equal(await page.locator('[data-testid=probe]').count(), 1);
  await page.click('[data-testid=views] a[data-view=quiz]');
  await page.waitForSelector('[data-testid=quiz] .quiz-item');
  assert.equal(fetched.length, 2, fetched.join(' '));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a views module that does not load says so in the Probe fold with a Retry, and Retry loads the Probe', async () => {
  const { context, page } = await visit();
  await page.route(MODULE_JS, (route) => route.abort('connectionrefused'));
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  await page.click(`${PROBE_FOLD} > summary`);
  await page.waitForSelector(`${PROBE_FOLD} [data-testid=teaching-failed]`);
  assert.match(await page.textContent(`${PROBE_FOLD} [data-testid=teaching-failed]`), /The Probe did not load.*The Probe needs it/s);
  assert.equal(await page.$('[data-testid=probe-run]'), null);
  await page.unroute(MODULE_JS);
  await page.click(`${PROBE_FOLD} [data-testid=teaching-retry]`);
  await page.waitForSelector(`${PROBE_FOLD} [data-testid=probe-run]`);
  assert.equal(await page.$(`${PROBE_FOLD} [data-testid=teaching-failed]`), null);
  // The module loaded by the retry serves the teaching views too.
  await page.click('[data-testid=views] a[data-view=reference]');
  await page.waitForSelector('[data-testid=rule-entry] pre.bad');
  await context.close();
});

test('the first open of the API panel fetches the views module once, and a teaching view or the Probe fold opened later fetch nothing more', async () => {
  const { context, page, problems, fetched } = await firstLoad();
  assert.equal(await page.$(`${API_PANEL} [data-testid=openrpc-status]`), null, 'the panel\'s body is not in the page before');
  await page.click(`${API_PANEL} > summary`);
  await page.waitForSelector(`${API_PANEL} [data-testid=openrpc-paste]`);
  assert.match(await page.textContent(`${API_PANEL} [data-testid=openrpc-status]`), /^No API document/);
  assert.equal(fetched.length, 2, fetched.join(' '));
  assert.ok(fetched.some((f) => f.endsWith('.js')) && fetched.some((f) => f.endsWith('_bg.wasm')), fetched.join(' '));
  // Folded and opened again: the same body, nothing fetched.
  await page.click(`${API_PANEL} > summary`);
  await page.click(`${API_PANEL} > summary`);
  assert.equal(await page.locator('[data-testid=openrpc-status]').count(), 1);
  await page.click(`${PROBE_FOLD} > summary`);
  await page.waitForSelector(`${PROBE_FOLD} [data-testid=probe-run]`);
  await page.click('[data-testid=views] a[data-view=reference]');
  await page.waitForSelector('[data-testid=rule-entry] pre.bad');
  assert.equal(fetched.length, 2, fetched.join(' '));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a views module that does not load says so in the API panel with a Retry, and Retry loads its body', async () => {
  const { context, page } = await visit();
  await page.route(MODULE_JS, (route) => route.abort('connectionrefused'));
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  await page.click(`${API_PANEL} > summary`);
  await page.waitForSelector(`${API_PANEL} [data-testid=teaching-failed]`);
  assert.match(await page.textContent(`${API_PANEL} [data-testid=teaching-failed]`), /The API panel did not load.*The API panel needs it/s);
  assert.equal(await page.$('[data-testid=openrpc-status]'), null);
  await page.unroute(MODULE_JS);
  await page.click(`${API_PANEL} [data-testid=teaching-retry]`);
  await page.waitForSelector(`${API_PANEL} [data-testid=openrpc-paste]`);
  assert.equal(await page.$(`${API_PANEL} [data-testid=teaching-failed]`), null);
  await context.close();
});

/** The log pane, whose rows (from the views module) are mounted into it. */
const LOG_PANE = '[data-testid=log-pane]';

test('the first Send fetches the views module once for the log\'s rows; a teaching view opened later fetches nothing more', async () => {
  const { context, page, problems, fetched } = await firstLoad();
  assert.equal(await page.$('[data-testid=log]'), null, 'the log\'s list is not in the page before');
  await page.click('[data-testid=send]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 2);
  assert.equal(fetched.length, 2, fetched.join(' '));
  assert.ok(fetched.some((f) => f.endsWith('.js')) && fetched.some((f) => f.endsWith('_bg.wasm')), fetched.join(' '));
  // The rows, the picture and the selection as before: the reply selected, its request marked.
  assert.equal(await page.locator('[data-testid=sequence] .xl-arrow').count(), 2);
  await page.click('[data-testid=last-reply-show]');
  await page.waitForSelector('[data-testid=log-entry][data-direction=in].is-selected');
  assert.match(await page.getAttribute('[data-testid=log-entry][data-direction=out]', 'class'), /is-partner/);
  assert.match(await page.textContent('[data-testid=log-selection]'), /answers/);
  // Clear empties the rows and forgets the selection; the next Send fills them again.
  await page.click('[data-testid=clear-log]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 0);
  assert.equal(await page.isHidden('[data-testid=log-selection]'), true);
  await page.click('[data-testid=send]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 2);
  assert.deepEqual(await page.$$eval('[data-testid=log-number]', (ns) => ns.map((n) => n.textContent)), ['#1', '#2']);
  await page.click('[data-testid=views] a[data-view=reference]');
  await page.waitForSelector('[data-testid=rule-entry] pre.bad');
  assert.equal(fetched.length, 2, fetched.join(' '));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a views module that does not load says so in the log with a Retry; the counts and the latest reply still come, and Retry shows the rows', async () => {
  const { context, page } = await visit();
  await page.route(MODULE_JS, (route) => route.abort('connectionrefused'));
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  await page.click('[data-testid=send]');
  await page.waitForSelector(`${LOG_PANE} [data-testid=teaching-failed]`);
  assert.match(await page.textContent(`${LOG_PANE} [data-testid=teaching-failed]`), /The list of messages did not load.*The log's list of messages needs it/s);
  assert.equal(await page.getAttribute('[data-testid=log-counts]', 'data-entries'), '2');
  await page.waitForSelector('[data-testid=last-reply]:not([hidden])');
  assert.equal(await page.$('[data-testid=log-entry]'), null);
  await page.unroute(MODULE_JS);
  await page.click(`${LOG_PANE} [data-testid=teaching-retry]`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 2);
  assert.equal(await page.$(`${LOG_PANE} [data-testid=teaching-failed]`), null);
  await context.close();
});

test('a views module that does not load says so with a Retry, and Retry loads it', async () => {
  const { context, page } = await visit();
  await page.route(MODULE_JS, (route) => route.abort('connectionrefused'));
  await page.goto(`${BASE_URL}#/reference/batch-empty`);
  await page.waitForSelector('[data-testid=teaching-failed]');
  assert.match(await page.textContent('[data-testid=teaching-failed]'), /The teaching views did not load/);
  assert.equal(await page.$('[data-testid=rule-entry]'), null);
  await page.unroute(MODULE_JS);
  await page.click('[data-testid=teaching-retry]');
  await page.waitForSelector('[data-testid=rule-entry][data-rule=batch-empty].focused pre.bad');
  assert.equal(await page.$('[data-testid=teaching-failed]'), null);
  await context.close();
});

test('a views module glue that is not the build\'s (its SRI hash) is refused with a Retry, and Retry loads the right one', async () => {
  const { context, page } = await visit();
  // Still valid JavaScript: only the integrity hash tells it from the build's.
  await page.route(MODULE_JS, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `${await response.text()}\n// changed\n` });
  });
  await page.goto(`${BASE_URL}#/quiz`);
  await page.waitForSelector('[data-testid=teaching-failed]');
  assert.equal(await page.$('[data-testid=quiz]'), null);
  await page.unroute(MODULE_JS);
  await page.click('[data-testid=teaching-retry]');
  await page.waitForSelector('[data-testid=quiz] .quiz-item');
  await context.close();
});

test('a views module wasm that is not the build\'s (its SRI hash) is refused', async () => {
  const { context, page } = await visit();
  await page.route(MODULE_WASM, async (route) => {
    const response = await route.fetch();
    const body = Buffer.from(await response.body());
    // A byte of the last section's content changed: still a wasm module of the same size.
    body[body.length - 1] ^= 1;
    await route.fulfill({ response, body });
  });
  await page.goto(`${BASE_URL}#/lessons`);
  await page.waitForSelector('[data-testid=teaching-failed]');
  assert.equal(await page.$('[data-testid=lessons]'), null);
  await context.close();
});

test('a views module that never answers is said as failed within its timeout, and Retry loads it', async () => {
  const { context, page } = await visit();
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  // The load's timeout (30 s by default) as a host may set it, shorter for this test.
  await page.evaluate(() => { document.querySelector('meta[name=app-entry]').dataset.viewsTimeoutMs = '2000'; });
  await page.route(MODULE_JS, () => {}); // never answered
  const started = Date.now();
  await page.click('[data-testid=views] a[data-view=reference]');
  await page.waitForSelector('[data-testid=teaching-failed]', { timeout: 15000 });
  const took = Date.now() - started;
  assert.ok(took >= 1900 && took < 10000, `failed after ${took} ms`);
  assert.match(await page.textContent('[data-testid=teaching-failed]'), /did not load within 2 s/);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.click('[data-testid=teaching-retry]');
  await page.waitForSelector('[data-testid=rule-entry] pre.bad');
  await context.close();
});

test('offline, a Retry of the views module loads it from what the service worker cached', async () => {
  const { context, page } = await visit({ worker: true });
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  // The worker's install cached the module's files.
  await waitForCached(page, MODULE_JS.source, MODULE_WASM.source);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await context.setOffline(true);
  // The first load fails (a timeout too short for it), so the Retry asks for `?attempt=1`.
  await page.evaluate(() => { document.querySelector('meta[name=app-entry]').dataset.viewsTimeoutMs = '1'; });
  await page.click('[data-testid=views] a[data-view=reference]');
  await page.waitForSelector('[data-testid=teaching-failed]');
  await page.evaluate(() => { delete document.querySelector('meta[name=app-entry]').dataset.viewsTimeoutMs; });
  await page.click('[data-testid=teaching-retry]');
  await page.waitForSelector('[data-testid=rule-entry] pre.bad');
  assert.equal(await page.$('[data-testid=teaching-failed]'), null);
  await context.close();
});
