// End-to-end: the page's Probe under an OpenRPC document (#26 §5), as `jrpc probe --openrpc`:
// with a document loaded (the API panel) the Probe calls each of its methods with its examples'
// params and checks each reply against the document, in the API's worker; without one, a plain
// JSON-RPC server answering rpc.discover is probed under the document it returns. Against
// `jrpc serve --openrpc petstore` over WebSocket and HTTP (every check passes) and against
// tests/fixtures/wrong_servers.py's petstore over HTTP (its planted API defects, each with its
// rule and pointer, nothing else). Release build (dist/) in headless Chromium; jrpc is the debug
// build `cargo test` makes.
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/openrpc_probe.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { BASE_URL, launch, openAdvanced, openApp } from './support.mjs';
import { BIN, start } from './servers.mjs';

const PETSTORE = fileURLToPath(new URL('../data/openrpc/examples/petstore-openrpc.json', import.meta.url));
const WRONG_SERVERS = fileURLToPath(new URL('../fixtures/wrong_servers.py', import.meta.url));
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

let browser;
let served;
let wrong;
before(async () => {
  [browser, served, wrong] = await Promise.all([
    launch(),
    start(BIN.jrpc, ['serve', '--openrpc', PETSTORE, '--ws', '127.0.0.1:0', '--http', '127.0.0.1:0', '--exit-after', '600']),
    start(PYTHON, [WRONG_SERVERS, 'petstore', '--http']),
  ]);
});
after(async () => {
  await browser?.close();
  await Promise.all([served?.stop(), wrong?.stop()]);
});

const endpoint = (server, scheme) => server.urls.find((u) => u.startsWith(`${scheme}:`));

/** Chromium logs each HTTP error status the probe provokes on purpose (a parse error answered 400;
 * a plain JSON-RPC server has no MCP endpoint for its GET or its 2026-07-28 requests). */
const unexpected = (problems) => problems.filter((p) => !/Failed to load resource: the server responded with a status of (400|404|405)/.test(p));

/** Loads the petstore document through the API panel's Open document. */
async function loadPetstore(page) {
  await page.click('[data-testid=api-panel] > summary');
  await page.setInputFiles('[data-testid=openrpc-file-input]', PETSTORE);
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=openrpc-status]')?.textContent.startsWith('Petstore 1.0.0: 3 methods'));
}

/** Types `url` in the link panel, sets the Probe options and presses Probe; the status once done. */
async function probe(page, url, { skipMethods, maxCalls } = {}) {
  await page.selectOption('[data-testid=target]', 'link');
  await page.fill('[data-testid=link-url]', url);
  await openAdvanced(page);
  if (skipMethods !== undefined || maxCalls !== undefined) {
    await page.click('[data-testid=probe] .probe-options > summary');
    if (skipMethods !== undefined) await page.fill('[data-testid=probe-skip-methods]', skipMethods);
    if (maxCalls !== undefined) await page.fill('[data-testid=probe-max-calls]', String(maxCalls));
  }
  await page.click('[data-testid=probe-run]');
  await page.waitForSelector('[data-testid=probe-status][data-state=done]', { timeout: 90_000 });
  return page.textContent('[data-testid=probe-status]');
}

/** The table's rows: `{ check, status, detail }`. */
const rows = (page) =>
  page.$$eval('[data-testid=probe-table] tbody tr', (trs) =>
    trs.map((tr) => ({ check: tr.dataset.check, status: tr.dataset.status, detail: tr.querySelector('.probe-detail').textContent })));

/** The findings shown: `[check, rule, pointer]`, in table order. */
const findings = (page) =>
  page.$$eval('[data-testid=probe-finding]', (fs) =>
    fs.map((f) => [f.closest('tr').dataset.check, f.dataset.rule, f.dataset.pointer]));

/** Every `[rule, path]` of a report's documents (batch items too), in transcript order. */
function reportFindings(report) {
  const found = [];
  for (const doc of report.documents.flatMap((d) => [d, ...(d.items ?? [])])) {
    for (const v of doc.violations ?? []) found.push([v.rule, v.path]);
  }
  return found;
}

/** Downloads the Probe's report and reads it. */
async function download(page) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=probe-export]')]);
  assert.match(file.suggestedFilename(), /^jrpc-probe-.*\.json$/);
  return JSON.parse(await readFile(await file.path(), 'utf8'));
}

for (const scheme of ['ws', 'http']) {
  test(`with a document loaded, Probe checks jrpc serve --openrpc --${scheme}'s API: every check passes`, async () => {
    const { context, page, problems } = await openApp(browser);
    await loadPetstore(page);
    const url = endpoint(served, scheme);
    assert.match(await probe(page, url), /: JSON-RPC 2\.0$/);
    const table = await rows(page);
    assert.deepEqual(table.filter((r) => r.status !== 'pass'), [], 'every check passes');
    const ids = table.map((r) => r.check);
    for (const id of ['openrpc/discover', 'jsonrpc/parse-error', 'jsonrpc/batch', 'openrpc/list_pets', 'openrpc/create_pet', 'openrpc/get_pet']) {
      assert.ok(ids.includes(id), `${id} in ${ids}`);
    }
    assert.equal(table.find((r) => r.check === 'openrpc/discover').detail, 'the same document as the one given');
    assert.match(table.find((r) => r.check === 'openrpc/get_pet').detail, /answered with a result/);
    assert.deepEqual(await findings(page), []);

    // The report is `jrpc probe --openrpc --format json`'s.
    const report = await download(page);
    assert.equal(report.target, url);
    assert.equal(report.profile.name, 'jsonrpc');
    assert.equal(report.failed, 0);
    assert.deepEqual(report.checks.map((c) => [c.id, c.status]), table.map((r) => [r.check, r.status]));
    assert.deepEqual(reportFindings(report), []);
    assert.ok(report.documents.length > 10, 'the conversation is in the report');
    assert.deepEqual(unexpected(problems), []);
    await context.close();
  });
}

test('with a document loaded, each planted API defect is reported with its rule and pointer, nothing else', async () => {
  const { context, page, problems } = await openApp(browser);
  await loadPetstore(page);
  await probe(page, endpoint(wrong, 'http'));
  const table = await rows(page);
  const api = table.filter((r) => r.check.startsWith('openrpc/')).map((r) => [r.check, r.status]);
  assert.deepEqual(api, [
    ['openrpc/discover', 'pass'],
    ['openrpc/list_pets', 'fail'],
    ['openrpc/create_pet', 'fail'],
    ['openrpc/get_pet', 'fail'],
  ]);
  // An error code the method does not declare (409) fails its check, as `jrpc probe` judges it.
  assert.deepEqual(table.filter((r) => r.status === 'fail').map((r) => r.check), ['openrpc/list_pets', 'openrpc/create_pet', 'openrpc/get_pet']);
  assert.deepEqual(await findings(page), [
    ['openrpc/list_pets', 'openrpc-result-invalid', '/result'],
    ['openrpc/create_pet', 'openrpc-error-undeclared', '/error/code'],
    ['openrpc/get_pet', 'openrpc-result-invalid', '/result'],
  ]);
  const detail = (id) => table.find((r) => r.check === id).detail;
  assert.match(detail('openrpc/list_pets'), /want array, but got string/);
  assert.match(detail('openrpc/get_pet'), /missing properties 'name'/);
  assert.match(detail('openrpc/create_pet'), /409 is not among them/);
  assert.match(detail('openrpc/discover'), /-32601/);

  const report = await download(page);
  assert.deepEqual(reportFindings(report), [
    ['openrpc-result-invalid', '/result'],
    ['openrpc-error-undeclared', '/error/code'],
    ['openrpc-result-invalid', '/result'],
  ]);
  assert.equal(report.failed, 3);

  // A finding's rule links to the OpenRPC rule's entry in the reference.
  const ref = page.locator('[data-testid=probe-finding][data-rule=openrpc-result-invalid] a').first();
  assert.equal(await ref.getAttribute('href'), '#/reference/openrpc-result-invalid');
  await ref.click();
  await page.waitForSelector('[data-testid=openrpc-rule-entry][data-rule=openrpc-result-invalid].focused');
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('the Probe options skip named methods and cap the calls (as --skip-method and --max-calls)', async () => {
  const { context, page, problems } = await openApp(browser);
  await loadPetstore(page);
  await probe(page, endpoint(served, 'ws'), { skipMethods: 'create_pet', maxCalls: 1 });
  const table = await rows(page);
  const find = (id) => table.find((r) => r.check === id);
  assert.equal(find('openrpc/list_pets').status, 'pass');
  assert.deepEqual([find('openrpc/create_pet').status, find('openrpc/create_pet').detail], ['skipped', '--skip-method']);
  assert.deepEqual([find('openrpc/get_pet').status, find('openrpc/get_pet').detail], ['skipped', '--max-calls 1 reached']);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('without a document, a server answering rpc.discover is probed under the document it returns', async () => {
  const { context, page, problems } = await openApp(browser);
  await probe(page, endpoint(served, 'http'));
  const table = await rows(page);
  assert.deepEqual(table.filter((r) => r.status !== 'pass'), [], 'every check passes');
  assert.equal(table[0].check, 'openrpc/discover');
  assert.equal(table[0].detail, 'a valid document with 3 methods: the methods probed');
  for (const id of ['openrpc/list_pets', 'openrpc/create_pet', 'openrpc/get_pet']) {
    assert.ok(table.some((r) => r.check === id), id);
  }
  // The page's own API state is left as it was: no document loaded.
  await page.click('[data-testid=api-panel] > summary');
  assert.match(await page.textContent('[data-testid=openrpc-status]'), /^No API document/);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('without a document, a server with no rpc.discover gets the usual probe only', async () => {
  const { context, page, problems } = await openApp(browser);
  const fetched = [];
  context.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await probe(page, endpoint(wrong, 'http'));
  const table = await rows(page);
  assert.ok(!table.some((r) => r.check.startsWith('openrpc/')), table.map((r) => r.check).join(' '));
  assert.deepEqual(fetched.filter((p) => p.includes('api-worker')), [], "the API's worker is not fetched");
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('a probe under a document can be cancelled: the API worker stops calling the server', async () => {
  const { context, page, problems } = await openApp(browser);
  await loadPetstore(page);
  const url = endpoint(served, 'http');
  // Each POST is held a while, so that Cancel comes mid-probe.
  let posts = 0;
  await page.route((u) => u.href.startsWith(url), async (route) => {
    posts += 1;
    await new Promise((done) => setTimeout(done, 300));
    await route.continue();
  });
  await page.selectOption('[data-testid=target]', 'link');
  await page.fill('[data-testid=link-url]', url);
  await openAdvanced(page);
  await page.click('[data-testid=probe-run]');
  for (let waited = 0; posts < 3 && waited < 20_000; waited += 50) await new Promise((done) => setTimeout(done, 50));
  assert.ok(posts >= 3, `${posts} requests before Cancel`);
  await page.click('[data-testid=probe-cancel]');
  await page.waitForSelector('[data-testid=probe-status][data-state=cancelled]');
  const atCancel = posts;
  await new Promise((done) => setTimeout(done, 2_000));
  assert.ok(posts <= atCancel + 1, `${posts - atCancel} requests after Cancel`);
  assert.equal(await page.getAttribute('[data-testid=probe-status]', 'data-state'), 'cancelled');
  assert.equal(await page.$('[data-testid=probe-table]'), null);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test("without a document, a server's rpc.discover document is checked against the meta-schema, its faults located", async () => {
  const { context, page, problems } = await openApp(browser);
  const url = endpoint(served, 'http');
  // The server describes itself with a document whose info.version is a number, not a string.
  const broken = JSON.parse(await readFile(PETSTORE, 'utf8'));
  broken.info.version = 1;
  await page.route((u) => u.href.startsWith(url), async (route) => {
    const request = route.request();
    let body = null;
    try {
      body = JSON.parse(request.postData() ?? 'null');
    } catch {}
    if (body?.method === 'rpc.discover') {
      await route.fulfill({ status: 200, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: JSON.stringify({ jsonrpc: '2.0', id: body.id, result: broken }) });
      return;
    }
    await route.continue();
  });
  await probe(page, url);
  const table = await rows(page);
  assert.equal(table[0].check, 'openrpc/discover');
  assert.equal(table[0].status, 'fail');
  assert.deepEqual((await findings(page)).filter((f) => f[0] === 'openrpc/discover'),
    [['openrpc/discover', 'openrpc-document-invalid', '/result/info/version']]);
  // No usable document: no method is called.
  assert.equal(table.find((r) => r.check === 'openrpc/methods').status, 'skipped');
  const report = await download(page);
  assert.deepEqual(reportFindings(report), [['openrpc-document-invalid', '/result/info/version']]);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test("a probe under rpc.discover's document whose API worker does not load says so in the panel", async () => {
  // No service worker: the API worker's files come from the network, where they are refused.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  await page.route(/\/api-worker[^/]*_bg\.wasm$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.selectOption('[data-testid=target]', 'link');
  await page.fill('[data-testid=link-url]', endpoint(served, 'ws'));
  await openAdvanced(page);
  await page.click('[data-testid=probe-run]');
  await page.waitForSelector('[data-testid=probe-status][data-state=error]', { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid=probe-status]'), /^The Probe under the API document could not run: its worker's files \(api-worker-[0-9a-f]{16}\.js, api-worker-[0-9a-f]{16}_bg\.wasm\) did not load/);
  assert.equal(await page.$('[data-testid=probe-table]'), null);
  await context.close();
});
