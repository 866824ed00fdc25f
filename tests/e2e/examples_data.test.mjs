// End-to-end: the examples' texts as data (src/web/page/playground/library.rs,
// engine/src/examples/library.txt). The page lists the examples at once from the engine's menu
// (compiled in) and fetches their texts on the first pick, once, with the file's SRI hash; a
// failed fetch says so in a notice and picking again retries; the service worker caches the file
// at install, so an example loads offline although the first visit never picked one.
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/examples_data.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launch, visitor, waitForCached } from './support.mjs';

const LIBRARY = /\/library-[0-9a-f]{16}\.txt$/;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A fresh context (no service worker unless `worker`) and a page on the app recording its
 * problems and the examples file's requests. */
async function visit(options) {
  const visited = await visitor(browser, LIBRARY, options);
  await visited.page.goto(BASE_URL);
  await visited.page.waitForSelector('[data-testid=verdict]');
  return visited;
}

const pick = (page, id) => page.selectOption('[data-testid=examples]', id);
const editorValue = (page) => page.inputValue('[data-testid=editor]');

test('the first load lists the examples without their texts; the first pick fetches them, once', async () => {
  const { context, page, problems, fetched } = await visit();
  await page.waitForLoadState('networkidle');
  assert.deepEqual(fetched, [], 'nothing of the examples file on the first load');
  // The sample is there without it, and the menu lists every example with its title.
  assert.equal(await editorValue(page), '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}');
  const options = await page.$$eval('[data-testid=examples] option[value]:not([value=""])', (os) => os.map((o) => [o.value, o.textContent]));
  assert.ok(options.length >= 25, String(options.length));
  assert.deepEqual(options.find(([id]) => id === 'spec-named'), ['spec-named', 'rpc call with named parameters']);
  await pick(page, 'spec-named');
  await page.waitForSelector('[data-testid=example-about][data-example=spec-named]');
  assert.match(await editorValue(page), /"subtrahend": 23, "minuend": 42/);
  // What it shows comes with the text.
  assert.match(await page.textContent('[data-testid=example-about]'), /params as an object: member order does not matter/);
  assert.equal(fetched.length, 1, fetched.join(' '));
  // Another pick uses the texts already read.
  await pick(page, 'mcp-flow');
  await page.waitForSelector('[data-testid=example-about][data-example=mcp-flow]');
  assert.match(await editorValue(page), /initialize/);
  assert.equal(await page.inputValue('[data-testid=profile]'), 'mcp:2025-11-25');
  assert.equal(fetched.length, 1, fetched.join(' '));
  assert.deepEqual(problems, []);
  await context.close();
});

test('an examples file that does not load is said in a notice, and picking again loads the example', async () => {
  const { context, page } = await visit();
  const before = await editorValue(page);
  await page.route(LIBRARY, (route) => route.abort('connectionrefused'));
  await pick(page, 'spec-named');
  await page.waitForSelector('[data-testid=notice][data-level=error]');
  assert.match(await page.textContent('[data-testid=notice]'), /The example did not load: .*pick it again/);
  assert.equal(await editorValue(page), before, 'the editor keeps its text');
  assert.equal(await page.inputValue('[data-testid=examples]'), '', 'the menu is back at its prompt');
  await page.unroute(LIBRARY);
  await pick(page, 'spec-named');
  await page.waitForSelector('[data-testid=example-about][data-example=spec-named]');
  assert.match(await editorValue(page), /"subtrahend": 23, "minuend": 42/);
  await context.close();
});

test('an examples file that is not the build\'s (its SRI hash) is refused', async () => {
  const { context, page } = await visit();
  await page.route(LIBRARY, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `${await response.text()}\n` });
  });
  const before = await editorValue(page);
  await pick(page, 'spec-named');
  await page.waitForSelector('[data-testid=notice][data-level=error]');
  assert.match(await page.textContent('[data-testid=notice]'), /The example did not load/);
  assert.equal(await editorValue(page), before);
  await context.close();
});

test('after a first load that picked no example, an example loads offline', async () => {
  const { context, page } = await visit({ worker: true });
  // The worker's install cached the page's files and the examples file.
  await waitForCached(page, LIBRARY.source);
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('[data-testid=verdict]');
  await pick(page, 'spec-named');
  await page.waitForSelector('[data-testid=example-about][data-example=spec-named]');
  assert.match(await editorValue(page), /"subtrahend": 23, "minuend": 42/);
  await context.close();
});
