// End-to-end: MCP's tool schemas in the page's mock and Probe (#26 §3), as natively. The page's
// mock under MCP (the `mcp-mock-worker` binary, built with the mcp-schemas feature) answers what
// breaks a schema exactly as `jrpc serve` on stdio answers the same messages (ids aside): a
// tools/call's arguments against the tool's inputSchema (conformance fixtures), a 2026-07-28
// elicitation answer against its requestedSchema (friendly fixtures); a JSON-RPC Send fetches only
// the small `mock-worker`. The page's Probe (`probe-worker`, same feature) reports the same
// findings (rule, pointer) as `jrpc probe` against tests/fixtures/wrong_servers.py's
// structured-content server over HTTP (structuredContent breaking its outputSchema). Release build
// (dist/) in headless Chromium; jrpc is the debug build `cargo test` makes.
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/mcp_tool_schemas.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { entries, launch, openAdvanced, openApp, openUncached } from './support.mjs';
import { BIN, start } from './servers.mjs';

const WRONG_SERVERS = fileURLToPath(new URL('../fixtures/wrong_servers.py', import.meta.url));
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

let browser;
let wrong;
before(async () => {
  [browser, wrong] = await Promise.all([launch(), start(PYTHON, [WRONG_SERVERS, 'structured-content', '--http'])]);
});
after(async () => {
  await browser?.close();
  await wrong?.stop();
});

const initialize = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1.0' } },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const schemaToolCall = (id, contactMethod) => ({
  jsonrpc: '2.0', id, method: 'tools/call',
  params: { name: 'json_schema_2020_12_tool', arguments: { contactMethod, email: 'a@b' } },
});
/** A 2026-07-28 call of ask_name carrying the answer to its form (no round before it). */
const askNameAnswered = (id, content) => ({
  jsonrpc: '2.0', id, method: 'tools/call',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      'io.modelcontextprotocol/clientInfo': { name: 'e2e', version: '1.0' },
    },
    name: 'ask_name', inputResponses: { answer: { action: 'accept', content } },
  },
});

/** `jrpc serve ARGS` on stdio given `messages`: its replies, parsed, by id. */
function nativeReplies(args, messages) {
  const out = spawnSync(BIN.jrpc, ['serve', ...args], {
    input: messages.map((m) => JSON.stringify(m)).join('\n') + '\n', encoding: 'utf8', timeout: 30_000,
  });
  assert.equal(out.status, 0, out.stderr);
  return new Map(out.stdout.trim().split('\n').map((l) => JSON.parse(l)).map((r) => [r.id, r]));
}

/** Sends `messages` to the page's mock under `profile` (and `fixtures`) and waits for the reply
 * to `id`: the parsed reply. */
async function pageReply(page, profile, fixtures, messages, id) {
  await openAdvanced(page);
  if (fixtures !== 'friendly') await page.selectOption('[data-testid=mock-fixtures]', fixtures);
  await page.selectOption('[data-testid=profile]', profile);
  await page.fill('[data-testid=editor]', messages.map((m) => JSON.stringify(m)).join('\n'));
  await page.click('[data-testid=send]');
  await page.waitForFunction((id) =>
    [...document.querySelectorAll('[data-testid=log-entry][data-direction=in] [data-testid=log-raw]')]
      .some((r) => { try { return JSON.parse(r.textContent).id === id; } catch { return false; } }), id, { timeout: 30_000 });
  const replies = (await entries(page)).filter((e) => e.direction === 'in').map((e) => JSON.parse(e.raw));
  return replies.find((r) => r.id === id);
}

/** A reply without its id. */
const idAside = ({ id, ...rest }) => rest;

/** The conformance fixtures' json_schema_2020_12_tool called with `contactMethod` by the page's
 * mock under MCP and by `jrpc serve --fixtures conformance`: both replies, ids aside. */
async function schemaToolReplies(contactMethod) {
  const { context, page, problems } = await openApp(browser);
  const messages = [initialize, initialized, schemaToolCall(2, contactMethod)];
  const shown = await pageReply(page, 'mcp:2025-11-25', 'conformance', messages, 2);
  const native = nativeReplies(['--fixtures', 'conformance'], messages).get(2);
  assert.deepEqual(problems, []);
  await context.close();
  return { shown: idAside(shown), native: idAside(native) };
}

test('the mock under MCP refuses arguments breaking the inputSchema exactly as jrpc serve does', async () => {
  const { shown, native } = await schemaToolReplies('fax');
  assert.equal(native.result.isError, true, JSON.stringify(native));
  assert.match(native.result.content[0].text, /inputSchema.*\/contactMethod/);
  assert.deepEqual(shown, native);
});

test('the mock under MCP runs a call whose arguments keep the inputSchema, as jrpc serve does', async () => {
  const { shown, native } = await schemaToolReplies('email');
  assert.equal(shown.result.isError, undefined, JSON.stringify(shown));
  assert.deepEqual(shown, native);
});

test('the mock under MCP refuses an elicitation answer breaking its requestedSchema exactly as jrpc serve does', async () => {
  const { context, page, problems } = await openApp(browser);
  const messages = [askNameAnswered(1, { name: '', colour: 'mauve' })];
  const shown = await pageReply(page, 'mcp:2026-07-28', 'friendly', messages, 1);
  const native = nativeReplies([], messages).get(1);
  assert.equal(native.error.code, -32602, JSON.stringify(native));
  assert.deepEqual(native.error.data.errors.map((e) => e.path),
    ['/params/inputResponses/answer/content/name', '/params/inputResponses/answer/content/colour']);
  assert.deepEqual(idAside(shown), idAside(native));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a JSON-RPC Send fetches only the small mock worker; the first MCP Send fetches the MCP one', async () => {
  const { context, page, problems, fetched } = await openUncached(browser);
  const mockFiles = () => fetched.filter((u) => /mock-worker/.test(u)).map((u) => u.replace(/^.*\//, '').replace(/-[0-9a-f]{16}/, ''));
  const subtract = { jsonrpc: '2.0', id: 7, method: 'subtract', params: [42, 23] };
  const answered = await pageReply(page, 'jsonrpc', 'friendly', [subtract], 7);
  assert.equal(answered.result, 19);
  assert.deepEqual(mockFiles().sort(), ['mock-worker.js', 'mock-worker_bg.wasm']);
  await page.click('[data-testid=clear-log]');
  const listed = await pageReply(page, 'mcp:2025-11-25', 'friendly', [initialize, initialized, { jsonrpc: '2.0', id: 2, method: 'tools/list' }], 2);
  assert.ok(listed.result.tools.some((t) => t.name === 'add'));
  assert.deepEqual(mockFiles().sort(), ['mcp-mock-worker.js', 'mcp-mock-worker_bg.wasm', 'mock-worker.js', 'mock-worker_bg.wasm']);
  assert.deepEqual(problems, []);
  await context.close();
});

test("an MCP lesson's Run takes the small mock worker under the friendly fixtures, the MCP one under the conformance fixtures", async () => {
  const { context, page, problems, fetched } = await openUncached(browser);
  const mockFiles = () => fetched.filter((u) => /mock-worker/.test(u)).map((u) => u.replace(/^.*\//, '').replace(/-[0-9a-f]{16}/, '')).sort();
  /** Lesson 6's Run, until a reply holding `text` shows. */
  const run = async (text) => {
    await page.goto(new URL('#/lessons/6', page.url()).href);
    await page.waitForSelector('[data-testid=lesson][data-lesson=mcp] [data-testid=lesson-run]');
    await page.click('[data-testid=lesson-run]');
    await page.waitForFunction((text) => [...document.querySelectorAll('[data-testid=lesson-reply]')]
      .some((r) => r.textContent.includes(text)), text, { timeout: 60_000 });
  };
  // Its example (server/discover, tools/list, tools/call add) and the cooperative client's
  // answers keep every schema the mock checks (tests/quiz.rs runs them all with the engine).
  await run('"text":"5"');
  assert.deepEqual(mockFiles(), ['mock-worker.js', 'mock-worker_bg.wasm']);
  await page.goto(new URL('#/', page.url()).href);
  await openAdvanced(page);
  await page.selectOption('[data-testid=mock-fixtures]', 'conformance');
  await run('"jsonrpc"');
  assert.deepEqual(mockFiles(), ['mcp-mock-worker.js', 'mcp-mock-worker_bg.wasm', 'mock-worker.js', 'mock-worker_bg.wasm']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a session that went on under JSON-RPC starts afresh on the MCP mock, and the page says so', async () => {
  const { context, page, problems } = await openApp(browser);
  await pageReply(page, 'jsonrpc', 'friendly', [{ jsonrpc: '2.0', id: 7, method: 'subtract', params: [42, 23] }], 7);
  const listed = await pageReply(page, 'mcp:2025-11-25', 'friendly', [{ jsonrpc: '2.0', id: 2, method: 'tools/list' }], 2);
  assert.ok(listed.result.tools.some((t) => t.name === 'add'), JSON.stringify(listed));
  await page.waitForFunction(() => /in a new session: the messages sent before went to the JSON-RPC mock/
    .test(document.querySelector('[data-testid=notices]')?.textContent ?? ''));
  assert.deepEqual(problems, []);
  await context.close();
});

/** Every `[rule, path]` of a report's documents (batch items too), in transcript order. */
function reportFindings(report) {
  const found = [];
  for (const doc of report.documents.flatMap((d) => [d, ...(d.items ?? [])])) {
    for (const v of doc.violations ?? []) found.push([v.rule, v.path]);
  }
  return found;
}

/** Chromium logs each HTTP error status the probe provokes on purpose. */
const unexpected = (problems) => problems.filter((p) => !/Failed to load resource: the server responded with a status of (400|404|405)/.test(p));

test('the Probe reports structuredContent breaking its outputSchema with the rule and pointer jrpc probe reports', async () => {
  const url = wrong.urls.find((u) => u.startsWith('http:'));
  const out = spawnSync(BIN.jrpc, ['probe', '--format', 'json', url], { encoding: 'utf8', timeout: 120_000 });
  const native = JSON.parse(out.stdout);
  assert.equal(out.status, 1, out.stderr);

  const { context, page, problems } = await openApp(browser);
  await page.selectOption('[data-testid=target]', 'link');
  await page.fill('[data-testid=link-url]', url);
  await openAdvanced(page);
  await page.click('[data-testid=probe-run]');
  await page.waitForSelector('[data-testid=probe-status][data-state=done]', { timeout: 90_000 });
  const shown = await page.$$eval('[data-testid=probe-finding]', (fs) =>
    fs.map((f) => [f.closest('tr').dataset.check, f.dataset.rule, f.dataset.pointer]));
  assert.deepEqual(shown.filter(([, rule]) => rule === 'mcp-structured-content-invalid'), [
    ['tools/call', 'mcp-structured-content-invalid', '/result/structuredContent/sum'],
    ['tools/call', 'mcp-structured-content-invalid', '/result'],
  ]);
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=probe-export]')]);
  const report = JSON.parse(await readFile(await file.path(), 'utf8'));
  assert.equal(report.profile.name, 'mcp');
  assert.deepEqual(reportFindings(report), reportFindings(native));
  assert.deepEqual(report.checks.map((c) => [c.id, c.status]), native.checks.map((c) => [c.id, c.status]));
  const detail = (r) => r.checks.find((c) => c.id === 'tools/call').detail;
  assert.match(detail(report), /want number, but got string \(outputSchema \/properties\/sum\)/);
  assert.equal(detail(report), detail(native));
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});
