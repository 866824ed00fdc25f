// End-to-end: the teaching text as data (src/ui/teaching.rs, engine/src/teach/teaching.json). The
// first load does not fetch it; the first open of a teaching view does, once, with its SRI hash
// (a changed file is refused); the view says it is loading, and a failed fetch says so with a
// retry; the service worker caches it at install, so the reference opens offline although the
// first visit never opened it.
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/teaching.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launch, watch } from './support.mjs';

const TEACHING = /\/teaching-[0-9a-f]{16}\.json$/;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A fresh context (no service worker unless `worker`) and a page recording its problems and
 * the teaching file's requests. */
async function visitor({ worker = false } = {}) {
  const context = await browser.newContext({ serviceWorkers: worker ? 'allow' : 'block' });
  const page = await context.newPage();
  const problems = await watch(page);
  const fetched = [];
  page.on('request', (r) => TEACHING.test(new URL(r.url()).pathname) && fetched.push(r.url()));
  return { context, page, problems, fetched };
}

test('the first load does not fetch the teaching text; opening the reference does, once', async () => {
  const { context, page, problems, fetched } = await visitor();
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
  const { context, page, problems } = await visitor();
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
  const { context, page } = await visitor();
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
  const { context, page } = await visitor();
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
  const { context, page } = await visitor({ worker: true });
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  await page.evaluate(async () => navigator.serviceWorker.ready);
  // The worker's install cached the page's files and the teaching text.
  await page.waitForFunction(async () => {
    const names = await caches.keys();
    if (names.length === 0) return false;
    const cache = await caches.open(names[0]);
    return (await cache.keys()).some((r) => /\/teaching-[0-9a-f]{16}\.json$/.test(r.url));
  });
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('[data-testid=verdict]');
  await page.click('[data-testid=views] a[data-view=reference]');
  await page.waitForSelector('[data-testid=rule-entry] pre.bad');
  await context.close();
});
