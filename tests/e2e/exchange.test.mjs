// End-to-end: Send to the in-browser mock server, the log and its pairing, the sequence picture,
// export as a file download, and the examples library, on the release build (dist/) in headless
// Chromium.   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/exchange.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { entries, launch, openAdvanced, openApp, openUncached } from './support.mjs';


const SUBTRACT = '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A fresh context (its own storage) and page on the app. */
const open = () => openApp(browser);

async function send(page, text) {
  await page.fill('[data-testid=editor]', text);
  await page.click('[data-testid=send]');
}

test('send subtract: 19 comes back paired with its request, the latency on selection', async () => {
  const { context, page, problems } = await open();
  await send(page, SUBTRACT);
  await page.waitForSelector('[data-testid=log-entry][data-direction=in]');
  const [out, reply] = await entries(page);
  assert.equal(out.direction, 'out');
  assert.equal(out.kind, 'request');
  assert.equal(reply.kind, 'response');
  assert.equal(reply.raw, '{"jsonrpc":"2.0","result":19,"id":1}');
  assert.match(reply.text, /result 19/);
  assert.equal(out.pair, reply.key);
  assert.equal(reply.pair, out.key);
  await page.click('[data-testid=log-entry][data-direction=in] [data-testid=log-item] button');
  assert.match(await page.getAttribute('[data-testid=log-entry][data-direction=out]', 'class'), /is-partner/);
  const selection = await page.textContent('[data-testid=log-selection]');
  assert.match(selection, /answers .*subtract.* latency \d/);
  // The picture has one arrow per message, a bracket for the pair, and says so in words.
  assert.equal(await page.locator('[data-testid=sequence] .xl-arrow').count(), 2);
  assert.equal(await page.locator('[data-testid=sequence] .xl-bracket').count(), 1);
  assert.equal(await page.getAttribute('[data-testid=sequence]', 'role'), 'img');
  assert.equal(await page.locator('[data-testid=sequence-text] li').count(), 2);
  // The selected reply and its request are highlighted in the picture, and only they.
  await page.waitForSelector('[data-testid=sequence] .xl-arrow.is-highlighted');
  assert.equal(await page.locator('[data-testid=sequence] .xl-arrow.is-highlighted').count(), 2);
  await page.click('[data-testid=log-entry][data-direction=out] [data-testid=log-item] button');
  assert.equal(await page.locator('[data-testid=sequence] .xl-arrow.is-highlighted').count(), 2);
  await send(page, '{"jsonrpc": "2.0", "method": "update", "params": [1]}');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=sequence] .xl-arrow').length === 3);
  assert.equal(await page.locator('[data-testid=sequence] .xl-arrow.is-highlighted').count(), 2, 'highlight survives a rebuild');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a notification gets no reply', async () => {
  const { context, page, problems } = await open();
  await send(page, '{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}');
  await page.waitForSelector('[data-testid=log-entry]');
  // Ctrl+Enter from the editor sends again: still nothing comes back.
  await page.focus('[data-testid=editor]');
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 2);
  const log = await entries(page);
  assert.deepEqual(log.map((e) => [e.direction, e.kind, e.status]), [
    ['out', 'notification', 'no-reply-expected'],
    ['out', 'notification', 'no-reply-expected'],
  ]);
  assert.equal(await page.textContent('[data-testid=log-status]'), 'no reply expected');
  assert.equal(await page.inputValue('[data-testid=editor]'), '{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}', 'Ctrl+Enter typed no newline');
  assert.deepEqual(problems, []);
  await context.close();
});

test('[] (not a batch) gets a single -32600 reply, not an array', async () => {
  const { context, page, problems } = await open();
  await send(page, '[]');
  await page.waitForSelector('[data-testid=log-entry][data-direction=in]');
  const log = await entries(page);
  assert.equal(log.length, 2);
  assert.equal(log[1].raw, '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"},"id":null}');
  assert.equal(log[0].pair, log[1].key);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a batch reply pairs per element, and a transcript sends only its client lines', async () => {
  const { context, page, problems } = await open();
  await send(page, '--> [{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method":"notify_hello","params":[7]},{"foo":"boo"}]\n'
    + '<-- [{"jsonrpc":"2.0","result":7,"id":"1"}]');
  await page.waitForSelector('[data-testid=log-entry][data-direction=in]');
  const directions = await page.$$eval('[data-testid=log-entry]', (es) => es.map((e) => e.dataset.direction));
  assert.deepEqual(directions, ['out', 'in']);
  const statuses = await page.$$eval('[data-testid=log-entry]:first-child [data-testid=log-item]',
    (items) => items.map((i) => i.dataset.status));
  assert.deepEqual(statuses, ['paired', 'no-reply-expected', 'paired']);
  const counts = page.locator('[data-testid=log-counts]');
  assert.equal(await counts.getAttribute('data-pairs'), '2');
  assert.equal(await counts.getAttribute('data-entries'), '2');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a request with id null gets its null back with the result: a valid response, paired', async () => {
  const { context, page, problems } = await open();
  await send(page, '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": null}');
  await page.waitForSelector('[data-testid=log-entry][data-direction=in]');
  const [out, reply] = await entries(page);
  assert.equal(reply.raw, '{"jsonrpc":"2.0","result":19,"id":null}');
  assert.deepEqual([out.kind, reply.kind, out.status, reply.status], ['request', 'response', 'paired', 'paired']);
  assert.equal(out.pair, reply.key);
  assert.doesNotMatch(await page.getAttribute('[data-testid=log-entry][data-direction=in]', 'class'), /xl-error/);
  assert.match(await page.textContent('[data-testid=log-counts]'), /1 pair · 0 waiting · 0 errors/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('export downloads the log as NDJSON and as a JSON array; clear empties it', async () => {
  const { context, page, problems } = await open();
  await send(page, `${SUBTRACT}\n{"jsonrpc": "2.0", "method": "update", "params": [1]}\n[]`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 5);

  await openAdvanced(page);
  const [ndjson] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-ndjson]')]);
  assert.match(ndjson.suggestedFilename(), /^jsonrpc-log-\d{8}-\d{6}\.ndjson$/);
  const lines = (await readFile(await ndjson.path(), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.seq, l.direction]), [[1, 'out'], [2, 'in'], [3, 'out'], [4, 'out'], [5, 'in']]);
  assert.deepEqual(lines[0].message, { jsonrpc: '2.0', method: 'subtract', params: [42, 23], id: 1 });
  assert.deepEqual(lines[1].message, { jsonrpc: '2.0', result: 19, id: 1 });
  assert.deepEqual(lines[3].message, []);
  assert.equal(lines[4].message.error.code, -32600);
  assert.ok(lines.every((l) => typeof l.time === 'number' && l.time > 1.6e12), 'times are epoch ms');
  assert.ok(lines[1].time >= lines[0].time);

  const [json] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-json]')]);
  assert.match(json.suggestedFilename(), /\.json$/);
  const array = JSON.parse(await readFile(await json.path(), 'utf8'));
  assert.deepEqual(array, lines);

  await page.click('[data-testid=clear-log]');
  assert.equal(await page.locator('[data-testid=log-entry]').count(), 0);
  assert.equal(await page.getAttribute('[data-testid=log-counts]', 'data-entries'), '0');
  // After Clear the numbering starts again at #1 (the keys behind it stay unique).
  await send(page, SUBTRACT);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 2);
  assert.deepEqual(await page.locator('[data-testid=log-number]').allTextContents(), ['#1', '#2']);
  assert.equal(await page.getAttribute('[data-testid=log-entry] >> nth=0', 'data-key'), '6');
  assert.deepEqual(problems, [], 'no CSP violation for blob: downloads');
  await context.close();
});

test('examples of each kind load with their profile and answer as they show', async () => {
  const { context, page, problems } = await open();
  const load = async (id) => {
    await page.selectOption('[data-testid=examples]', id);
    await page.waitForFunction((id) => document.querySelector('[data-testid=examples]').value === '', id);
  };
  const rules = () => page.$$eval('[data-testid=violation]', (vs) => vs.map((v) => v.dataset.rule));

  // A spec example: a transcript; Send sends its --> lines and the mock answers as the spec shows.
  await load('spec-positional');
  const text = await page.inputValue('[data-testid=editor]');
  assert.ok(text.startsWith('--> {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}'), text);
  assert.equal(await page.inputValue('[data-testid=profile]'), 'jsonrpc');
  await page.click('[data-testid=send]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 4);
  assert.deepEqual((await entries(page)).map((e) => e.raw.replaceAll(' ', '')), [
    '{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}',
    '{"jsonrpc":"2.0","result":19,"id":1}',
    '{"jsonrpc":"2.0","method":"subtract","params":[23,42],"id":2}',
    '{"jsonrpc":"2.0","result":-19,"id":2}',
  ]);

  // The MCP flow: MCP profile, clean, and the tool call answers 5.
  await page.click('[data-testid=clear-log]');
  await load('mcp-flow');
  assert.equal(await page.inputValue('[data-testid=profile]'), 'mcp:2025-11-25');
  assert.deepEqual(await rules(), []);
  await page.click('[data-testid=send]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 7);
  const flow = await entries(page);
  assert.deepEqual(flow.map((e) => e.direction), ['out', 'in', 'out', 'out', 'in', 'out', 'in']);
  assert.equal(flow[2].status, 'no-reply-expected');
  assert.equal(flow[6].raw, '{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"5"}]},"id":2}');

  // The quiz: three broken messages under MCP.
  await load('quiz-001');
  assert.deepEqual((await rules()).sort(), ['jsonrpc-not-2-0', 'mcp-param-missing', 'mcp-request-without-id']);

  // A common mistake, under plain JSON-RPC.
  await load('mistake-version-1-0');
  assert.equal(await page.inputValue('[data-testid=profile]'), 'jsonrpc');
  assert.deepEqual(await rules(), ['jsonrpc-not-2-0']);

  // An MCP error reply: -32602 with data.
  await page.click('[data-testid=clear-log]');
  await load('mcp-error-unknown-tool');
  await page.click('[data-testid=send]');
  await page.waitForSelector('[data-testid=log-entry][data-direction=in]');
  const reply = JSON.parse((await entries(page))[1].raw);
  assert.equal(reply.error.code, -32602);
  assert.equal(reply.error.data.errors[0].path, '/params/name');

  assert.deepEqual(problems, []);
  await context.close();
});

/** The mock server's worker files (src/web/workers/mock.rs): its glue and its wasm. */
const MOCK_FILE = /\/mock-worker[^/]*\.(js|wasm)$/;

test('the first load does not fetch the mock server: its worker is fetched on the first Send', async () => {
  const { context, page, fetched } = await openUncached(browser);
  await page.waitForLoadState('networkidle');
  assert.deepEqual(fetched.filter((u) => MOCK_FILE.test(u)), [], 'nothing of the mock before the first Send');
  await send(page, SUBTRACT);
  await page.waitForSelector('[data-testid=log-entry][data-direction=in]');
  const mockFiles = fetched.filter((u) => MOCK_FILE.test(u)).map((u) => u.replace(/.*\//, '').replace(/-[0-9a-f]{16}/, ''));
  assert.deepEqual(mockFiles.sort(), ['mock-worker.js', 'mock-worker_bg.wasm']);
  await context.close();
});

test('a mock server whose worker does not load says so in a notice naming its files, and the next Send tries again', async () => {
  const { context, page } = await openUncached(browser);
  let refused = 0;
  await page.route(/\/mock-worker[^/]*_bg\.wasm$/, async (route) => {
    refused += 1;
    await route.fulfill({ status: 404, body: 'gone' });
  });
  await send(page, SUBTRACT);
  const notice = page.locator('[data-testid=notice][data-level=error]', { hasText: 'The mock server could not answer' });
  await notice.waitFor();
  assert.match(await notice.textContent(), /its worker's files \(mock-worker-[0-9a-f]{16}\.js, mock-worker-[0-9a-f]{16}_bg\.wasm\) did not load/);
  assert.equal(await page.locator('[data-testid=log-entry]').count(), 0, 'nothing logged without a mock');
  assert.equal(refused, 1);
  await page.unroute(/\/mock-worker[^/]*_bg\.wasm$/);
  await page.click('[data-testid=send]');
  await page.waitForSelector('[data-testid=log-entry][data-direction=in]');
  const [, reply] = await entries(page);
  assert.equal(reply.raw, '{"jsonrpc":"2.0","result":19,"id":1}');
  await context.close();
});
