// End-to-end: state that is never lost (drafts, two tabs, share links), the theme, and the
// page's Content-Security-Policy, on the release build (dist/) in headless Chromium.
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/state.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { BASE_URL, launch } from './support.mjs';


let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A fresh browser context (its own storage: a first visit) with `problems` recorded per page. */
async function visitor(options = {}) {
  const context = await browser.newContext(options);
  const problems = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const newPage = async () => {
    const page = await context.newPage();
    page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    return page;
  };
  return { context, problems, newPage };
}

/** Opens `url` and waits for the app's first verdict. */
async function load(page, url = BASE_URL) {
  await page.goto(url);
  await page.waitForSelector('[data-testid=verdict]');
}

const editorText = (page) => page.inputValue('[data-testid=editor]');
const profile = (page) => page.inputValue('[data-testid=profile]');
const noticeTexts = (page, level) =>
  page.$$eval(`[data-testid=notice][data-level=${level}]`, (ns) => ns.map((n) => n.textContent));

/** A link fragment from JSON text, compressed here (Node's zlib) as the app would. */
const fragmentOf = (json) => `#s=1.${deflateRawSync(Buffer.from(json)).toString('base64url')}`;

test('a share link made in one browser opens with its text and profile in another', async () => {
  const alice = await visitor({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await alice.newPage();
  await load(page);
  const text = '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "é😀 <b>x</b>"}}\n--> [1, 2.50]';
  await page.fill('[data-testid=editor]', text);
  await page.selectOption('[data-testid=profile]', 'mcp:2025-06-18');
  await page.click('[data-testid=share]');
  const field = page.locator('[data-testid=share-link]');
  await field.waitFor({ state: 'visible' });
  const link = await field.inputValue();
  assert.equal(await field.getAttribute('readonly'), '');
  assert.ok(link.startsWith(BASE_URL) && link.includes('#s=1.'), link);
  assert.ok(!link.split('#')[0].includes('?'), `never in the query: ${link}`);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link, 'copied to the clipboard');
  assert.ok((await noticeTexts(page, 'info')).some((t) => t.includes('copied')));

  const bob = await visitor();
  const other = await bob.newPage();
  await other.goto(link);
  await other.waitForFunction((t) => document.querySelector('[data-testid=editor]')?.value === t, text);
  assert.equal(await profile(other), 'mcp:2025-06-18');
  assert.equal(new URL(other.url()).hash, '', 'the fragment is removed once opened');
  // Later edits survive a reload (the link is not opened again over them).
  await other.fill('[data-testid=editor]', '[]');
  await other.reload();
  await other.waitForSelector('[data-testid=verdict]');
  assert.equal(await editorText(other), '[]');
  assert.deepEqual([...alice.problems, ...bob.problems], []);
  await alice.context.close();
  await bob.context.close();
});

test('a damaged or foreign fragment shows an error and keeps the draft', async () => {
  const { context, problems, newPage } = await visitor();
  const page = await newPage();
  await load(page);
  const draft = '{"jsonrpc": "2.0", "method": "my_draft"}';
  await page.fill('[data-testid=editor]', draft);
  await page.selectOption('[data-testid=profile]', 'mcp:2024-11-05');
  const cases = [
    ['#s=1.not*base64', /not base64url/],
    [`#s=1.${Buffer.from('not deflate at all').toString('base64url')}`, /does not decompress/],
    [fragmentOf('{"text": 1, "profile": "jsonrpc"}'), /not readable/],
    [fragmentOf('this is not JSON'), /not readable/],
    [fragmentOf('{"text": "x", "profile": "soap"}'), /unknown profile/],
    ['#s=2.AAAA', /format version "2"/],
    ['#section-3', /not a share link/],
  ];
  for (const [fragment, why] of cases) {
    // Same document: a hashchange, as when a link is pasted into an open tab.
    await page.goto(BASE_URL + fragment);
    const alert = page.locator('[data-testid=notice][data-level=error] [role=alert]').last();
    await alert.waitFor();
    const message = await alert.textContent();
    assert.match(message, /could not be opened/, fragment);
    assert.match(message, why, `${fragment}: ${message}`);
    assert.match(message, /Your draft is unchanged/);
    assert.equal(await editorText(page), draft, fragment);
    assert.equal(await profile(page), 'mcp:2024-11-05', fragment);
    // Dismissed with the keyboard: focus its button, press Enter.
    await page.locator('[data-testid=notice][data-level=error] [data-testid=dismiss]').last().focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=notice][data-level=error]', { state: 'detached' });
  }
  // Opened with a damaged link from the start (a reload of it): the draft is still there.
  await page.goto(`${BASE_URL}#s=1.%%%`);
  await page.reload();
  await page.waitForSelector('[data-testid=notice][data-level=error]');
  assert.equal(await editorText(page), draft);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a reload keeps the draft: text and profile', async () => {
  const { context, problems, newPage } = await visitor();
  const page = await newPage();
  await load(page);
  const text = '{"jsonrpc": "2.0", "method": "reload_me", "id": "a"}';
  await page.fill('[data-testid=editor]', text);
  await page.selectOption('[data-testid=profile]', 'mcp:2025-11-25');
  // No wait: the save pending on its debounce is flushed when the page goes away.
  await page.reload();
  await page.waitForSelector('[data-testid=verdict]');
  assert.equal(await editorText(page), text);
  assert.equal(await profile(page), 'mcp:2025-11-25');
  assert.deepEqual(await noticeTexts(page, 'error'), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a reload keeps the log: what was sent and answered, still paired', async () => {
  const { context, problems, newPage } = await visitor();
  const page = await newPage();
  await load(page);
  await page.fill('[data-testid=editor]', '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}');
  await page.click('[data-testid=send]');
  await page.waitForSelector('[data-testid=log-entry][data-direction=in]');
  await page.reload();
  await page.waitForSelector('[data-testid=log-entry][data-direction=in]');
  const entries = await page.$$eval('[data-testid=log-entry]', (es) => es.map((e) => [e.dataset.direction, e.dataset.status]));
  assert.equal(entries.length, 2);
  assert.deepEqual(entries.map((e) => e[0]).sort(), ['in', 'out']);
  assert.ok(await page.$eval('[data-testid=log]', (l) => l.textContent.includes('19')));
  assert.deepEqual(problems, []);
  await context.close();
});

test('two tabs edit different texts and each keeps its own across reloads', async () => {
  const { context, problems, newPage } = await visitor();
  const a = await newPage();
  await load(a);
  await a.fill('[data-testid=editor]', '{"tab": "A"}');
  await a.waitForTimeout(500);
  const b = await newPage();
  await load(b);
  // A new tab starts from the draft saved last.
  assert.equal(await editorText(b), '{"tab": "A"}');
  await b.fill('[data-testid=editor]', '{"tab": "B"}');
  await b.selectOption('[data-testid=profile]', 'mcp:2025-03-26');
  await b.waitForTimeout(500);
  await a.fill('[data-testid=editor]', '{"tab": "A", "again": true}');
  await a.waitForTimeout(500);
  for (const [page, text, prof] of [
    [a, '{"tab": "A", "again": true}', 'jsonrpc'],
    [b, '{"tab": "B"}', 'mcp:2025-03-26'],
    [a, '{"tab": "A", "again": true}', 'jsonrpc'],
  ]) {
    await page.reload();
    await page.waitForSelector('[data-testid=verdict]');
    assert.equal(await editorText(page), text);
    assert.equal(await profile(page), prof);
  }
  // Every draft is one whole JSON value with its version.
  const drafts = await a.evaluate(() =>
    Object.keys(localStorage).filter((k) => k.startsWith('jrpc.draft.')).map((k) => JSON.parse(localStorage[k])));
  assert.ok(drafts.length >= 2 && drafts.every((d) => d.v === 1 && typeof d.text === 'string'), JSON.stringify(drafts));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a full storage is a notice and the text stays in the editor', async () => {
  const { context, problems, newPage } = await visitor();
  const page = await newPage();
  await load(page);
  // Fill localStorage to its quota with other data.
  await page.evaluate(() => {
    const chunk = 'x'.repeat(256 * 1024);
    for (let i = 0; ; i++) {
      try { localStorage.setItem(`filler${i}`, chunk); } catch { break; }
    }
    for (let size = 16 * 1024; size >= 1; size = Math.floor(size / 2)) {
      for (let i = 0; ; i++) {
        try { localStorage.setItem(`small${size}.${i}`, 'y'.repeat(size)); } catch { break; }
      }
    }
  });
  const big = `[${'1,'.repeat(1000)}1]`;
  await page.fill('[data-testid=editor]', big);
  const alert = page.locator('[data-testid=notice][data-level=error] [role=alert]');
  await alert.waitFor();
  assert.match(await alert.textContent(), /storage is full/i);
  assert.equal(await editorText(page), big);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the theme toggle cycles system → light → dark and is kept', async () => {
  const { context, problems, newPage } = await visitor({ colorScheme: 'dark' });
  const page = await newPage();
  await load(page);
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? null);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(await theme(), null, 'follows the system at first');
  const systemDark = await background();
  await page.click('[data-testid=theme]');
  assert.equal(await theme(), 'light');
  assert.notEqual(await background(), systemDark, 'light differs from the system dark');
  await page.reload();
  await page.waitForSelector('[data-testid=verdict]');
  assert.equal(await theme(), 'light', 'kept across a reload');
  await page.click('[data-testid=theme]');
  assert.equal(await theme(), 'dark');
  assert.equal(await background(), systemDark);
  await page.click('[data-testid=theme]');
  assert.equal(await theme(), null);
  await page.reload();
  await page.waitForSelector('[data-testid=verdict]');
  assert.equal(await theme(), null);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the CSP allows no inline script and no eval, and nothing violates it in a session', async () => {
  const { context, problems, newPage } = await visitor({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await newPage();
  await load(page);
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.ok(csp, 'a CSP meta');
  const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  const scriptSrc = directives['script-src'] ?? directives['default-src'];
  assert.ok(scriptSrc, csp);
  for (const banned of ["'unsafe-inline'", "'unsafe-eval'", 'data:', '*']) {
    assert.ok(!scriptSrc.includes(banned), `script-src has ${banned}: ${csp}`);
  }
  assert.ok(scriptSrc.includes("'wasm-unsafe-eval'"));
  assert.deepEqual(await page.$$('script:not([src])'), [], 'no inline script');
  // A session: type, share, open the link, switch the theme, reload.
  await page.fill('[data-testid=editor]', '{"jsonrpc": "2.0", "method": "<script>alert(1)</script>", "id": 1}');
  await page.click('[data-testid=share]');
  await page.locator('[data-testid=share-link]').waitFor({ state: 'visible' });
  const link = await page.inputValue('[data-testid=share-link]');
  await page.goto(link);
  await page.click('[data-testid=theme]');
  await page.reload();
  await page.waitForSelector('[data-testid=verdict]');
  assert.equal(await page.$$eval('script', (s) => s.filter((e) => e.textContent.includes('alert(1)')).length), 0);
  assert.deepEqual(problems, [], 'no CSP violation, console error or page error');
  await context.close();
});

test('a large share link clears the old verdict at once and says it is opening', async () => {
  const { context, problems, newPage } = await visitor();
  const page = await newPage();
  await load(page);
  const lines = [];
  for (let i = 0; lines.join('\n').length < 3_000_000; i++) lines.push(`{"jsonrpc": "2.0", "method": "m${i % 97}", "params": [${i}, "${'x'.repeat(i % 50)}"], "id": ${i}}`);
  const text = lines.join('\n');
  const fragment = fragmentOf(JSON.stringify({ text, profile: 'jsonrpc' }));
  const seen = await page.evaluate(async (fragment) => {
    const status = document.querySelector('[data-testid=validate-ms]');
    const before = document.querySelectorAll('[data-testid=verdict]').length;
    location.hash = fragment.slice(1);
    await new Promise((r) => addEventListener('hashchange', r, { once: true }));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return { before, cards: document.querySelectorAll('[data-testid=verdict]').length, status: status.textContent };
  }, fragment);
  assert.ok(seen.before > 0, 'the sample had its verdict');
  assert.equal(seen.cards, 0, 'the old verdict is gone at once');
  // Reading the link, then the worker's check of its 3 MB: either way, it says it is not done.
  assert.match(seen.status, /^(Opening the shared link…|Checking in the background…)$/);
  await page.waitForFunction((n) => document.querySelector('[data-testid=validate-ms]')?.textContent.startsWith(`${n} documents`), lines.length, { timeout: 60_000 });
  assert.ok(await page.locator('[data-testid=verdict]').count() > 0);
  assert.deepEqual(problems, []);
  await context.close();
});
