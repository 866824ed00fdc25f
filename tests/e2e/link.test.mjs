// End-to-end: the live link against real servers (tests/e2e/servers.mjs): jsonrpsee over WebSocket
// and HTTP (with a subscription), `jrpc serve --ws/--http` (with an MCP session), and each fault of
// the misbehaving server. Release build (dist/) in headless Chromium; the servers are the debug
// builds `cargo test` makes.   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/link.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { BASE_URL, entries, launch, openAdvanced, openApp, openUncached } from './support.mjs';
import { jsonrpsee, jrpcServe, misbehaving } from './servers.mjs';

let browser;
let rpsee;
let jrpc;
let bad;
before(async () => {
  [browser, rpsee, jrpc, bad] = await Promise.all([launch(), jsonrpsee(['--tick-ms', '50']), jrpcServe(), misbehaving()]);
});
after(async () => {
  await browser?.close();
  await Promise.all([rpsee?.stop(), jrpc?.stop(), bad?.stop()]);
});

/** A fresh context and page on the app, recording console errors, page errors and CSP violations. */
const open = () => openApp(browser);

/** Chromium's own console lines for a refused or dropped socket are expected in fault tests. */
const unexpected = (problems) => problems.filter((p) => !/WebSocket connection to|ERR_CONNECTION_REFUSED|Failed to load resource/.test(p));

/** Sets the link's options and connects; resolves when the state is `until`. */
async function connect(page, url, { reconnect = true, timeout, until = 'open' } = {}) {
  await page.selectOption('[data-testid=target]', 'link');
  await page.fill('[data-testid=link-url]', url);
  if (!reconnect || timeout) {
    await page.click('.link-more summary');
    if (!reconnect) await page.uncheck('[data-testid=link-reconnect]');
    if (timeout) {
      await page.fill('[data-testid=link-timeout]', String(timeout));
      await page.press('[data-testid=link-timeout]', 'Tab');
    }
  }
  await page.click('[data-testid=link-connect]');
  if (until) await state(page, until);
}

async function state(page, want) {
  await page.waitForSelector(`[data-testid=link-status][data-state=${want}]`, { timeout: 20_000 });
  return page.textContent('[data-testid=link-status]');
}

async function send(page, text) {
  await page.fill('[data-testid=editor]', text);
  await page.click('[data-testid=send]');
}

const count = (page) => page.getAttribute('[data-testid=log-counts]', 'data-entries').then(Number);
/** Waits until the log counts `n` entries or more and its rows (drawn by the views module, the
 * newest 500) show them all. */
const waitCount = (page, n, timeout = 20_000) =>
  page.waitForFunction((n) => {
    const entries = Number(document.querySelector('[data-testid=log-counts]').dataset.entries);
    return entries >= n && document.querySelectorAll('[data-testid=log-entry]').length === Math.min(entries, 500);
  }, n, { timeout });

const SUBTRACT = '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}';

/** Sends subtract and checks the reply 19 is paired with it, with a latency. */
async function subtractPairs(page, peer) {
  const before = await count(page);
  await send(page, SUBTRACT);
  await waitCount(page, before + 2);
  // The last two entries shown (the view may be a window of the log).
  const [out, reply] = (await entries(page)).slice(-2);
  assert.equal(out.direction, 'out');
  assert.equal(reply.direction, 'in');
  assert.equal(JSON.parse(reply.raw).result, 19, `${peer}: ${reply.raw}`);
  assert.equal(out.pair, reply.key);
  assert.equal(reply.pair, out.key);
  assert.ok(Number(reply.latency) >= 0, `a latency: ${reply.latency}`);
  assert.equal(out.status, 'paired');
}

test('jsonrpsee over WebSocket: a request pairs, a subscription pushes notifications, disconnect closes', async () => {
  const { context, page, problems } = await open();
  assert.equal(await page.getAttribute('[data-testid=link-status]', 'data-state'), 'closed');
  await connect(page, rpsee.ws);
  await subtractPairs(page, 'jsonrpsee ws');
  await send(page, '{"jsonrpc": "2.0", "method": "subscribe_ticks", "params": [30], "id": "sub"}');
  await waitCount(page, 2 + 2 + 3);
  const log = await entries(page);
  const sub = log.find((e) => e.direction === 'in' && e.kind === 'response');
  assert.ok(log.slice(2).some((e) => e.direction === 'in' && e.pair === log[2].key), 'the subscription id pairs with subscribe_ticks');
  const ticks = log.filter((e) => e.kind === 'notification' && e.direction === 'in');
  assert.ok(ticks.length >= 3, `tick notifications: ${ticks.length}`);
  assert.deepEqual(JSON.parse(ticks[0].raw).params.result, { n: 1 });
  assert.ok(ticks.every((t) => t.status === 'no-reply-expected'));
  assert.ok(sub);
  await page.click('[data-testid=link-connect]');
  assert.match(await state(page, 'closed'), /closed/);
  const n = await count(page);
  await page.waitForTimeout(200);
  assert.equal(await count(page), n, 'no tick after disconnect');
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('jsonrpsee over HTTP: POST pairs; an error reply pairs too', async () => {
  const { context, page, problems } = await open();
  await connect(page, rpsee.http);
  await subtractPairs(page, 'jsonrpsee http');
  await send(page, '{"jsonrpc": "2.0", "method": "fail", "params": [1], "id": 2}');
  await waitCount(page, 4);
  const [, , out, reply] = await entries(page);
  assert.equal(out.pair, reply.key);
  assert.equal(JSON.parse(reply.raw).error.code, -32000);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('jrpc serve --ws: the mock methods over a socket', async () => {
  const { context, page, problems } = await open();
  await connect(page, jrpc.ws);
  await subtractPairs(page, 'jrpc serve --ws');
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('jrpc serve --http: MCP session id kept and resent', async () => {
  const { context, page, problems } = await open();
  await connect(page, jrpc.http);
  await subtractPairs(page, 'jrpc serve --http');
  await send(page, '{"jsonrpc": "2.0", "id": 10, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}}}');
  await waitCount(page, 4);
  assert.match(await page.textContent('[data-testid=link-status]'), /MCP session \S+/);
  await send(page, '{"jsonrpc": "2.0", "id": 11, "method": "tools/list", "params": {}}');
  await waitCount(page, 6);
  const log = await entries(page);
  assert.equal(log[4].pair, log[5].key);
  assert.ok(JSON.parse(log[5].raw).result.tools.length > 0, log[5].raw);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('jrpc serve --http: the server asks during a call on the open SSE stream; Reply answers it in another POST', async () => {
  const { context, page, problems } = await open();
  await connect(page, jrpc.http);
  await send(page, '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {"sampling": {}}, "clientInfo": {"name": "e2e", "version": "1"}}}');
  await waitCount(page, 2);
  await send(page, '{"jsonrpc": "2.0", "method": "notifications/initialized"}');
  await send(page, '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "summarize", "arguments": {"text": "Streams are read as they arrive."}}}');
  // The POST's reply is still open: the server's request is logged from the stream at once.
  await page.waitForSelector('[data-testid=pending-item] [data-testid=reply]', { timeout: 10_000 });
  assert.match(await page.textContent('[data-testid=pending]'), /request sampling\/createMessage id "mock-1"/);
  await page.click('[data-testid=reply]');
  assert.match(await page.inputValue('[data-testid=editor]'), /^\{"jsonrpc":"2.0","id":"mock-1","result":\{"role":"assistant"/);
  await page.click('[data-testid=send]');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=log-raw]')].some((r) => r.textContent.includes('"id":2') && r.textContent.includes('"result"')), null, { timeout: 10_000 });
  const log = await entries(page);
  const call = log.find((e) => e.direction === 'out' && e.raw.includes('"summarize"'));
  const result = log.find((e) => e.direction === 'in' && e.raw.includes('"id":2'));
  assert.equal(call.pair, result.key);
  assert.equal(await page.getAttribute('[data-testid=pending]', 'data-count'), '0');
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('a refused connection: reconnecting with backoff, then an error that says what to check', async () => {
  const { context, page } = await open();
  await connect(page, bad.refused, { until: 'reconnecting' });
  assert.match(await page.textContent('[data-testid=link-status]'), /attempt 1 .*nothing is listening/);
  await page.click('[data-testid=link-connect]');
  await state(page, 'closed');
  await connect(page, bad.refused, { reconnect: false, until: 'error' });
  assert.match(await page.textContent('[data-testid=link-status]'), /no WebSocket connection to .*1006.*Check that the server runs/);
  await send(page, SUBTRACT);
  assert.match(await page.textContent('[data-testid=notices]'), /The link is not connected: enter an endpoint and press Connect/);
  assert.equal(await count(page), 0, 'nothing was sent');
  await context.close();
});

test('the server closes mid-request: the request is marked lost, not dropped', async () => {
  const { context, page } = await open();
  await connect(page, `${bad.ws}/close-mid-request`, { reconnect: false });
  await send(page, SUBTRACT);
  assert.match(await state(page, 'error'), /1006/);
  const [out] = await entries(page);
  assert.equal(out.status, 'lost');
  assert.match(out.text, /lost: the connection closed/);
  assert.equal(await page.getAttribute('[data-testid=pending]', 'data-count'), '0');
  await context.close();
});

test('the server closes with a code and a reason: both are shown', async () => {
  const { context, page } = await open();
  await connect(page, `${bad.ws}/close-with-code?code=4001&reason=going%20away%20now`, { reconnect: false });
  await send(page, SUBTRACT);
  assert.match(await state(page, 'error'), /code 4001: “going away now”/);
  assert.equal((await entries(page))[0].status, 'lost');
  await context.close();
});

test('garbage frames are shown with their parse error; the connection stays up', async () => {
  const { context, page } = await open();
  await connect(page, `${bad.ws}/garbage`);
  await waitCount(page, 5);
  const log = await entries(page);
  assert.deepEqual(log.map((e) => e.kind), ['parse-error', 'parse-error', 'parse-error', 'parse-error', 'notification']);
  assert.equal(log[0].raw, 'this is not JSON');
  assert.ok(log.slice(0, 4).every((e) => e.problem), 'each has its parse error');
  assert.match(log[0].problem, /not JSON at byte \d+: /);
  assert.match(log[2].problem, /empty frame/);
  assert.equal(await page.getAttribute('[data-testid=link-status]', 'data-state'), 'open');
  // A request is answered with garbage: shown with its parse error, the request still waits.
  await send(page, SUBTRACT);
  await waitCount(page, 7);
  const [out, answer] = (await entries(page)).slice(-2);
  assert.equal(out.status, 'pending');
  assert.match(answer.raw, /^not JSON: /);
  assert.match(answer.problem, /^not JSON at byte \d+: /);
  assert.equal(await page.getAttribute('[data-testid=link-status]', 'data-state'), 'open');
  await context.close();
});

test('binary frames are shown as binary with their size; the connection stays up', async () => {
  const { context, page } = await open();
  await connect(page, `${bad.ws}/binary`);
  await waitCount(page, 2);
  const log = await entries(page);
  const hello = Buffer.byteLength('{"jsonrpc":"2.0","method":"binary/hello"}');
  assert.equal(log[0].problem, 'binary frame, 4 bytes');
  assert.equal(log[0].raw, 'binary frame, 4 bytes: 00 01 02 ff');
  assert.equal(log[1].problem, `binary frame, ${hello} bytes`);
  await send(page, SUBTRACT);
  await waitCount(page, 4);
  assert.match((await entries(page))[3].problem, /^binary frame, \d+ bytes$/);
  assert.equal(await page.getAttribute('[data-testid=link-status]', 'data-state'), 'open');
  await context.close();
});

/** Sends subtract to the misbehaving server, whose reply (its echo) pairs with it. */
async function echoPairs(page) {
  const before = await count(page);
  await send(page, SUBTRACT);
  await waitCount(page, before + 2);
  const [out, reply] = (await entries(page)).slice(-2);
  assert.deepEqual(JSON.parse(reply.raw).result, { echo: [42, 23] });
  assert.equal(out.pair, reply.key);
}

test('a WebSocket frame over 16 MB is dropped and said; the connection stays up and still pairs', async () => {
  const { context, page } = await open();
  await connect(page, `${bad.ws}/huge?mb=17`);
  await page.waitForSelector('[data-testid=notice][data-level=error]', { timeout: 30_000 });
  assert.match(await page.textContent('[data-testid=notices]'),
    /A WebSocket frame of \d+ bytes from the server was dropped: the live link reads messages of at most 16 MB/);
  assert.equal(await count(page), 0, 'nothing of the frame in the log');
  await echoPairs(page);
  assert.equal(await page.getAttribute('[data-testid=link-status]', 'data-state'), 'open');
  await context.close();
});

test('an HTTP reply over 16 MB is not read: its request is lost with the reason, and said', async () => {
  const { context, page } = await open();
  await connect(page, bad.http);
  await send(page, '{"jsonrpc": "2.0", "method": "huge", "params": {"mb": 17}, "id": 1}');
  await page.waitForSelector('[data-testid=notice][data-level=error]', { timeout: 30_000 });
  assert.match(await page.textContent('[data-testid=notices]'), /could not be read: it is over 16 MB, the most the live link reads/);
  const [out] = await entries(page);
  assert.equal(out.status, 'lost');
  assert.match(out.text, /over 16 MB/);
  await echoPairs(page);
  await context.close();
});

test('a flood of 10 000 notifications: exact counts, the export has them all, the page stays responsive', async () => {
  const { context, page } = await open();
  await page.waitForSelector('[data-testid=log-pane]');
  // A probe of the main thread: the longest gap between animation frames while the flood lasts.
  await page.evaluate(() => {
    window.__gap = { max: 0, last: performance.now(), on: true };
    const frame = (t) => {
      window.__gap.max = Math.max(window.__gap.max, t - window.__gap.last);
      window.__gap.last = t;
      if (window.__gap.on) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    // And of the list: how many rows get built (a row is built once, when its message comes) over
    // how many updates of the list. The list (`data-testid=log`) is drawn in the log pane by the
    // views' module once the log has an entry: watched from the pane, rows anywhere below it.
    window.__rows = { built: 0, updates: 0, seen: new WeakSet() };
    new MutationObserver((records) => {
      window.__rows.updates += 1;
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (n.dataset?.testid === 'log-entry' && !window.__rows.seen.has(n)) {
            window.__rows.seen.add(n);
            window.__rows.built += 1;
          }
        }
      }
    }).observe(document.querySelector('[data-testid=log-pane]'), { childList: true, subtree: true });
  });
  const start = Date.now();
  await connect(page, `${bad.ws}/flood?n=10000`);
  await waitCount(page, 10_000, 120_000);
  const elapsed = Date.now() - start;
  const gap = await page.evaluate(() => {
    window.__gap.on = false;
    return window.__gap.max;
  });
  const rows = await page.evaluate(() => ({ built: window.__rows.built, updates: window.__rows.updates }));
  console.log(`flood: 10000 notifications logged in ${elapsed} ms; longest main-thread gap (requestAnimationFrame) ${Math.round(gap)} ms; ${rows.built} rows built over ${rows.updates} list updates`);
  assert.ok(rows.built <= 10_000, `each row built once at most, not every shown row per update (${rows.built} built over ${rows.updates} updates)`);
  await page.waitForTimeout(300);
  assert.equal(await count(page), 10_000, 'exactly 10 000 entries');
  assert.match(await page.textContent('[data-testid=log-window]'), /newest 500 of 10000/);
  assert.equal(await page.locator('[data-testid=log-entry]').count(), 500);
  await openAdvanced(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-ndjson]')]);
  const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 10_000);
  assert.ok(lines.every((l, i) => l.direction === 'in' && l.message.method === 'flood' && l.message.params.seq === i + 1), 'every notification, in order');
  assert.ok(gap < 3000, `the page answered at least every 3 s (longest gap ${Math.round(gap)} ms)`);
  // Still usable: a request pairs after the flood (the server echoes its params).
  await send(page, SUBTRACT);
  await waitCount(page, 10_002);
  const [out, reply] = (await entries(page)).slice(-2);
  assert.deepEqual(JSON.parse(reply.raw).result, { echo: [42, 23] });
  assert.equal(out.pair, reply.key);
  await context.close();
});

test('a server-initiated request waits in pending; the reply action answers it with its id', async () => {
  const { context, page } = await open();
  await connect(page, `${bad.ws}/server-request?method=ping`);
  await page.waitForSelector('[data-testid=pending-item] [data-testid=reply]');
  assert.match(await page.textContent('[data-testid=pending]'), /request ping id "srv-1" · \d+ s · awaiting your reply/);
  await page.click('[data-testid=reply]');
  assert.equal(await page.inputValue('[data-testid=editor]'), '{"jsonrpc":"2.0","id":"srv-1","result":{}}');
  assert.equal(await page.inputValue('[data-testid=target]'), 'link');
  await page.click('[data-testid=send]');
  await waitCount(page, 3);
  const [request, reply, answered] = await entries(page);
  assert.equal(request.direction, 'in');
  assert.equal(request.pair, reply.key);
  assert.equal(reply.direction, 'out');
  assert.deepEqual(JSON.parse(answered.raw).params.response, { jsonrpc: '2.0', id: 'srv-1', result: {} });
  assert.equal(await page.getAttribute('[data-testid=pending]', 'data-count'), '0');
  await context.close();
});

test('a request without reply: pending with its age, timed out after the timeout, lost on disconnect', async () => {
  const { context, page } = await open();
  await connect(page, `${bad.ws}/silent`, { timeout: 1 });
  await send(page, SUBTRACT);
  await page.waitForSelector('[data-testid=pending-item][data-status=pending]');
  assert.match(await page.textContent('[data-testid=pending]'), /1 waiting for a reply.*request subtract id 1 · \d+ s/s);
  await page.waitForSelector('[data-testid=log-entry][data-status=timed-out]', { timeout: 5000 });
  assert.match(await page.textContent('[data-testid=pending]'), /timed out/);
  await page.click('[data-testid=link-connect]');
  await state(page, 'closed');
  assert.equal((await entries(page))[0].status, 'lost');
  assert.equal(await page.getAttribute('[data-testid=pending]', 'data-count'), '0');
  await context.close();
});

test('a bad URL or header line is a clear error, nothing is sent', async () => {
  const { context, page } = await open();
  await connect(page, 'ftp://127.0.0.1/', { until: 'error' });
  assert.match(await page.textContent('[data-testid=link-status]'), /scheme ftp: is not one the link speaks/);
  await page.click('.link-more summary');
  await page.fill('[data-testid=link-headers]', 'X-Ok: 1\nno colon here');
  await connect(page, rpsee.http, { until: 'error' });
  assert.match(await page.textContent('[data-testid=link-status]'), /HTTP headers, line 2: “no colon here” has no colon/);
  await context.close();
});

test('MCP Streamable HTTP: an SSE reply is read event by event; Mcp-Session-Id is kept and resent', async () => {
  // A minimal Streamable HTTP endpoint (node:http on 127.0.0.1): the first POST gets a session id
  // and an SSE stream holding a notification then the response; later POSTs must carry the id.
  const { createServer } = await import('node:http');
  const seen = [];
  const server = createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'content-type, accept, mcp-session-id, x-trace',
      'access-control-expose-headers': 'mcp-session-id',
    };
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const msg = JSON.parse(body);
      seen.push({ session: req.headers['mcp-session-id'] ?? null, accept: req.headers.accept, trace: req.headers['x-trace'] ?? null, method: msg.method });
      res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'mcp-session-id': 'sess-42' });
      res.end(
        `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress",\ndata: "params":{"progress":1}}\n\n` +
          `: a comment\nevent: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{"ok":true}}\n\n`,
      );
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}/mcp`;
  try {
    const { context, page, problems } = await open();
    await page.click('.link-more summary');
    await page.fill('[data-testid=link-headers]', 'X-Trace: e2e');
    await connect(page, url);
    await send(page, '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}');
    await waitCount(page, 3);
    assert.match(await state(page, 'open'), /MCP session sess-42/);
    await send(page, '{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}');
    await waitCount(page, 6);
    const log = await entries(page);
    assert.deepEqual(log.map((e) => [e.direction, e.kind]), [
      ['out', 'request'], ['in', 'notification'], ['in', 'response'],
      ['out', 'request'], ['in', 'notification'], ['in', 'response'],
    ]);
    assert.equal(log[0].pair, log[2].key);
    assert.deepEqual(JSON.parse(log[1].raw), { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }, 'multi-line data joined');
    assert.deepEqual(seen.map((s) => s.session), [null, 'sess-42']);
    assert.ok(seen.every((s) => s.accept === 'application/json, text/event-stream' && s.trace === 'e2e'), JSON.stringify(seen));
    assert.deepEqual(unexpected(problems), []);
    await context.close();
  } finally {
    server.close();
  }
});

test('an HTTP endpoint that refuses: the request is lost and the error says what to check', async () => {
  const { context, page } = await open();
  const refused = bad.refused.replace('ws:', 'http:');
  await connect(page, refused);
  await send(page, SUBTRACT);
  assert.match(await state(page, 'error'), /the POST to .* failed before any reply .*refused.*CORS/);
  assert.equal((await entries(page))[0].status, 'lost');
  await context.close();
});

test('HTTP: a failed POST loses only what it carried, with the reason; a slow call in flight at the same time still pairs', async () => {
  const { context, page, problems } = await open();
  await connect(page, bad.http);
  // Three POSTs in flight at once to one endpoint: a slow call, one the server fails with HTTP 500,
  // and a batch of two requests it drops without any response (the fetch fails).
  await send(page, [
    '{"jsonrpc": "2.0", "method": "slow", "params": {"ms": 3000}, "id": 1}',
    '{"jsonrpc": "2.0", "method": "fail", "id": 2}',
    '[{"jsonrpc": "2.0", "method": "drop", "id": 3}, {"jsonrpc": "2.0", "method": "echo", "id": 4}]',
  ].join('\n'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry][data-status=lost]').length >= 2, null, { timeout: 10_000 });
  let log = await entries(page);
  assert.deepEqual(log.map((e) => [e.direction, e.kind, e.status]), [
    ['out', 'request', 'pending'], ['out', 'request', 'lost'], ['out', 'batch', 'lost'],
  ]);
  assert.match(log[1].text, /lost: the server answered HTTP 500 Internal Server Error with an empty body/);
  assert.match(log[2].text, /lost: the POST failed before any reply \(.+\)/);
  const batchItems = await page.$$eval(`[data-testid=log-entry][data-key="${log[2].key}"] [data-testid=log-item]`, (is) => is.map((i) => i.dataset.status));
  assert.deepEqual(batchItems, ['lost', 'lost'], 'each request of the failed batch');
  assert.equal(await page.getAttribute('[data-testid=pending]', 'data-count'), '1', 'the slow call still waits');
  // The slow reply comes and pairs: nothing else was lost with the failed POSTs.
  await waitCount(page, 4);
  log = await entries(page);
  const reply = log[3];
  assert.equal(reply.direction, 'in');
  assert.deepEqual(JSON.parse(reply.raw), { jsonrpc: '2.0', result: { echo: { ms: 3000 } }, id: 1 });
  assert.equal(log[0].status, 'paired');
  assert.equal(log[0].pair, reply.key);
  assert.deepEqual(log.slice(1, 3).map((e) => e.status), ['lost', 'lost']);
  assert.equal(await page.getAttribute('[data-testid=log-counts]', 'data-entries'), '4');
  // The endpoint answers, so the link is open (the dropped POST had set it to error).
  await state(page, 'open');
  assert.deepEqual(unexpected(problems).filter((p) => !/ERR_EMPTY_RESPONSE|status of 500/.test(p)), []);
  await context.close();
});

test('from an HTTPS page, ws:// and http:// to another host are refused up front as mixed content', async () => {
  // The release build behind a throwaway HTTPS proxy (a self-signed certificate made here).
  const { execFileSync } = await import('node:child_process');
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { createServer } = await import('node:https');
  const dir = await mkdtemp(join(tmpdir(), 'link-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  const server = createServer({ key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) }, async (req, res) => {
    const upstream = await fetch(new URL(req.url, BASE_URL));
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream' });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const page = await context.newPage();
    await page.goto(`https://127.0.0.1:${server.address().port}/`);
    await page.waitForSelector('[data-testid=verdict]');
    await connect(page, 'ws://192.0.2.1:9/', { until: 'error' });
    assert.match(await page.textContent('[data-testid=link-status]'), /loaded over HTTPS.*block ws:\/\/.*mixed content.*Use wss:\/\//);
    await connect(page, 'http://192.0.2.1:9/', { until: 'error' });
    assert.match(await page.textContent('[data-testid=link-status]'), /block http:\/\/.*Use https:\/\//);
    // Loopback is not mixed content: the jsonrpsee server answers over ws:// from this HTTPS page.
    await connect(page, rpsee.ws);
    await subtractPairs(page, 'ws:// from https');
  } finally {
    await context.close();
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('after a reload, requests that were in flight on the link are marked lost', async () => {
  const { context, page } = await open();
  await connect(page, `${bad.ws}/silent`);
  await send(page, SUBTRACT);
  await page.waitForSelector('[data-testid=pending-item][data-status=pending]');
  await page.waitForTimeout(600); // the draft (with the log) is saved 300 ms after a change
  await page.reload();
  await page.waitForSelector('[data-testid=log-entry][data-status=lost]', { timeout: 5000 });
  assert.equal(await page.getAttribute('[data-testid=link-status]', 'data-state'), 'closed');
  assert.equal(await page.getAttribute('[data-testid=pending]', 'data-count'), '0');
  await context.close();
});

/** The live link's worker files (src/web/workers/link.rs, the `link-worker` binary): glue and wasm. */
const LINK_FILE = /\/link-worker[^/]*\.(js|wasm)$/;

test('the first load does not fetch the live link: its worker is fetched on the first Connect, once', async () => {
  const { context, page, problems, fetched } = await openUncached(browser);
  await page.waitForTimeout(1_000);
  assert.deepEqual(fetched.filter((u) => LINK_FILE.test(u)), [], 'nothing of the link before the first Connect');
  await connect(page, rpsee.ws);
  await subtractPairs(page, 'jsonrpsee ws');
  // Disconnect, then another endpoint and transport: the same worker serves it.
  await page.click('[data-testid=link-connect]');
  await state(page, 'closed');
  await connect(page, rpsee.http);
  await subtractPairs(page, 'jsonrpsee http');
  const linkFiles = fetched.filter((u) => LINK_FILE.test(u)).map((u) => u.replace(/.*\//, '').replace(/-[0-9a-f]{16}/, ''));
  assert.deepEqual(linkFiles.sort(), ['link-worker.js', 'link-worker_bg.wasm']);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('a link whose worker does not load says so in its status, and Connect again tries again', async () => {
  const { context, page } = await openUncached(browser);
  let refused = 0;
  await page.route(/\/link-worker[^/]*_bg\.wasm$/, async (route) => {
    refused += 1;
    await route.fulfill({ status: 404, body: 'gone' });
  });
  const status = await (connect(page, rpsee.ws, { until: 'error' }).then(() => state(page, 'error')));
  assert.match(status, /^error: the live link could not run: its worker's files \(link-worker-[0-9a-f]{16}\.js, link-worker-[0-9a-f]{16}_bg\.wasm\) did not load.*Press Connect to try again/);
  assert.equal(refused, 1);
  await page.unroute(/\/link-worker[^/]*_bg\.wasm$/);
  await page.click('[data-testid=link-connect]');
  await state(page, 'open');
  await subtractPairs(page, 'after a retry');
  await context.close();
});
