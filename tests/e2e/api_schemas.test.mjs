// End-to-end: the API worker's checks beyond OpenRPC (#26 §3, the page side) on the release build:
// under an MCP profile, tool arguments and structuredContent against the schemas a tools/list in
// the text declared, and elicitation answers against their requestedSchema, exactly as
// `jrpc check --profile mcp` finds them (tests/mcp_tool_schemas.rs); the worker started only for a
// text that holds such schemas; checks latest-wins while typing; texts over 2 MB checked by the API
// worker up to its bound (64 MB, `jrpc check`'s --max-bytes), and a clear note above it.
// Run alone with
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/api_schemas.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { launch, watch, BASE_URL } from './support.mjs';

const PETSTORE = fileURLToPath(new URL('../data/openrpc/examples/petstore-openrpc.json', import.meta.url));

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// The transcript of tests/mcp_tool_schemas.rs: a tools/list declaring "add" with both schemas.
const LIST = `--> {"jsonrpc":"2.0","id":1,"method":"tools/list"}
<-- {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number","minimum":0}},"required":["a","b"]},"outputSchema":{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}}]}}
`;
const call = (id, args) =>
  `--> {"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"add","arguments":${args}}}\n`;
const result = (id, structured) =>
  `<-- {"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"3"}],"structuredContent":${structured}}}\n`;

/** A fresh page on the app that counts the checks it posts to the API worker (`window.apiChecks`)
 * and records every file it fetches. */
async function openCounted() {
  const context = await browser.newContext();
  const fetched = [];
  context.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const page = await context.newPage();
  const problems = await watch(page);
  await page.addInitScript(() => {
    window.apiChecks = 0;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      // The envelope of a request (src/wire/envelope.rs) around the API's check (src/wire/api.rs).
      if (typeof message === 'string' && /^\{"ask":\{"id":\d+,"body":\{"check":/.test(message)) window.apiChecks += 1;
      return post.call(this, message, ...rest);
    };
  });
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  return { context, page, problems, fetched };
}

const apiWorkerFetched = (fetched) => fetched.some((p) => p.includes('api-worker'));

/** Waits until the status line says the text is checked (not "in the background"). */
async function settled(page) {
  await page.waitForFunction(
    () => !document.querySelector('[data-testid=validate-ms]').textContent.includes('background'),
    null,
    { timeout: 60_000 },
  );
}

/** Loads the petstore document through the API panel's Open document and waits for it. */
async function loadPetstore(page) {
  await page.click('[data-testid=api-panel] > summary');
  await page.setInputFiles('[data-testid=openrpc-file-input]', PETSTORE);
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=openrpc-status]')?.textContent.startsWith('Petstore 1.0.0'),
  );
}

const violations = (page) =>
  page.$$eval('[data-testid=violation]', (vs) => vs.map((v) => `${v.dataset.rule} ${v.dataset.path}`));

/** Replaces the editor's text by a large `text` as the browser pastes it: a paste event with the
 * clipboard's text into the emptied editor (a paste over 2 MB goes to the read-only viewer). */
async function paste(page, text) {
  await page.locator('[data-testid=editor]').fill('');
  await page.evaluate((text) => {
    const ta = document.querySelector('[data-testid=editor]') ?? document.querySelector('[data-testid=big-view]');
    const data = new DataTransfer();
    data.setData('text/plain', text);
    ta.focus();
    ta.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

test('under the MCP profile, tool arguments breaking the listed inputSchema are flagged at their pointers and underlined', async () => {
  const { context, page, problems, fetched } = await openCounted();
  await page.selectOption('[data-testid=profile]', 'mcp:2025-11-25');
  await page.fill('[data-testid=editor]', LIST + call(2, '{"a":"one","b":-1}') + result(2, '{"sum":3}'));
  await page.waitForSelector('[data-testid=violation][data-rule=mcp-tool-arguments-invalid]');
  await settled(page);
  // As `jrpc check --profile mcp` (tests/mcp_tool_schemas.rs): the same rules at the same pointers.
  assert.deepEqual(await violations(page), [
    'mcp-tool-arguments-invalid /params/arguments/a',
    'mcp-tool-arguments-invalid /params/arguments/b',
  ]);
  const underlined = await page.$$eval('[data-testid=mirror] .mark.error', (ms) => ms.map((m) => m.textContent));
  assert.deepEqual(underlined, ['"one"', '-1']);
  assert.ok(apiWorkerFetched(fetched), fetched.join(' '));
  assert.deepEqual(problems, []);
  await context.close();
});

test('under the MCP profile, structuredContent breaking the outputSchema is flagged at its pointer', async () => {
  const { context, page } = await openCounted();
  await page.selectOption('[data-testid=profile]', 'mcp:2025-11-25');
  await page.fill('[data-testid=editor]', LIST + call(2, '{"a":1,"b":2}') + result(2, '{"sum":"3"}'));
  await page.waitForSelector('[data-testid=violation][data-rule=mcp-structured-content-invalid]');
  await settled(page);
  assert.deepEqual(await violations(page), ['mcp-structured-content-invalid /result/structuredContent/sum']);
  await context.close();
});

// The 2026-07-28 round of tests/mcp_tool_schemas.rs: a call of "ask" answered by an input-required
// result asking "who" for FORM, then the retry answering it with `answer`.
const META = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}';
const FORM = '{"type":"object","properties":{"name":{"type":"string","minLength":1},"age":{"type":"integer","minimum":0},"colour":{"type":"string","enum":["red","blue"]}},"required":["name"]}';
const round = (answer) => `--> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{${META},"name":"ask"}}
<-- {"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"who":{"method":"elicitation/create","params":{"message":"Who?","requestedSchema":${FORM}}}},"requestState":"s1"}}
--> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{${META},"name":"ask","inputResponses":{"who":${answer}},"requestState":"s1"}}
<-- {"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[]}}
`;

test('under the MCP profile, an accepted elicitation answer breaking its requestedSchema is flagged at its pointers', async () => {
  const { context, page, problems } = await openCounted();
  await page.selectOption('[data-testid=profile]', 'mcp:2026-07-28');
  await page.fill('[data-testid=editor]', round('{"action":"accept","content":{"name":"Ada","age":-3,"colour":"green"}}'));
  await page.waitForSelector('[data-testid=violation][data-rule=mcp-elicitation-answer-invalid]');
  await settled(page);
  assert.deepEqual(await violations(page), [
    'mcp-elicitation-answer-invalid /params/inputResponses/who/content/age',
    'mcp-elicitation-answer-invalid /params/inputResponses/who/content/colour',
  ]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a plain session never fetches the API worker: JSON-RPC, and MCP messages without schemas', async () => {
  const { context, page, fetched } = await openCounted();
  await page.fill('[data-testid=editor]', '{"jsonrpc": "2.0", "method": "tools/list", "id": 1}');
  await settled(page);
  await page.selectOption('[data-testid=profile]', 'mcp:2025-11-25');
  await page.fill('[data-testid=editor]', call(2, '{"a":"one"}'));
  await page.waitForSelector('[data-testid=verdict]');
  await settled(page);
  // Checked by the page alone, at once.
  assert.match(await page.textContent('[data-testid=validate-ms]'), /^1 document checked in/);
  await page.waitForTimeout(500);
  assert.equal(apiWorkerFetched(fetched), false, fetched.join(' '));
  assert.equal(await page.evaluate(() => window.apiChecks), 0);
  await context.close();
});

test('typing fast queues no stale checks: the busy worker gets the newest text, and only its findings show', async (t) => {
  const { context, page, problems } = await openCounted();
  await page.selectOption('[data-testid=profile]', 'mcp:2025-11-25');
  // A call whose "b" is typed, then ~600 KB of conforming calls: each check takes a while.
  const head = LIST + '--> {"jsonrpc":"2.0","id":"typed","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":';
  let text = `${head}}}}\n`;
  for (let id = 2; text.length < 600_000; id++) text += call(id, '{"a":1,"b":2}');
  await page.evaluate((text) => {
    const ta = document.querySelector('[data-testid=editor]');
    ta.value = text;
    ta.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await settled(page);
  // (Every call is unanswered: that warning aside.)
  const findings = async () => (await violations(page)).filter((v) => !v.startsWith('request-unanswered'));
  assert.deepEqual((await findings()).map((v) => v.split(' ')[0]), ['json-syntax']);
  const before = await page.evaluate(() => window.apiChecks);
  // Every text but the last has the typed call unfinished (not JSON): only the last has "b" a string.
  const typed = '"typed-fast"';
  await page.focus('[data-testid=editor]');
  await page.evaluate((at) => document.querySelector('[data-testid=editor]').setSelectionRange(at, at), head.length);
  await page.keyboard.type(typed);
  await page.waitForSelector('[data-testid=violation][data-rule=mcp-tool-arguments-invalid]', { timeout: 60_000 });
  await settled(page);
  const sent = (await page.evaluate(() => window.apiChecks)) - before;
  t.diagnostic(`${sent} checks posted for ${typed.length} keystrokes`);
  assert.ok(sent < typed.length, `${sent} checks posted for ${typed.length} keystrokes`);
  // The final text's finding alone: no earlier text's parse error is shown for it.
  assert.deepEqual(await findings(), ['mcp-tool-arguments-invalid /params/arguments/b']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a 3 MB text with MCP schemas is checked by the API worker, not the plain checking worker', async () => {
  const { context, page, fetched } = await openCounted();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.selectOption('[data-testid=profile]', 'mcp:2025-11-25');
  let text = LIST + call(2, '{"a":"one","b":2}');
  for (let id = 3; text.length < 3_000_000; id++) text += call(id, '{"a":1,"b":2}');
  await paste(page, text);
  await page.waitForSelector('[data-testid=big-view]');
  await page.waitForSelector('[data-testid=violation][data-rule=mcp-tool-arguments-invalid]', { timeout: 60_000 });
  await settled(page);
  assert.deepEqual(
    (await violations(page)).filter((v) => v.startsWith('mcp-')),
    ['mcp-tool-arguments-invalid /params/arguments/a'],
  );
  assert.ok(apiWorkerFetched(fetched));
  assert.equal(workers.filter((w) => w.endsWith('check-worker.js')).length, 0, workers.join(' '));
  await context.close();
});

test('a 3 MB text under an OpenRPC document is checked against the document', async () => {
  const { context, page } = await openCounted();
  await loadPetstore(page);
  let text = '{"jsonrpc": "2.0", "method": "list_pets", "params": ["ten"], "id": 0}\n';
  for (let id = 1; text.length < 3_000_000; id++) text += `{"jsonrpc": "2.0", "method": "list_pets", "params": [${id}], "id": ${id}}\n`;
  await paste(page, text);
  await page.waitForSelector('[data-testid=big-view]');
  await page.waitForSelector('[data-testid=violation][data-rule=openrpc-param-invalid]', { timeout: 60_000 });
  await settled(page);
  assert.deepEqual(await violations(page), ['openrpc-param-invalid /params/0']);
  assert.equal(await page.$('[data-testid=api-unchecked]'), null);
  await context.close();
});

test('a text over the 64 MB bound under a document is checked against JSON-RPC alone, and the page says where the bound falls', async () => {
  const { context, page } = await openCounted();
  await loadPetstore(page);
  await page.locator('[data-testid=editor]').fill('');
  await settled(page);
  const checksBefore = await page.evaluate(() => window.apiChecks);
  // One call the document refuses, on line 1 (70 bytes and its line break), then 65 MiB of spaces.
  await page.evaluate(() => {
    const text = '{"jsonrpc": "2.0", "method": "list_pets", "params": ["ten"], "id": 1}\n' + ' '.repeat(65 * 1024 * 1024);
    const ta = document.querySelector('[data-testid=editor]');
    const data = new DataTransfer();
    data.setData('text/plain', text);
    ta.focus();
    ta.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  const note = await page.waitForSelector('[data-testid=api-unchecked]', { timeout: 60_000 });
  assert.match(
    await note.textContent(),
    /^This text is 65\.0 MB: it is checked against JSON-RPC alone, not against the API document, which is checked up to 64\.0 MB \(as jrpc check's --max-bytes\); that bound falls at line 2, column 67108795 \(byte 67108864\)\.$/,
  );
  await page.waitForFunction(
    () => document.querySelector('[data-testid=validate-ms]').textContent.startsWith('1 document checked'),
    null,
    { timeout: 60_000 },
  );
  assert.deepEqual(await violations(page), []);
  assert.equal(await page.evaluate(() => window.apiChecks), checksBefore);
  await context.close();
});
