// End-to-end: the release build (dist/) in headless Chromium through playwright-core.
// scripts/test.sh serves dist/ and sets BASE_URL; run alone with
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launch, watch } from './support.mjs';


let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A fresh page that records console errors, page errors and CSP violations. */
async function open() {
  const page = await browser.newPage();
  return { page, problems: await watch(page) };
}

const verdicts = (page) =>
  page.$$eval('[data-testid=verdict]', (cards) => cards.map((c) => c.dataset.kind));

test('a browser that cannot run the wasm gets a message, not a blank page', async () => {
  const page = await browser.newPage();
  // As when the .wasm never arrives (a cut network, a host missing the file).
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto(BASE_URL);
  const alert = await page.waitForSelector('[data-testid=boot-error]', { timeout: 10_000 });
  assert.equal(await alert.getAttribute('role'), 'alert');
  assert.match(await alert.textContent(), /could not start in this browser: .+ It needs a browser with WebAssembly/);
  assert.equal(await page.$('[data-testid=editor]'), null);
  await page.close();
});

test('first render: the sample verdict appears, no error, no CSP violation', async () => {
  const { page, problems } = await open();
  const started = Date.now();
  await page.goto(BASE_URL);
  // performance.now() counts from the navigation's start: read it on the first frame with a card.
  const firstRender = await page.waitForFunction(
    () => document.querySelector('[data-testid=verdict]') && performance.now(),
    null,
    { polling: 'raf', timeout: 15_000 },
  );
  const inPage = await firstRender.jsonValue();
  const wall = Date.now() - started;
  console.log(`nav→first render: ${inPage.toFixed(0)} ms (in page, from navigation start); ${wall} ms wall clock from goto`);
  assert.deepEqual(await verdicts(page), ['request']);
  assert.match(await page.textContent('[data-testid=validate-ms]'), / ms$/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('typing a request shows a request verdict', async () => {
  const { page, problems } = await open();
  await page.goto(BASE_URL);
  const editor = page.locator('[data-testid=editor]');
  await editor.fill('');
  await editor.pressSequentially('{"jsonrpc": "2.0", "method": "sum", "params": [1, 2], "id": "a"}');
  await page.waitForSelector('[data-testid=verdict][data-kind=request]');
  assert.deepEqual(await verdicts(page), ['request']);
  const card = await page.textContent('[data-testid=verdict]');
  assert.ok(card.includes('sum') && card.includes('"a"'), card);
  assert.equal(await page.locator('[data-testid=violation]').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('invalid JSON shows a parse error with a json-syntax violation', async () => {
  const { page, problems } = await open();
  await page.goto(BASE_URL);
  await page.fill('[data-testid=editor]', '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]');
  await page.waitForSelector('[data-testid=verdict][data-kind=parse-error]');
  const rules = await page.$$eval('[data-testid=violation]', (vs) => vs.map((v) => v.dataset.rule));
  assert.ok(rules.includes('json-syntax'), `rules: ${rules}`);
  assert.match(await page.textContent('[data-testid=violation]'), /^1:\d+/);
  assert.deepEqual(problems, []);
  await page.close();
});
