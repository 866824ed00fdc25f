// End-to-end: a learner runs MCP's flows against the in-browser mock MCP server — the server
// asking the client's model (sampling) answered with the log's Reply, the server asking the user
// (elicitation) answered automatically, progress and log lines between a request and its result,
// a subscription's update, and a lesson whose server request is answered from the lesson. Run
// alone with
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/mcp_flows.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { entries, launch, openAdvanced, openApp } from './support.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const editorValue = (page) => page.$eval('[data-testid=editor]', (t) => t.value);
const lines = (...messages) => messages.map((m) => JSON.stringify(m)).join('\n');
const initialize = (capabilities) => ({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'e2e', version: '1.0' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id, name, args) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** Opens the playground under the MCP 2025-11-25 profile with `text` in the editor and sends it. */
async function send(page, text) {
  await page.selectOption('[data-testid=profile]', 'mcp:2025-11-25');
  await page.fill('[data-testid=editor]', text);
  await page.click('[data-testid=send]');
}

const counts = (page) =>
  page.$eval('[data-testid=log-counts]', (c) => ({ pairs: Number(c.dataset.pairs), waiting: Number(c.dataset.waiting) }));

test('sampling: the server asks during a call, Reply answers it, and the call finishes', async () => {
  const { context, page, problems } = await openApp(browser);
  await send(page, lines(initialize({ sampling: {} }), initialized, call(2, 'summarize', { text: 'Ids echo exactly.' })));
  // The server's request waits in the log with a Reply button; the call has no reply yet.
  await page.waitForSelector('[data-testid=log-reply]');
  let log = await entries(page);
  const asked = log.find((e) => e.direction === 'in' && e.raw.includes('"sampling/createMessage"'));
  assert.ok(asked, JSON.stringify(log.map((e) => e.raw)));
  assert.equal(asked.kind, 'request');
  assert.ok(!log.some((e) => e.direction === 'in' && e.raw.includes('"id":2')), 'no reply to the call yet');
  await page.click('[data-testid=log-reply]');
  const answer = await editorValue(page);
  assert.match(answer, /^\{"jsonrpc":"2.0","id":"mock-1","result":\{"role":"assistant"/);
  // The prefilled answer is a valid response (the verdict says so), and Send finishes the call.
  await page.waitForSelector('[data-testid=verdict][data-kind=response]');
  await page.click('[data-testid=send]');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=log-raw]')].some((r) => r.textContent.includes('"id":2') && r.textContent.includes('"result"')));
  log = await entries(page);
  const result = log.find((e) => e.direction === 'in' && e.raw.includes('"id":2'));
  assert.match(result.raw, /Ids echo exactly|An automatic answer/);
  assert.equal(await page.locator('[data-testid=log-reply]').count(), 0, 'nothing waits any more');
  assert.deepEqual(problems, []);
  await context.close();
});

test('elicitation: with "answer automatically" on, the flow runs hands-free', async () => {
  const { context, page, problems } = await openApp(browser);
  await page.check('[data-testid=auto-answer]');
  await send(page, lines(initialize({ elicitation: {} }), initialized, call(2, 'ask_name', {})));
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=log-raw]')].some((r) => r.textContent.includes('Hello, ')));
  const log = await entries(page);
  const order = log.map((e) => `${e.direction}:${e.raw.includes('elicitation/create') ? 'ask' : e.raw.includes('"action":"accept"') ? 'answer' : e.raw.includes('Hello, ') ? 'result' : 'other'}`);
  const ask = order.indexOf('in:ask');
  assert.ok(ask > 0 && order[ask + 1] === 'out:answer' && order[ask + 2] === 'in:result', order.join(' '));
  const { waiting } = await counts(page);
  assert.equal(waiting, 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('progress and log lines arrive between the request and its result', async () => {
  const { context, page, problems } = await openApp(browser);
  await send(page, lines({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'countdown', arguments: { n: 3 }, _meta: { progressToken: 'p' } } }));
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=log-raw]')].some((r) => r.textContent.includes('Liftoff!')));
  const log = await entries(page);
  const kinds = log.map((e) => (e.raw.includes('notifications/progress') ? 'progress' : e.raw.includes('notifications/message') ? 'log' : e.raw.includes('Liftoff!') ? 'result' : e.direction));
  assert.equal(kinds[0], 'out');
  assert.equal(kinds.at(-1), 'result');
  assert.equal(kinds.filter((k) => k === 'progress').length, 3, kinds.join(' '));
  assert.equal(kinds.filter((k) => k === 'log').length, 3, kinds.join(' '));
  // The sequence picture draws them too.
  assert.ok((await page.locator('[data-testid=sequence] g.is-notification').count()) >= 6);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a subscription delivers its update before the tool that changed the resource answers', async () => {
  const { context, page, problems } = await openApp(browser);
  await send(page, lines(
    { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'mock://notes' } },
    call(2, 'add_note', { text: 'from the e2e test' }),
    { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'mock://notes' } },
  ));
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=log-raw]')].some((r) => r.textContent.includes('"id":3')));
  const log = await entries(page);
  const updated = log.findIndex((e) => e.raw.includes('notifications/resources/updated'));
  const added = log.findIndex((e) => e.direction === 'in' && e.raw.includes('"id":2'));
  assert.ok(updated > 0 && updated < added, log.map((e) => e.raw).join('\n'));
  assert.match(log.find((e) => e.direction === 'in' && e.raw.includes('"id":3')).raw, /from the e2e test/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the handshake lesson: Run, then answer the server from the lesson', async () => {
  const { context, page, problems } = await openApp(browser);
  await page.goto(new URL('#/lessons/16', page.url()).href);
  await page.waitForSelector('[data-testid=lesson][data-lesson="mcp-versions"]');
  await page.click('[data-testid=lesson-run]');
  await page.waitForSelector('[data-testid=lesson-answer]');
  await page.click('[data-testid=lesson-answer]');
  await page.waitForFunction(() =>
    // Long replies are pretty-printed in a lesson: compare without the layout's spaces.
    [...document.querySelectorAll('[data-testid=lesson-reply]')].some((r) => r.textContent.replace(/\s/g, '').includes('"id":2')));
  assert.equal(await page.locator('[data-testid=lesson-answer]').count(), 0, 'answered: no button left');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the mock can serve the conformance suite\'s fixtures instead of the learners\' (a new session)', async () => {
  const { context, page, problems } = await openApp(browser);
  await openAdvanced(page);
  await page.selectOption('[data-testid=mock-fixtures]', 'conformance');
  await page.waitForFunction(() => /official MCP test suite's tools/.test(document.querySelector('[data-testid=notices]')?.textContent ?? ''));
  await send(page, lines(initialize({}), initialized, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, call(3, 'test_simple_text', {})));
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=log-raw]')].some((r) => r.textContent.includes('This is a simple text response for testing.')));
  const listed = (await entries(page)).find((e) => e.direction === 'in' && e.raw.includes('"id":2'));
  assert.match(listed.raw, /"test_simple_text"/);
  assert.doesNotMatch(listed.raw, /"countdown"/);
  // Back to the learners' tools, and Clear keeps the choice.
  await page.selectOption('[data-testid=mock-fixtures]', 'friendly');
  await page.click('[data-testid=clear-log]');
  await send(page, lines(call(4, 'add', { a: 2, b: 3 })));
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=log-raw]')].some((r) => r.textContent.includes('"text":"5"')));
  assert.equal(await page.inputValue('[data-testid=mock-fixtures]'), 'friendly');
  assert.deepEqual(problems, []);
  await context.close();
});
