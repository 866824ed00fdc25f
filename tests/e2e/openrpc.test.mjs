// End-to-end: your API (#26, the page side) on the release build: an OpenRPC document loaded by
// Open file, drop, paste and URL, checked against the meta-schema with located errors, kept across
// a reload; the editor's messages checked against it; its reference with "Try it"; the mock
// serving it. The panel's body is rendered by the views module on the panel's first open (the
// tests wait for its elements); a file dropped on the closed panel loads without it. The documents
// are the OpenRPC project's examples vendored in tests/data/openrpc.
// Run alone with
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/openrpc.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { BASE_URL, launch, openApp, entries } from './support.mjs';
import { BIN, start } from './servers.mjs';

const data = (name) => fileURLToPath(new URL(`../data/openrpc/examples/${name}`, import.meta.url));
const PETSTORE = data('petstore-openrpc.json');
const SIMPLE_MATH = data('simple-math-openrpc.json');

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Opens the API panel and waits for its body (rendered by the views module, loaded on the
 * panel's first open). */
async function openPanel(page) {
  await page.click('[data-testid=api-panel] > summary');
  await page.waitForSelector('[data-testid=openrpc-status]');
}

/** Opens the API panel and loads `file` through its Open document button's file input. */
async function loadFile(page, file) {
  await openPanel(page);
  await page.setInputFiles('[data-testid=openrpc-file-input]', file);
}

const status = (page) => page.textContent('[data-testid=openrpc-status]');

async function waitLoaded(page, title) {
  await page.waitForFunction(
    (t) => document.querySelector('[data-testid=openrpc-status]')?.textContent.startsWith(t),
    title,
  );
}

/** Puts `text` in the editor and waits for its verdicts under the document. */
async function check(page, text) {
  await page.fill('[data-testid=editor]', text);
  await page.waitForFunction(
    () => !document.querySelector('[data-testid=validate-ms]').textContent.includes('background'),
  );
}

const violations = (page) =>
  page.$$eval('[data-testid=violation]', (vs) => vs.map((v) => `${v.dataset.rule} ${v.dataset.path}`));

test('a document opened from a file is checked and named in the API panel', async () => {
  const { context, page, problems } = await openApp(browser);
  await loadFile(page, PETSTORE);
  await waitLoaded(page, 'Petstore 1.0.0: 3 methods');
  assert.match(await status(page), /from petstore-openrpc\.json/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a pasted document that breaks the meta-schema is refused with its errors located', async () => {
  const { context, page, problems } = await openApp(browser);
  await openPanel(page);
  await page.fill(
    '[data-testid=openrpc-paste]',
    '{\n  "openrpc": "1.3.2",\n  "info": {"title": "Pets", "version": 1},\n  "methods": []\n}\n',
  );
  await page.click('[data-testid=openrpc-load-pasted]');
  const error = await page.waitForSelector('[data-testid=openrpc-error]');
  assert.equal(await error.getAttribute('data-rule'), 'openrpc-document-invalid');
  assert.equal(await error.getAttribute('data-pointer'), '/info/version');
  assert.match(await error.textContent(), /^3:40 \/info\/version — /);
  assert.equal(await error.$eval('a', (a) => a.getAttribute('href')), '#/reference/openrpc-document-invalid');
  assert.match(await status(page), /^No API document/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('pasted text that is not JSON is refused at the line and column of the fault', async () => {
  const { context, page } = await openApp(browser);
  await openPanel(page);
  await page.fill('[data-testid=openrpc-paste]', '{\n  "openrpc": "1.3.2",\n  "info": {,}\n}');
  await page.click('[data-testid=openrpc-load-pasted]');
  const error = await page.waitForSelector('[data-testid=openrpc-error]');
  assert.equal(await error.getAttribute('data-rule'), 'json-syntax');
  assert.match(await error.textContent(), /^3:12 /);
  await context.close();
});

test('a document fetched from a URL is loaded', async () => {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(readFileSync(SIMPLE_MATH));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/simple-math.json`;
  const { context, page, problems } = await openApp(browser);
  await openPanel(page);
  await page.fill('[data-testid=openrpc-url]', url);
  await page.click('[data-testid=openrpc-fetch]');
  await waitLoaded(page, 'Simple Math 1.0.0: 2 methods');
  assert.match(await status(page), new RegExp(`from ${url.replace(/[.]/g, '\\.')}`));
  assert.deepEqual(problems, []);
  await context.close();
  server.close();
});

/** Drops `text` as a file named dropped.json on the API panel. */
async function dropOnPanel(page, text) {
  await page.evaluate((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
    const panel = document.querySelector('[data-testid=api-panel]');
    panel.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    panel.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, text);
}

test('a document dropped on the API panel is loaded', async () => {
  const { context, page } = await openApp(browser);
  await openPanel(page);
  await dropOnPanel(page, readFileSync(PETSTORE, 'utf8'));
  await waitLoaded(page, 'Petstore 1.0.0: 3 methods');
  assert.match(await status(page), /from dropped\.json/);
  // Into the API panel, not into the editor.
  assert.doesNotMatch(await page.inputValue('[data-testid=editor]'), /Petstore/);
  await context.close();
});

test('a document dropped on the closed API panel is loaded without its body', async () => {
  const { context, page, problems } = await openApp(browser);
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await dropOnPanel(page, readFileSync(PETSTORE, 'utf8'));
  await page.waitForSelector('[data-testid=notice]:has-text("API document loaded: Petstore 1.0.0 (3 methods)")');
  assert.equal(await page.$eval('[data-testid=api-panel]', (d) => d.open), false);
  assert.deepEqual(fetched.filter((p) => p.includes('later-views')), [], 'the panel\'s body is not fetched for a drop');
  assert.doesNotMatch(await page.inputValue('[data-testid=editor]'), /Petstore/);
  // Opened later, the panel's body names the document.
  await openPanel(page);
  await waitLoaded(page, 'Petstore 1.0.0: 3 methods');
  assert.match(await status(page), /from dropped\.json/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the document survives a reload', async () => {
  const { context, page } = await openApp(browser);
  await loadFile(page, PETSTORE);
  await waitLoaded(page, 'Petstore 1.0.0');
  await page.reload();
  await openPanel(page);
  await waitLoaded(page, 'Petstore 1.0.0: 3 methods');
  await context.close();
});

test('under a document, a param against its schema is a finding with its rule and reference link', async () => {
  const { context, page, problems } = await openApp(browser);
  await loadFile(page, PETSTORE);
  await waitLoaded(page, 'Petstore');
  await check(page, '{"jsonrpc": "2.0", "method": "list_pets", "params": ["ten"], "id": 1}');
  await page.waitForSelector('[data-testid=violation][data-rule=openrpc-param-invalid]');
  assert.deepEqual(await violations(page), ['openrpc-param-invalid /params/0']);
  await page.click('[data-testid=violation][data-rule=openrpc-param-invalid] [data-testid=violation-ref]');
  await page.waitForSelector('[data-testid=openrpc-rule-entry][data-rule=openrpc-param-invalid].focused');
  assert.deepEqual(problems, []);
  await context.close();
});

test('under a document, a method it lacks is named with the nearest ones', async () => {
  const { context, page } = await openApp(browser);
  await loadFile(page, PETSTORE);
  await waitLoaded(page, 'Petstore');
  await check(page, '{"jsonrpc": "2.0", "method": "list_pet", "id": 1}');
  await page.waitForSelector('[data-testid=violation][data-rule=openrpc-method-unknown]');
  assert.match(await page.textContent('[data-testid=violation]'), /nearest: list_pets/);
  await context.close();
});

test('a valid call under the document has no finding, and unloading it ends the API checks', async () => {
  const { context, page } = await openApp(browser);
  await loadFile(page, PETSTORE);
  await waitLoaded(page, 'Petstore');
  await check(page, '{"jsonrpc": "2.0", "method": "get_pet", "params": [3], "id": 1}');
  assert.deepEqual(await violations(page), []);
  await check(page, '{"jsonrpc": "2.0", "method": "nope", "id": 1}');
  await page.waitForSelector('[data-testid=violation][data-rule=openrpc-method-unknown]');
  await page.click('[data-testid=openrpc-unload]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=violation]'));
  assert.match(await status(page), /^No API document/);
  await context.close();
});

test("the reference lists the API's methods, and Try it loads an example call", async () => {
  const { context, page, problems } = await openApp(browser);
  await loadFile(page, PETSTORE);
  await waitLoaded(page, 'Petstore');
  await page.click('[data-testid=openrpc-reference-link]');
  await page.waitForSelector('[data-testid=api-reference]');
  const methods = await page.$$eval('[data-testid=api-method]', (ms) => ms.map((m) => m.dataset.method));
  assert.deepEqual(methods, ['list_pets', 'create_pet', 'get_pet']);
  const list = page.locator('[data-testid=api-method][data-method=list_pets]');
  assert.match(await list.textContent(), /List all pets/);
  assert.equal(await list.locator('[data-testid=api-param] [data-testid=schema-kind]').textContent(), 'integer');
  assert.match(await list.locator('[data-testid=api-result] [data-testid=schema-kind]').textContent(), /^array of object \(id, name, tag\)$/);
  assert.match(await list.locator('[data-testid=api-error]').textContent(), /^100 pets busy$/);
  await list.locator('[data-testid=api-try]').first().click();
  await page.waitForSelector('main.playground:not([hidden])');
  assert.deepEqual(JSON.parse(await page.inputValue('[data-testid=editor]')), {
    jsonrpc: '2.0', method: 'list_pets', params: [1], id: 1,
  });
  assert.deepEqual(problems, []);
  await context.close();
});

/** Sends the editor's text to the mock and waits for `n` log entries. */
async function send(page, text, n) {
  await page.fill('[data-testid=editor]', text);
  await page.click('[data-testid=send]');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=log-entry]').length >= n, n);
  const all = await entries(page);
  return JSON.parse(all[n - 1].raw);
}

test("the mock serves the document's API: example results, generated ones, -32601, -32602, rpc.discover", async () => {
  const { context, page, problems } = await openApp(browser);
  await loadFile(page, PETSTORE);
  await waitLoaded(page, 'Petstore');
  // The example pairing's params: its result exactly.
  let reply = await send(page, '{"jsonrpc": "2.0", "method": "list_pets", "params": [1], "id": 1}', 2);
  assert.deepEqual(reply, { jsonrpc: '2.0', result: [{ id: 7, name: 'fluffy', tag: 'poodle' }], id: 1 });
  // Other valid params: a value generated from the result schema (an array of pets).
  reply = await send(page, '{"jsonrpc": "2.0", "method": "list_pets", "params": [5], "id": 2}', 4);
  assert.equal(reply.id, 2);
  assert.ok(Array.isArray(reply.result), JSON.stringify(reply));
  reply = await send(page, '{"jsonrpc": "2.0", "method": "list_pet", "id": 3}', 6);
  assert.equal(reply.error.code, -32601);
  assert.deepEqual(reply.error.data, { nearest: ['list_pets'] });
  reply = await send(page, '{"jsonrpc": "2.0", "method": "list_pets", "params": ["ten"], "id": 4}', 8);
  assert.equal(reply.error.code, -32602);
  assert.deepEqual(reply.error.data.findings.map((f) => `${f.rule} ${f.path}`), ['openrpc-param-invalid /params/0']);
  reply = await send(page, '{"jsonrpc": "2.0", "method": "rpc.discover", "id": 5}', 10);
  assert.deepEqual(reply.result, JSON.parse(readFileSync(PETSTORE, 'utf8')));
  assert.deepEqual(problems, []);
  await context.close();
});

test("an OpenRPC rule's Try it loads its example document and message, which breaks it", async () => {
  const { context, page, problems } = await openApp(browser);
  await page.goto(`${BASE_URL}#/reference/openrpc-param-missing`);
  const entry = page.locator('[data-testid=openrpc-rule-entry][data-rule=openrpc-param-missing].focused');
  await entry.locator('[data-testid=try-bad]').click();
  await page.waitForSelector('[data-testid=violation][data-rule=openrpc-param-missing]');
  await openPanel(page);
  assert.match(await status(page), /^Example 1\.0\.0: 3 methods \(from the example document of openrpc-param-missing\)/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('rpc.discover over the live link loads the server\'s document (jrpc serve --openrpc --ws)', async () => {
  const server = await start(BIN.jrpc, ['serve', '--openrpc', PETSTORE, '--ws', '127.0.0.1:0', '--exit-after', '600']);
  const ws = server.urls.find((u) => u.startsWith('ws:'));
  const { context, page } = await openApp(browser);
  try {
    await page.selectOption('[data-testid=target]', 'link');
    await page.fill('[data-testid=link-url]', ws);
    await page.click('[data-testid=link-connect]');
    await page.waitForSelector('[data-testid=link-status][data-state=open]', { timeout: 20_000 });
    await openPanel(page);
    await page.click('[data-testid=openrpc-discover]');
    await waitLoaded(page, 'Petstore 1.0.0: 3 methods');
    assert.match(await status(page), /from rpc\.discover at ws:/);
    // Checked against the server's API from then on.
    await check(page, '{"jsonrpc": "2.0", "method": "get_pet", "params": [], "id": 2}');
    await page.waitForSelector('[data-testid=violation][data-rule=openrpc-param-missing]');
  } finally {
    await context.close();
    server.stop();
  }
});

test("the page's first load does not fetch the API's worker; the first document does", async () => {
  const context = await browser.newContext();
  const fetched = [];
  context.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const page = await context.newPage();
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  assert.deepEqual(fetched.filter((p) => p.includes('api-worker')), []);
  await loadFile(page, PETSTORE);
  await waitLoaded(page, 'Petstore');
  const worker = fetched.filter((p) => p.includes('api-worker'));
  assert.ok(worker.some((p) => p.endsWith('.wasm')) && worker.some((p) => p.endsWith('.js')), fetched.join(' '));
  await context.close();
});

test('a share link carries the document, and opening it loads the document with the text', async () => {
  const { context, page } = await openApp(browser);
  await loadFile(page, PETSTORE);
  await waitLoaded(page, 'Petstore');
  await page.fill('[data-testid=editor]', '{"jsonrpc": "2.0", "method": "list_pet", "id": 1}');
  await page.click('[data-testid=share]');
  const link = await (await page.waitForSelector('[data-testid=share-link]')).inputValue();
  await context.close();
  // A visitor with no document of their own.
  const other = await browser.newContext();
  const visitor = await other.newPage();
  await visitor.goto(link);
  await openPanel(visitor);
  await waitLoaded(visitor, 'Petstore 1.0.0: 3 methods (from the shared link)');
  await visitor.waitForSelector('[data-testid=violation][data-rule=openrpc-method-unknown]');
  await other.close();
});

test('a share link of a document fetched from a URL carries the URL', async () => {
  let served = 0;
  const server = createServer((req, res) => {
    served += 1;
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(readFileSync(SIMPLE_MATH));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/simple-math.json`;
  const { context, page } = await openApp(browser);
  await openPanel(page);
  await page.fill('[data-testid=openrpc-url]', url);
  await page.click('[data-testid=openrpc-fetch]');
  await waitLoaded(page, 'Simple Math');
  await page.click('[data-testid=share]');
  const link = await (await page.waitForSelector('[data-testid=share-link]')).inputValue();
  await context.close();
  const other = await browser.newContext();
  const visitor = await other.newPage();
  await visitor.goto(link);
  await openPanel(visitor);
  await waitLoaded(visitor, `Simple Math 1.0.0: 2 methods (from ${url})`);
  assert.equal(served, 2);
  await other.close();
  server.close();
});
