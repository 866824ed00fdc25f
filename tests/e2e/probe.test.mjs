// End-to-end: the link panel's Probe (`jrpc probe`'s checks run from the page) against
// `jrpc serve --ws` and `--http` (tests/e2e/servers.mjs), under the revision server/discover offers
// (2026-07-28): every check passes, input-required rounds included, the table has a row
// per check with its status and spec link, Download the report saves what `jrpc probe --format
// json` writes, and a probe can be cancelled. Release build (dist/) in headless Chromium; the
// server is the debug build `cargo test` makes.
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/probe.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, openAdvanced, openApp, openUncached } from './support.mjs';
import { jrpcServe, jsonrpsee } from './servers.mjs';

let browser;
let jrpc;
let rpsee;
before(async () => {
  [browser, jrpc, rpsee] = await Promise.all([launch(), jrpcServe(), jsonrpsee()]);
});
after(async () => {
  await browser?.close();
  await Promise.all([jrpc?.stop(), rpsee?.stop()]);
});

/** Chromium logs each HTTP error status the probe provokes on purpose (its parse error and
 * invalid request are answered 400 over HTTP; under 2026-07-28 its unknown method and its batch
 * are answered -32601 with 404). */
const unexpected = (problems) => problems.filter((p) => !/Failed to load resource: the server responded with a status of (400|404)/.test(p));

/** Types `url` in the link panel and presses Probe; resolves with the status when it is `until`. */
async function probe(page, url, until = 'done') {
  await page.selectOption('[data-testid=target]', 'link');
  await page.fill('[data-testid=link-url]', url);
  await openAdvanced(page);
  await page.click('[data-testid=probe-run]');
  await page.waitForSelector(`[data-testid=probe-status][data-state=${until}]`, { timeout: 60_000 });
  return page.textContent('[data-testid=probe-status]');
}

/** The table's rows: `{ check, status, text, spec }`. */
const rows = (page) =>
  page.$$eval('[data-testid=probe-table] tbody tr', (trs) =>
    trs.map((tr) => ({
      check: tr.dataset.check,
      status: tr.dataset.status,
      text: tr.textContent,
      spec: tr.querySelector('a.spec')?.href ?? '',
    })));

for (const transport of ['ws', 'http']) {
  test(`Probe against jrpc serve --${transport}: every check passes, and the report exports`, async () => {
    const { context, page, problems } = await openApp(browser);
    const status = await probe(page, jrpc[transport]);
    // The revision is chosen from server/discover's answer: jrpc serve speaks 2026-07-28.
    assert.match(status, /probe of .*: MCP 2026-07-28/);

    const table = await rows(page);
    assert.ok(table.length >= 15, `${table.length} rows`);
    const failed = table.filter((r) => r.status === 'fail');
    assert.deepEqual(failed, [], 'no check fails against jrpc serve');
    for (const row of table) {
      assert.match(row.status, /^(pass|skipped)$/, row.check);
      assert.match(row.spec, /^https:\/\//, `${row.check} has a spec link`);
    }
    const ids = table.map((r) => r.check);
    for (const id of ['lifecycle/discover', 'tools/list', 'tools/call', 'mcp/input-required', 'jsonrpc/parse-error', 'jsonrpc/ids-echoed']) {
      assert.ok(ids.includes(id), `${id} in ${ids}`);
    }
    assert.equal(table.find((r) => r.check === 'tools/call').status, 'pass');
    // The friendly tools' input-required rounds, answered as jrpc probe answers them.
    assert.equal(table.find((r) => r.check === 'mcp/input-required').status, 'pass');

    const summary = page.locator('[data-testid=probe-summary]');
    const passed = Number(await summary.getAttribute('data-passed'));
    assert.equal(Number(await summary.getAttribute('data-failed')), 0);
    assert.equal(passed, table.filter((r) => r.status === 'pass').length);
    assert.match(await summary.textContent(), new RegExp(`${passed} passed, 0 failed`));

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=probe-export]')]);
    assert.match(download.suggestedFilename(), /^jrpc-probe-.*\.json$/);
    const report = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.equal(report.target, jrpc[transport]);
    assert.equal(report.failed, 0);
    assert.equal(report.passed, passed);
    assert.deepEqual(report.checks.map((c) => [c.id, c.status]), table.map((r) => [r.check, r.status]));
    assert.equal(report.profile.name, 'mcp');
    assert.ok(report.documents.length > 20, 'the conversation is in the report');

    // The probe's messages are its own: the page's log stays empty.
    assert.equal(await page.getAttribute('[data-testid=log-counts]', 'data-entries'), '0');
    assert.deepEqual(unexpected(problems), []);
    await context.close();
  });
}

test('Probe against the jsonrpsee server over HTTP: plain JSON-RPC, its two failures with their findings', async () => {
  const { context, page, problems } = await openApp(browser);
  const status = await probe(page, rpsee.http);
  assert.match(status, /: JSON-RPC 2\.0$/);
  const table = await rows(page);
  // As `jrpc probe` says (tests/probe.rs): the §7 invalid request is answered -32700, and a
  // notification with the body `null`.
  assert.deepEqual(table.filter((r) => r.status === 'fail').map((r) => r.check),
    ['jsonrpc/invalid-request', 'jsonrpc/notification-not-answered']);
  assert.equal(table.find((r) => r.check === 'lifecycle/initialize').status, 'skipped');
  const findings = await page.$$eval('[data-testid=probe-finding]', (fs) =>
    fs.map((f) => ({ rule: f.dataset.rule, check: f.closest('tr').dataset.check, href: f.querySelector('a').getAttribute('href') })));
  const invalid = findings.find((f) => f.rule === 'invalid-request-code');
  assert.equal(invalid.check, 'jsonrpc/invalid-request');
  // The probe's own rules are not in the reference: their link is the specification's section.
  assert.match(invalid.href, /^https:\/\/www\.jsonrpc\.org\//);
  const notObject = findings.find((f) => f.rule === 'message-not-object');
  assert.equal(notObject.check, 'jsonrpc/notification-not-answered');
  assert.equal(notObject.href, '#/reference/message-not-object');
  const summary = page.locator('[data-testid=probe-summary]');
  assert.equal(await summary.getAttribute('data-failed'), '2');
  assert.match(await summary.getAttribute('class'), /has-errors/);
  await page.click('[data-testid=probe-finding][data-rule=message-not-object] a');
  await page.waitForURL(/#\/reference\/message-not-object$/);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('a probe can be cancelled, and a bad endpoint is said so', async () => {
  const { context, page, problems } = await openApp(browser);
  await page.selectOption('[data-testid=target]', 'link');
  await page.fill('[data-testid=link-url]', 'ftp://127.0.0.1:1/');
  await openAdvanced(page);
  await page.click('[data-testid=probe-run]');
  await page.waitForSelector('[data-testid=probe-status][data-state=error]');
  assert.match(await page.textContent('[data-testid=probe-status]'), /ftp:/);

  await page.fill('[data-testid=link-url]', jrpc.ws);
  await page.click('[data-testid=probe-run]');
  await page.click('[data-testid=probe-cancel]');
  await page.waitForSelector('[data-testid=probe-status][data-state=cancelled]');
  assert.equal(await page.$('[data-testid=probe-table]'), null);
  assert.equal(await page.isDisabled('[data-testid=probe-run]'), false);
  assert.deepEqual(problems, []);
  await context.close();
});

/** The JSON of a POST body, or null (the probe sends text that is not JSON on purpose). */
function parsed(text) {
  try {
    return JSON.parse(text ?? 'null');
  } catch {
    return null;
  }
}

/** Makes `jrpc serve --http` handshake-only for `page`: server/discover is answered -32601, as a
 * server without it answers, so the probe falls back to initialize. `each` sees every other
 * request before it goes on. */
async function handshakeOnly(page, each = async () => {}) {
  await page.route((url) => url.href.startsWith(jrpc.http), async (route) => {
    const request = route.request();
    const body = request.method() === 'POST' ? parsed(request.postData()) : null;
    if (body?.method === 'server/discover') {
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } }) });
      return;
    }
    await each(request);
    await route.continue();
  });
}

test('a cancelled HTTP probe ends its session (DELETE with the session id), as a finished one does', async () => {
  const { context, page, problems } = await openApp(browser);
  // Every POST after the session starts is held a while, so that Cancel comes mid-probe. The
  // server is made handshake-only (server/discover answered -32601, as such a server does), so
  // the probe falls back to initialize and gets a session.
  let session = null;
  const deleted = [];
  await handshakeOnly(page, async (request) => {
    if (request.method() === 'DELETE') deleted.push(await request.headerValue('mcp-session-id'));
    if (request.method() === 'POST' && session) await new Promise((r) => setTimeout(r, 400));
  });
  page.on('response', async (response) => {
    const id = await response.headerValue('mcp-session-id').catch(() => null);
    if (id && response.request().method() === 'POST') session ??= id;
  });
  await page.selectOption('[data-testid=target]', 'link');
  await page.fill('[data-testid=link-url]', jrpc.http);
  await openAdvanced(page);
  await page.click('[data-testid=probe-run]');
  const started = Date.now();
  while (!session && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
  assert.ok(session, 'the server gave a session id');
  await page.click('[data-testid=probe-cancel]');
  await page.waitForSelector('[data-testid=probe-status][data-state=cancelled]');
  const until = Date.now() + 5_000;
  while (!deleted.includes(session) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(deleted, [session], 'one DELETE, with the session id');
  // The page stays cancelled: the stopped probe does not overwrite it when it winds down.
  await new Promise((r) => setTimeout(r, 1_000));
  assert.equal(await page.getAttribute('[data-testid=probe-status]', 'data-state'), 'cancelled');
  assert.equal(await page.$('[data-testid=probe-table]'), null);
  // The POST held back by the route above reaches the server after the DELETE: 404, no session.
  assert.deepEqual(unexpected(problems).filter((p) => !/status of 404/.test(p)), []);
  await context.close();
});

test('Probe against a handshake server over HTTP answers its requests while the POST stream waits', async () => {
  const { context, page, problems } = await openApp(browser);
  await handshakeOnly(page);
  const status = await probe(page, jrpc.http);
  assert.match(status, /probe of .*: MCP 2025-11-25/);
  const table = await rows(page);
  assert.deepEqual(table.filter((r) => r.status === 'fail'), [], 'no check fails');
  assert.equal(table.find((r) => r.check === 'lifecycle/discover').status, 'skipped');
  assert.equal(table.find((r) => r.check === 'tools/call').status, 'pass');
  // summarize, ask_name and list_roots each ask the client on the tools/call's event stream.
  assert.match(table.find((r) => r.check === 'mcp/input-required').text, /3 server requests answered/);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('the Options keep the probe off named tools and cap its calls (as --skip-tool and --max-calls)', async () => {
  const { context, page, problems } = await openApp(browser);
  await page.selectOption('[data-testid=target]', 'link');
  await page.fill('[data-testid=link-url]', jrpc.http);
  await openAdvanced(page);
  await page.click('.probe-options summary');
  await page.fill('[data-testid=probe-max-calls]', '0');
  await page.click('[data-testid=probe-run]');
  await page.waitForSelector('[data-testid=probe-status][data-state=error]');
  assert.match(await page.textContent('[data-testid=probe-status]'), /Max calls must be a whole number from 1 to 1000/);

  await page.fill('[data-testid=probe-skip-tools]', 'add, echo');
  await page.fill('[data-testid=probe-max-calls]', '2');
  await probe(page, jrpc.http);
  const call = (await rows(page)).find((r) => r.check === 'tools/call');
  assert.ok(call, 'a tools/call row');
  assert.match(call.text, /add: skipped \(--skip-tool\)/);
  assert.match(call.text, /echo: skipped \(--skip-tool\)/);
  assert.match(call.text, /stopped after 2 calls \(--max-calls\)/);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

/** The Probe's worker files (src/web/workers/probe/mod.rs): the workers' loader, its glue and wasm. */
const PROBE_FILE = /\/(worker-boot|probe-worker)[^/]*\.(js|wasm)$/;

test('the first load does not fetch the Probe: its worker is fetched on the first Probe', async () => {
  const { context, page, problems, fetched } = await openUncached(browser);
  await new Promise((r) => setTimeout(r, 1_000));
  assert.deepEqual(fetched.filter((u) => PROBE_FILE.test(u)), [], 'nothing of the Probe before the first Probe');
  await probe(page, jrpc.ws);
  const probeFiles = fetched.filter((u) => PROBE_FILE.test(u)).map((u) => u.replace(/.*\//, ''));
  assert.deepEqual(probeFiles.map((u) => u.replace(/-[0-9a-f]{16}/, '')).sort(),
    ['probe-worker.js', 'probe-worker_bg.wasm', 'worker-boot.js']);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('a Probe whose worker does not load says so in the panel, and the next Probe tries again', async () => {
  const { context, page } = await openUncached(browser);
  let refused = 0;
  await page.route(/\/probe-worker[^/]*_bg\.wasm$/, async (route) => {
    refused += 1;
    await route.fulfill({ status: 404, body: 'gone' });
  });
  const status = await probe(page, jrpc.ws, 'error');
  assert.match(status, /^The Probe could not run: its worker's files \(probe-worker-[0-9a-f]{16}\.js, probe-worker-[0-9a-f]{16}_bg\.wasm\) did not load/);
  assert.equal(await page.$('[data-testid=probe-table]'), null);
  assert.equal(refused, 1);
  await page.unroute(/\/probe-worker[^/]*_bg\.wasm$/);
  await page.click('[data-testid=probe-run]');
  await page.waitForSelector('[data-testid=probe-status][data-state=done]', { timeout: 60_000 });
  await context.close();
});

/** The JSON-RPC message of an HTTP response body: JSON as it is, or an event stream's data. */
const messageOf = (body) =>
  body.trimStart().startsWith('{') ? body.trim()
    : body.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter(Boolean).join('');

test('an HTTP probe resumes an event stream that ends before its reply (GET with Last-Event-ID)', async () => {
  const { context, page, problems } = await openApp(browser);
  // The tools/list POST's event stream ends after a priming event (id e1); its reply, fetched
  // from jrpc serve, comes on the stream resumed by a GET with Last-Event-ID: e1.
  const resumed = [];
  let reply = null;
  const stream = { 'access-control-allow-origin': '*', 'content-type': 'text/event-stream' };
  await page.route((url) => url.href.startsWith(jrpc.http), async (route) => {
    const request = route.request();
    const body = request.method() === 'POST' ? parsed(request.postData()) : null;
    if (body?.method === 'tools/list' && reply === null) {
      reply = messageOf(await (await route.fetch()).text());
      await route.fulfill({ status: 200, headers: stream, body: 'id: e1\nretry: 50\ndata:\n\n' });
      return;
    }
    const lastEventId = await request.headerValue('last-event-id');
    if (request.method() === 'GET' && lastEventId) {
      resumed.push(lastEventId);
      await route.fulfill({ status: 200, headers: stream, body: `id: e2\ndata: ${reply}\n\n` });
      return;
    }
    await route.continue();
  });
  await probe(page, jrpc.http);
  assert.ok(reply?.includes('"tools"'), `the tools/list reply: ${reply}`);
  assert.deepEqual(resumed, ['e1'], 'one GET, with the last event id');
  const failed = (await rows(page)).filter((r) => r.status === 'fail');
  assert.deepEqual(failed, [], 'no check fails: the resumed stream brought the reply');
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('an HTTP probe opens the standalone event stream after initialized and answers a request on it', async () => {
  const { context, page, problems } = await openApp(browser);
  // A handshake server (initialize, then notifications/initialized): the standalone GET (no
  // Last-Event-ID) gets an event stream carrying the server's ping; the probe's answer is a POST.
  await handshakeOnly(page);
  const opened = [];
  const answers = [];
  const ping = { jsonrpc: '2.0', id: 'standalone-1', method: 'ping' };
  await page.route((url) => url.href.startsWith(jrpc.http), async (route) => {
    const request = route.request();
    const body = request.method() === 'POST' ? parsed(request.postData()) : null;
    if (body?.id === ping.id) answers.push(body);
    if (request.method() === 'GET' && !(await request.headerValue('last-event-id'))) {
      opened.push(await request.headerValue('mcp-session-id'));
      await route.fulfill({
        status: 200,
        headers: { 'access-control-allow-origin': '*', 'content-type': 'text/event-stream' },
        body: `event: message\ndata: ${JSON.stringify(ping)}\n\n`,
      });
      return;
    }
    await route.fallback();
  });
  await probe(page, jrpc.http);
  assert.equal(opened.length, 1, 'one standalone GET');
  assert.ok(opened[0], 'with the session id');
  assert.deepEqual(answers, [{ jsonrpc: '2.0', id: 'standalone-1', result: {} }], 'the ping answered');
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});
