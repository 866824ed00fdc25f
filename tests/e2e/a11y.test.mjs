// End-to-end: accessibility of the release build. axe-core (node_modules, pinned) checks the main
// view with verdicts, a notice and the share link showing, in the light and the dark theme; a
// keyboard-only pass checks every control is reachable with Tab and shows its focus.
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/a11y.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BASE_URL, launch } from './support.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// Messages that give every kind of card and both severities.
const MESSAGES = [
  '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}',
  '{"jsonrpc": "2.0", "method": "update", "params": [1, 2, 3, 4, 5]}',
  '{"jsonrpc": "2.0", "result": 19, "id": 1.5}',
  '{"jsonrpc": "1.0", "method": "bad", "id": 2}',
  '[1, {"jsonrpc": "2.0", "method": "sum", "params": [1], "id": "x"}]',
  '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]',
].join('\n');

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The main view with verdicts, violations, a notice and the share link showing. */
async function mainView(context) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  await page.fill('[data-testid=editor]', MESSAGES);
  await page.waitForSelector('[data-testid=violation][data-severity=warning]');
  await page.waitForSelector('[data-testid=verdict][data-kind=parse-error]');
  await page.click('[data-testid=share]');
  await page.locator('[data-testid=share-link]').waitFor({ state: 'visible' });
  await page.waitForSelector('[data-testid=notice]');
  return { page, problems };
}

/** Runs axe (evaluated through the DevTools protocol: the page's CSP stays on) on the page. */
async function axe(page) {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
    }));
  });
}

async function setTheme(page, wanted) {
  for (let i = 0; i < 3; i++) {
    if ((await page.evaluate(() => document.documentElement.dataset.theme ?? 'system')) === wanted) return;
    await page.click('[data-testid=theme]');
  }
  assert.fail(`could not switch the theme to ${wanted}`);
}

for (const theme of ['light', 'dark']) {
  test(`axe: no serious or critical findings on the main view in the ${theme} theme`, async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const { page, problems } = await mainView(context);
    await setTheme(page, theme);
    const found = await axe(page);
    const serious = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    const minor = found.filter((v) => !serious.includes(v));
    if (minor.length) console.log(`axe (${theme}), minor or moderate:`, JSON.stringify(minor, null, 1));
    assert.deepEqual(serious, [], JSON.stringify(serious, null, 1));
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('keyboard only: Tab reaches every control, each with a visible focus and a name', async () => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const { page } = await mainView(context);
  const controls = await page.$$eval('button, select, input, textarea, a[href], [tabindex]', (els) =>
    els.filter((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0).length);
  const seen = [];
  for (let i = 0; i < controls + 5; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      const style = getComputedStyle(e);
      const box = e.closest('.code') ?? e;
      const boxStyle = getComputedStyle(box);
      const visible = [style, boxStyle].some((s) => s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1)
        || style.boxShadow !== 'none';
      const name = e.getAttribute('aria-label') || e.labels?.[0]?.textContent || e.textContent || e.title;
      return { id: e.dataset.testid ?? e.tagName.toLowerCase(), visible, named: Boolean(name && name.trim()) };
    });
    if (info) seen.push(info);
  }
  const ids = new Set(seen.map((s) => s.id));
  for (const id of ['profile', 'share', 'share-link', 'theme', 'editor', 'dismiss']) {
    assert.ok(ids.has(id), `Tab never reaches ${id}: ${[...ids]}`);
  }
  const unfocused = seen.filter((s) => !s.visible);
  assert.deepEqual(unfocused, [], 'every focused control shows its focus');
  assert.deepEqual(seen.filter((s) => !s.named), [], 'every control has a name');
  await context.close();
});
