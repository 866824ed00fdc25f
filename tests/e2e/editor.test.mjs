// End-to-end: the editor and the verdict pane on the release build (dist/) in headless Chromium.
// scripts/test.sh serves dist/ and sets BASE_URL; run alone with
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/editor.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp } from './support.mjs';


let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A fresh context and page on the app, with the sample checked; records errors. */
const open = () => openApp(browser);

const editorValue = (page) => page.$eval('[data-testid=editor]', (t) => t.value);
const selection = (page) =>
  page.$eval('[data-testid=editor]', (t) => t.value.slice(t.selectionStart, t.selectionEnd));

test('typing a message shows its verdict and underlines the broken member', async () => {
  const { page, problems } = await open();
  const editor = page.locator('[data-testid=editor]');
  await editor.fill('');
  await editor.pressSequentially('{"jsonrpc": "1.0", "method": "sum", "id": 1}');
  await page.waitForSelector('[data-testid=verdict][data-kind=invalid]');
  const rules = await page.$$eval('[data-testid=violation]', (vs) => vs.map((v) => v.dataset.rule));
  assert.ok(rules.includes('jsonrpc-not-2-0'), `rules: ${rules}`);
  const underlined = await page.$$eval('[data-testid=mirror] .mark.error', (ms) => ms.map((m) => m.textContent));
  assert.deepEqual(underlined, ['"1.0"']);
  // The mirror holds exactly the typed text, line by line.
  const mirrored = await page.$$eval('[data-testid=mirror] .line', (ls) => ls.map((l) => l.textContent).join('\n'));
  assert.equal(mirrored, await editorValue(page));
  // Hovering the underline shows the violation.
  const box = await page.locator('[data-testid=mirror] .mark.error').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const tip = await page.waitForSelector('[data-testid=mark-tip]');
  assert.match(await tip.textContent(), /jsonrpc-not-2-0/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('format, then Ctrl+Z restores the original text', async () => {
  const { page, problems } = await open();
  const original = '{"jsonrpc":"2.0","method":"sum","params":[1.0,2e3],"id":1}';
  await page.fill('[data-testid=editor]', original);
  await page.click('[data-testid=format]');
  const pretty = await editorValue(page);
  assert.equal(pretty, '{\n  "jsonrpc": "2.0",\n  "method": "sum",\n  "params": [\n    1.0,\n    2e3\n  ],\n  "id": 1\n}');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=mirror] .line').length === 9);
  await page.focus('[data-testid=editor]');
  await page.keyboard.press('Control+z');
  assert.equal(await editorValue(page), original);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=mirror] .line').length === 1);
  assert.deepEqual(await page.$$eval('[data-testid=verdict]', (cs) => cs.map((c) => c.dataset.kind)), ['request']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('loading an example is one edit: Ctrl+Z brings back what was written', async () => {
  const { page, problems } = await open();
  const mine = '{"jsonrpc": "2.0", "method": "my_own_work", "id": 42}';
  await page.fill('[data-testid=editor]', mine);
  await page.selectOption('[data-testid=examples]', 'mcp-flow');
  await page.waitForFunction(() => document.querySelector('[data-testid=editor]').value.includes('initialize'));
  assert.equal(await page.inputValue('[data-testid=profile]'), 'mcp:2025-11-25');
  await page.focus('[data-testid=editor]');
  await page.keyboard.press('Control+z');
  assert.equal(await editorValue(page), mine);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=verdict]')].map((c) => c.dataset.kind).join() === 'request');
  assert.deepEqual(problems, []);
  await page.close();
});

test('keyboard only: Tab to a violation, Enter selects its span in the editor', async () => {
  const { page, problems } = await open();
  await page.fill('[data-testid=editor]', '"é😀"\n{"jsonrpc": "1.0", "method": "a", "id": 1}');
  await page.waitForSelector('[data-testid=violation][data-rule=jsonrpc-not-2-0]');
  await page.focus('[data-testid=editor]');
  let found = false;
  for (let i = 0; i < 40 && !found; i++) {
    await page.keyboard.press('Tab');
    found = await page.evaluate(
      () => document.activeElement?.closest('[data-testid=violation]')?.dataset.rule === 'jsonrpc-not-2-0',
    );
  }
  assert.ok(found, 'Tab reaches the violation');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'editor');
  assert.equal(await selection(page), '"1.0"');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the profile switch re-checks under MCP', async () => {
  const { page, problems } = await open();
  await page.fill('[data-testid=editor]', '{"jsonrpc":"2.0","method":"tools/call","params":{},"id":1}');
  await page.waitForSelector('[data-testid=verdict][data-kind=request]');
  await page.selectOption('[data-testid=profile]', 'mcp:2025-11-25');
  await page.waitForSelector('[data-testid=violation][data-rule=mcp-param-missing]');
  await page.selectOption('[data-testid=profile]', 'jsonrpc');
  await page.waitForSelector('[data-testid=verdict][data-kind=request]');
  assert.deepEqual(problems, []);
  await page.close();
});
