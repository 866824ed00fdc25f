// End-to-end: MCP 2026-07-28's input-required rounds against the in-browser mock — the page's
// default MCP profile; a tool that asks (summarize: sampling; ask_name: elicitation) answers with
// an input-required result that the log and the sequence picture show as a round; Answer puts the
// retry (a new id, inputResponses by key, the state unchanged) in the editor as one undoable edit,
// and Send finishes the call; "answer automatically" runs the rounds hands-free, several in a row,
// and stops after 8 rounds of one request (saying so); lesson 15 says what its cancelled listen did;
// a round from a live server (`jrpc serve --ws`) is answered over the link the same way.
// Run alone with
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/mcp_rounds.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { entries, launch, openAdvanced, openApp } from './support.mjs';
import { jrpcServe } from './servers.mjs';

let browser;
let jrpc;
before(async () => {
  [browser, jrpc] = await Promise.all([launch(), jrpcServe()]);
});
after(async () => {
  await browser?.close();
  await jrpc?.stop();
});

const editorValue = (page) => page.$eval('[data-testid=editor]', (t) => t.value);

/** A 2026-07-28 tools/call: the version and the client's capabilities in `_meta`. */
const call = (id, name, args) => JSON.stringify({
  jsonrpc: '2.0', id, method: 'tools/call',
  params: {
    name, arguments: args,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'e2e', version: '1.0' },
      'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: {}, roots: {} },
    },
  },
});

/** Puts `text` in the editor under MCP 2026-07-28 and sends it. */
async function send(page, text) {
  await page.selectOption('[data-testid=profile]', 'mcp:2026-07-28');
  await page.fill('[data-testid=editor]', text);
  await page.click('[data-testid=send]');
}

/** Waits for a received message whose raw text includes `needle`. */
const received = (page, needle) =>
  page.waitForFunction((n) =>
    [...document.querySelectorAll('[data-testid=log-entry][data-direction=in] [data-testid=log-raw]')].some((r) => r.textContent.includes(n)), needle);

/** The rounds shown in the log: each entry's key and its round's attributes and text. */
const rounds = (page) =>
  page.$$eval('[data-testid=log-entry]', (es) => es.map((e) => {
    const r = e.querySelector('[data-testid=log-round]');
    return r && {
      key: e.dataset.key, round: r.dataset.round, asks: r.dataset.asks ?? null, of: r.dataset.of ?? null,
      retriedBy: r.dataset.retriedBy ?? null, text: r.textContent,
    };
  }));

test('2026-07-28 is the page\'s default MCP profile, offered first', async () => {
  const { context, page, problems } = await openApp(browser);
  const options = await page.$$eval('[data-testid=profile] optgroup option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.equal(options[0][0], 'mcp:2026-07-28');
  assert.match(options[0][1], /2026-07-28 \(default\)$/);
  assert.equal(options.filter(([, t]) => t.includes('(default)')).length, 1);
  assert.ok(options.some(([v]) => v === 'mcp:2025-11-25'), 'the handshake versions are still offered');
  assert.deepEqual(problems, []);
  await context.close();
});

test('by hand: summarize asks the model in a round, Answer and Send finish the call', async () => {
  const { context, page, problems } = await openApp(browser);
  await send(page, call(1, 'summarize', { text: 'Ids echo exactly.' }));
  await page.waitForSelector('[data-testid=log-round-answer]');
  let shown = await rounds(page);
  assert.deepEqual(shown[0], null, 'the call itself is no round');
  assert.equal(shown[1].asks, 'answer:sampling');
  assert.equal(shown[1].round, '1');
  assert.match(shown[1].text, /Input required \(round 1\): answer: sampling/);
  // The sequence picture marks the round too.
  assert.match(await page.textContent('[data-testid=sequence] g.is-round[data-round="1"]'), /input required: sampling/);

  await page.click('[data-testid=log-round-answer]');
  const retry = JSON.parse(await editorValue(page));
  assert.equal(retry.id, 2, 'a new id');
  assert.equal(retry.method, 'tools/call');
  assert.equal(retry.params.name, 'summarize');
  assert.deepEqual(retry.params.arguments, { text: 'Ids echo exactly.' });
  assert.equal(retry.params.inputResponses.answer.role, 'assistant');
  assert.equal(retry.params.requestState, undefined, 'the result had no state: none is sent');
  await page.click('[data-testid=send]');
  await received(page, 'Summary by playground-auto-answer');

  const log = await entries(page);
  assert.equal(log.length, 4, log.map((e) => e.raw).join('\n'));
  shown = await rounds(page);
  assert.equal(shown[1].retriedBy, log[2].key, 'the round links to its retry');
  assert.match(shown[1].text, /answered by the retry #3/);
  assert.equal(shown[2].of, log[1].key, 'the retry links to the round');
  assert.match(shown[3].text, /reply to the retry of round 1/);
  assert.equal(log[3].pair, log[2].key, 'the final result answers the retry');
  assert.equal(await page.locator('[data-testid=log-round-answer]').count(), 0, 'answered: no button left');
  assert.deepEqual(problems, []);
  await context.close();
});

test('automatically: with "answer automatically" on, the round is answered and the call finishes', async () => {
  const { context, page, problems } = await openApp(browser);
  await page.check('[data-testid=auto-answer]');
  await send(page, call(1, 'summarize', { text: 'Rounds, hands-free.' }));
  await received(page, 'Summary by playground-auto-answer');
  const log = await entries(page);
  assert.deepEqual(log.map((e) => e.direction), ['out', 'in', 'out', 'in'], log.map((e) => e.raw).join('\n'));
  assert.equal(JSON.parse(log[1].raw).result.resultType, 'input_required');
  assert.ok(JSON.parse(log[2].raw).params.inputResponses.answer, log[2].raw);
  assert.equal(JSON.parse(log[3].raw).result.resultType, 'complete');
  assert.equal(await page.locator('[data-testid=log-round-answer]').count(), 0);
  assert.equal(await page.inputValue('[data-testid=editor]'), call(1, 'summarize', { text: 'Rounds, hands-free.' }), 'the editor is left alone');
  assert.deepEqual(problems, []);
  await context.close();
});

test('Answer is one edit: Ctrl+Z brings back what the editor held', async () => {
  const { context, page, problems } = await openApp(browser);
  const mine = call(7, 'list_roots', {});
  await send(page, mine);
  await page.click('[data-testid=log-round-answer]');
  assert.match(await editorValue(page), /"inputResponses":\{"answer":\{"roots":\[\]\}\}/);
  await page.focus('[data-testid=editor]');
  await page.keyboard.press('Control+z');
  assert.equal(await editorValue(page), mine);
  // The round still waits for its answer.
  assert.equal(await page.locator('[data-testid=log-round-answer]').count(), 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('ask_name: the elicitation round is answered with the form\'s defaults', async () => {
  const { context, page, problems } = await openApp(browser);
  await send(page, call(1, 'ask_name', {}));
  await page.waitForSelector('[data-testid=log-round][data-asks="answer:elicitation"]');
  await page.click('[data-testid=log-round-answer]');
  const retry = JSON.parse(await editorValue(page));
  assert.deepEqual(retry.params.inputResponses.answer, { action: 'accept', content: { name: 'Ada', colour: 'blue' } });
  await page.click('[data-testid=send]');
  await received(page, 'Hello, Ada! Your favourite colour is blue.');
  assert.deepEqual(problems, []);
  await context.close();
});

test('several rounds in a row, by hand: each retry echoes the state its round gave', async () => {
  const { context, page, problems } = await openApp(browser);
  await openAdvanced(page); // the mock's tools are folded under "Advanced"
  await page.selectOption('[data-testid=mock-fixtures]', 'conformance');
  await send(page, call(1, 'test_input_required_result_multi_round', {}));
  for (const round of ['1', '2']) {
    await page.waitForSelector(`[data-testid=log-round][data-round="${round}"] [data-testid=log-round-answer]`);
    const asking = (await entries(page)).at(-1);
    await page.click('[data-testid=log-round-answer]');
    const retry = JSON.parse(await editorValue(page));
    assert.equal(retry.params.requestState, JSON.parse(asking.raw).result.requestState, `round ${round}: the state unchanged`);
    await page.click('[data-testid=send]');
  }
  await received(page, 'favourite colour is');
  const shown = (await rounds(page)).filter(Boolean).map((r) => r.round);
  assert.deepEqual(shown, ['1', '1', '2', '2', '2']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('several rounds in a row, automatically', async () => {
  const { context, page, problems } = await openApp(browser);
  await openAdvanced(page); // the mock's tools are folded under "Advanced"
  await page.selectOption('[data-testid=mock-fixtures]', 'conformance');
  await page.check('[data-testid=auto-answer]');
  await send(page, call(1, 'test_input_required_result_multi_round', {}));
  await received(page, 'favourite colour is');
  const kinds = (await entries(page)).filter((e) => e.direction === 'in').map((e) => JSON.parse(e.raw).result.resultType);
  assert.deepEqual(kinds, ['input_required', 'input_required', 'complete']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('automatically, a server that keeps asking is answered 8 rounds, then the page stops and says so', async () => {
  const { context, page, problems } = await openApp(browser);
  await openAdvanced(page);
  await page.selectOption('[data-testid=mock-fixtures]', 'conformance');
  await page.check('[data-testid=auto-answer]');
  // multiple_inputs completes only when one retry carries all three answers and its state; a
  // first call that brings all three without a state is asked for the name alone, its retry for
  // the rest, and so on: a cooperative client answering only what each round asks never ends.
  const first = JSON.parse(call(1, 'test_input_required_result_multiple_inputs', {}));
  first.params.inputResponses = {
    user_name: { action: 'accept', content: { name: 'Ada' } },
    greeting: { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'm' },
    client_roots: { roots: [] },
  };
  await send(page, JSON.stringify(first));
  await page.waitForFunction(() => /Stopped answering automatically after 8 input-required rounds/.test(document.querySelector('[data-testid=notices]')?.textContent ?? ''));
  const log = await entries(page);
  const out = log.filter((e) => e.direction === 'out');
  const back = log.filter((e) => e.direction === 'in').map((e) => JSON.parse(e.raw).result?.resultType);
  assert.equal(out.length, 9, 'the call and its 8 automatic retries');
  assert.deepEqual(back, Array(9).fill('input_required'));
  // Each retry went out under a new id with the state its round gave.
  assert.equal(new Set(out.map((e) => JSON.parse(e.raw).id)).size, 9);
  assert.ok(out.slice(1).every((e) => JSON.parse(e.raw).params.requestState), 'every retry echoes a state');
  // The last round waits, unanswered, for the learner.
  await page.waitForSelector('[data-testid=log-round-answer]');
  assert.equal(await page.locator('[data-testid=log-round-answer]').count(), 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('lesson 15: the cancelled listen says the client cancelled the subscription', async () => {
  const { context, page, problems } = await openApp(browser);
  await page.goto(new URL('#/lessons/15', page.url()).href);
  await page.waitForSelector('[data-testid=lesson][data-lesson="mcp-cancellation"]');
  await page.click('[data-testid=lesson-run]');
  await page.waitForSelector('[data-testid=lesson-no-reply]');
  const notes = await page.$$eval('[data-testid=lesson-no-reply]', (ns) => ns.map((n) => n.textContent));
  assert.deepEqual(notes, [
    '← no reply: the client cancelled this subscription (the notifications/cancelled below), so it ended without one, not even an error: no more notifications come on it',
    '← no reply: nothing is returned for this message',
  ]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('over the live link: a round from jrpc serve --ws is answered and retried on the link', async () => {
  const { context, page, problems } = await openApp(browser);
  await page.selectOption('[data-testid=profile]', 'mcp:2026-07-28');
  await page.selectOption('[data-testid=target]', 'link');
  await page.fill('[data-testid=link-url]', jrpc.ws);
  await page.click('[data-testid=link-connect]');
  await page.waitForSelector('[data-testid=link-status][data-state=open]', { timeout: 20_000 });
  await page.fill('[data-testid=editor]', call(1, 'list_roots', {}));
  await page.click('[data-testid=send]');
  await page.waitForSelector('[data-testid=log-round][data-asks="answer:roots"] [data-testid=log-round-answer]', { timeout: 10_000 });
  await page.click('[data-testid=log-round-answer]');
  assert.equal(await page.inputValue('[data-testid=target]'), 'link', 'the retry goes where the round came from');
  assert.equal(JSON.parse(await editorValue(page)).id, 2);
  await page.click('[data-testid=send]');
  await received(page, 'The client has no roots to show.');
  const log = await entries(page);
  assert.equal(log.length, 4, log.map((e) => e.raw).join('\n'));
  assert.equal(log[3].pair, log[2].key);
  assert.deepEqual(problems, []);
  await context.close();
});
