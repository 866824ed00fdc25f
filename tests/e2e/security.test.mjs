// End-to-end security: XSS payloads in the editor, in messages sent to the mock (they come back in
// errors, results and the log), in share links, in saved drafts and in exported files all stay
// inert text; the release build's Content-Security-Policy holds and is never violated in a session;
// a full or damaged storage is a notice and the editor text is kept.
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/security.test.mjs
//
// The placement tests run with the page's CSP switched off (bypassCSP), so an escaping bug would run
// the payload and set `window.__xss` (or open a dialog) instead of being hidden by the CSP; the CSP
// test then runs with it on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { deflateRawSync } from 'node:zlib';
import { BASE_URL, launch, openAdvanced } from './support.mjs';

/** Each payload, if it ever ran, sets window.__xss to its number (or opens a dialog). */
const PAYLOADS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=2">',
  '<svg onload="window.__xss=3"></svg>',
  '<svg><script>window.__xss=4</script></svg>',
  'javascript:window.__xss=5',
  '<a href="javascript:window.__xss=6" id="xss-link">link</a>',
  '<iframe src="javascript:parent.__xss=7"></iframe>',
  '<iframe srcdoc="<script>parent.__xss=8</script>"></iframe>',
  '<body onload="window.__xss=9">',
  '<details open ontoggle="window.__xss=10">',
  '<input autofocus onfocus="window.__xss=11">',
  '"><script>window.__xss=12</script>',
  "'><img src=x onerror=window.__xss=13>",
  '</textarea><script>window.__xss=14</script>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=15>',
  '<object data="javascript:window.__xss=16"></object>',
  '<embed src="javascript:window.__xss=17">',
  '<video><source onerror="window.__xss=18"></video>',
  '<audio src=x onerror=window.__xss=19>',
  '<marquee onstart="window.__xss=20">x</marquee>',
  '<form><button formaction="javascript:window.__xss=21" id="xss-button">x</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=22">',
  '<base href="javascript:window.__xss=23//">',
  '<img src=x onerror=alert(24)>',
  '<svg><animate onbegin="window.__xss=25" attributeName="x" dur="1s"/></svg>',
  '<style>*{background:url("javascript:window.__xss=26")}</style>',
  '{{constructor.constructor("window.__xss=27")()}}',
  '\u2028<script>window.__xss=28</script>\u0000',
];

const SUBTRACT = (p) => ({ jsonrpc: '2.0', method: 'subtract', params: [p, 1], id: p });
const ECHO = (p, i) => ({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'echo', arguments: { text: p } }, id: i });
const fragmentOf = (json) => `#s=1.${deflateRawSync(Buffer.from(json)).toString('base64url')}`;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A fresh context and page; records dialogs, page errors, console errors and CSP violations. */
async function open({ bypassCSP = true, initScript } = {}) {
  const context = await browser.newContext({ bypassCSP, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  if (initScript) await page.addInitScript(initScript);
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  return { context, page, problems, dialogs };
}

/** What ran or was parsed as markup: the flag, on* attributes, payload elements, javascript: URLs. */
async function scan(page) {
  // Give image errors, autofocus and SVG animations time to fire, had they been parsed as HTML.
  await page.waitForTimeout(400);
  return page.evaluate(() => {
    const all = [...document.querySelectorAll('*')];
    return {
      flag: window.__xss ?? null,
      handlers: all.filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).map((e) => e.outerHTML.slice(0, 80)),
      markup: [...document.querySelectorAll(
        // What the payloads would create (the app itself has none of these).
        'script:not([src]), iframe, object, embed, img[src=x], audio, video, marquee, math, mglyph, base, meta[http-equiv=refresh], #xss-link, #xss-button, [formaction], svg script, svg animate, body style, [srcdoc], [autofocus]',
      )].map((e) => e.outerHTML.slice(0, 80)),
      js: all.filter((e) => ['href', 'src', 'action', 'formaction', 'data'].some((a) => /^\s*javascript:/i.test(e.getAttribute(a) ?? ''))).length,
    };
  });
}

/** No payload ran, none became markup, and no dialog opened. */
async function assertInert(page, dialogs, where) {
  const found = await scan(page);
  assert.equal(found.flag, null, `${where}: payload ${found.flag} ran`);
  assert.deepEqual(found.handlers, [], `${where}: elements with on* attributes`);
  assert.deepEqual(found.markup, [], `${where}: payload markup in the DOM`);
  assert.equal(found.js, 0, `${where}: javascript: URLs in the DOM`);
  assert.deepEqual(dialogs, [], `${where}: a dialog opened`);
}

const editorText = (page) => page.inputValue('[data-testid=editor]');
const pageText = (page) => page.evaluate(() => document.body.innerText);

test('the detector works: the same payloads inserted as HTML do run and are found', async () => {
  const { context, page, dialogs } = await open();
  await page.evaluate((ps) => {
    for (const p of ps) {
      const box = document.createElement('div');
      box.innerHTML = p;
      document.body.append(box);
    }
  }, PAYLOADS);
  const found = await scan(page);
  assert.notEqual(found.flag, null, 'an on* handler ran with the CSP bypassed');
  assert.ok(found.handlers.length > 5 && found.markup.length > 5 && found.js >= 2, JSON.stringify(found));
  assert.ok(dialogs.length >= 1, 'alert(24) opened a dialog');
  await context.close();
});

test(`${PAYLOADS.length} XSS payloads in the editor: verdicts and violations show them as text`, async () => {
  assert.ok(PAYLOADS.length >= 20);
  const { context, page, problems, dialogs } = await open();
  // Every payload as a method name, an id, a member name and a value, in one batch…
  const batch = JSON.stringify(PAYLOADS.map((p, i) => ({ jsonrpc: '2.0', method: p, params: { [p]: p }, id: i % 2 ? p : i })));
  await page.fill('[data-testid=editor]', batch);
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]')?.textContent.includes('batch'));
  await assertInert(page, dialogs, 'batch in the editor');
  const text = await pageText(page);
  assert.ok(PAYLOADS.slice(0, 3).some((p) => text.includes(p)), 'the payload shows as text');
  // …and raw, not as JSON: a parse error quoting the text, then a transcript of broken lines.
  await page.fill('[data-testid=editor]', PAYLOADS.join('\n'));
  await page.waitForSelector('[data-testid=violation]');
  await assertInert(page, dialogs, 'raw payloads in the editor');
  await page.fill('[data-testid=editor]', PAYLOADS.map((p) => `--> {"jsonrpc": "2.0", "method": ${JSON.stringify(p)}, "id": 1, ${JSON.stringify(p)}: 1}\n<-- ${p}`).join('\n'));
  await page.waitForSelector('[data-testid=violation]');
  await assertInert(page, dialogs, 'transcript');
  assert.equal(await editorText(page), PAYLOADS.map((p) => `--> {"jsonrpc": "2.0", "method": ${JSON.stringify(p)}, "id": 1, ${JSON.stringify(p)}: 1}\n<-- ${p}`).join('\n'));
  // Selecting violations (their tips and marks) keeps them text too.
  const violations = page.locator('[data-testid=violation] button');
  for (let i = 0; i < Math.min(await violations.count(), 5); i++) {
    await violations.nth(i).click();
  }
  await assertInert(page, dialogs, 'selected violations');
  assert.deepEqual(problems, []);
  await context.close();
});

test('payloads sent to the mock come back in errors, results and the log as text; exports hold the raw text', async () => {
  const { context, page, problems, dialogs } = await open();
  const messages = PAYLOADS.flatMap((p, i) => [SUBTRACT(p), ECHO(p, 1000 + i), { jsonrpc: '2.0', method: p, id: 2000 + i }]);
  const text = messages.map((m) => JSON.stringify(m)).join('\n');
  await page.fill('[data-testid=editor]', text);
  await page.click('[data-testid=send]');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=log-entry][data-direction=in]').length === n, messages.length);
  await assertInert(page, dialogs, 'log');
  // The echo results and the -32602 messages carry the payloads back; the log shows them as text.
  const log = await page.$$eval('[data-testid=log-raw]', (es) => es.map((e) => e.textContent).join('\n'));
  for (const p of PAYLOADS) {
    assert.ok(log.includes(JSON.stringify(p).slice(1, -1)), `log lacks ${p}`);
  }
  // Select entries: the details pane and the sequence picture render them too.
  const items = page.locator('[data-testid=log-entry][data-direction=in] [data-testid=log-item] button');
  for (let i = 0; i < 6; i++) await items.nth(i).click();
  await assertInert(page, dialogs, 'selected log entries');

  await openAdvanced(page);
  const [ndjson] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-ndjson]')]);
  const ndText = await readFile(await ndjson.path(), 'utf8');
  const lines = ndText.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, messages.length * 2);
  const out = lines.filter((l) => l.direction === 'out').map((l) => l.message);
  assert.deepEqual(out, messages, 'sent messages exported exactly');
  const echoed = lines.filter((l) => l.direction === 'in' && l.message.result?.content).map((l) => l.message.result.content[0].text);
  assert.deepEqual(echoed, PAYLOADS, 'echo results exported exactly');
  assert.ok(ndText.includes('<script>window.__xss=1</script>') && !ndText.includes('&lt;'), 'raw text, not HTML-escaped');
  const [json] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-json]')]);
  const jsonText = await readFile(await json.path(), 'utf8');
  assert.deepEqual(JSON.parse(jsonText), lines);
  assert.ok(!jsonText.includes('&lt;') && !jsonText.includes('&amp;'));
  await assertInert(page, dialogs, 'after export');
  assert.deepEqual(problems, []);
  await context.close();
});

test('share links carrying payloads open as text; a payload profile is named in an inert notice', async () => {
  const { context, page, problems, dialogs } = await open();
  const text = PAYLOADS.map((p) => JSON.stringify(SUBTRACT(p))).join('\n');
  await page.goto(BASE_URL + fragmentOf(JSON.stringify({ profile: 'jsonrpc', text })));
  await page.waitForFunction((t) => document.querySelector('[data-testid=editor]')?.value === t, text);
  await assertInert(page, dialogs, 'share link text');
  // The same text shared from here and opened again round-trips.
  await page.click('[data-testid=share]');
  await page.locator('[data-testid=share-link]').waitFor({ state: 'visible' });
  const link = await page.inputValue('[data-testid=share-link]');
  await page.goto(BASE_URL);
  await page.fill('[data-testid=editor]', 'other');
  await page.goto(link);
  await page.waitForFunction((t) => document.querySelector('[data-testid=editor]')?.value === t, text);
  await assertInert(page, dialogs, 'round-tripped link');
  for (const p of PAYLOADS.slice(0, 6)) {
    await page.goto(BASE_URL + fragmentOf(JSON.stringify({ profile: p, text: 'x' })));
    const alert = page.locator('[data-testid=notice][data-level=error] [role=alert]').last();
    await alert.waitFor();
    assert.match(await alert.textContent(), /unknown profile/);
    assert.equal(await editorText(page), text, 'the editor keeps its text');
    await page.locator('[data-testid=notice][data-level=error] [data-testid=dismiss]').last().click();
  }
  await assertInert(page, dialogs, 'notices naming payloads');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a damaged saved draft (payloads inside) is an inert notice; the damaged copy and new text are kept', async () => {
  const { context, page, problems, dialogs } = await open();
  const damaged = [
    ['jrpc.draft.evil1', JSON.stringify({ v: PAYLOADS[1], profile: 'jsonrpc', text: 'a' })],
    ['jrpc.draft.evil2', JSON.stringify({ v: 1, profile: PAYLOADS[2], text: PAYLOADS[0] })],
    ['jrpc.draft.evil3', `${PAYLOADS[3]}{not json`],
    ['jrpc.draft.evil4', JSON.stringify({ v: 1, profile: 'jsonrpc', text: PAYLOADS[4], log: { bad: PAYLOADS[5] } })],
  ];
  await assertInert(page, dialogs, 'first visit');
  await context.close();
  for (const [n, [key, value]] of damaged.entries()) {
    // A first visit starts from the draft `jrpc.latest` names: plant the damaged one just before the
    // app reads it, once per tab (sessionStorage survives the reload). Each case in its own profile:
    // old drafts beyond 12 are dropped (unreadable ones first), and each reload saves under a new id.
    const own = await browser.newContext({ bypassCSP: true });
    const tab = await own.newPage();
    tab.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      d.dismiss().catch(() => {});
    });
    tab.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    await tab.addInitScript(([k, v]) => {
      if (sessionStorage.getItem('planted')) return;
      sessionStorage.setItem('planted', '1');
      localStorage.setItem(k, v);
      localStorage.setItem('jrpc.latest', k.slice('jrpc.draft.'.length));
    }, [key, value]);
    await tab.goto(BASE_URL);
    await tab.waitForSelector('[data-testid=verdict]');
    const alert = tab.locator('[data-testid=notice][data-level=error] [role=alert]').first();
    await alert.waitFor();
    assert.match(await alert.textContent(), /could not be read|not readable|log/i, key);
    await assertInert(tab, dialogs, key);
    assert.equal(await tab.evaluate((k) => localStorage.getItem(k), key), value, `${key}: the damaged copy is kept`);
    // Typing works and is saved (under this tab's own key), and survives a reload.
    const marker = `saved-${n}`;
    const typed = `{"jsonrpc": "2.0", "method": ${JSON.stringify(PAYLOADS[0])}, "id": "${marker}"}`;
    await tab.fill('[data-testid=editor]', typed);
    await tab.waitForFunction((m) => Object.keys(localStorage).some((k) => k.startsWith('jrpc.draft.') && localStorage[k].includes(m)), marker);
    await tab.reload();
    await tab.waitForSelector('[data-testid=verdict]');
    assert.equal(await editorText(tab), typed, `${key}: the new text was kept`);
    assert.equal(await tab.evaluate((k) => localStorage.getItem(k), key), value, `${key}: still kept`);
    await own.close();
  }
  assert.deepEqual(problems, []);
});

test('a storage that refuses every write (quota exceeded) is a notice; the typed payload text stays', async () => {
  const { context, page, problems, dialogs } = await open({
    initScript: () => {
      const real = Storage.prototype.setItem;
      Storage.prototype.setItem = function (key, value) {
        if (window.__full && this === window.localStorage) throw new DOMException('quota', 'QuotaExceededError');
        return real.call(this, key, value);
      };
    },
  });
  await page.evaluate(() => { window.__full = true; });
  const text = PAYLOADS.map((p) => JSON.stringify(ECHO(p, 1))).join('\n');
  await page.fill('[data-testid=editor]', text);
  const alert = page.locator('[data-testid=notice][data-level=error] [role=alert]');
  await alert.waitFor();
  assert.match(await alert.textContent(), /storage is full/i);
  assert.equal(await editorText(page), text);
  // Sending and sharing still work without storage.
  await page.click('[data-testid=send]');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=log-entry][data-direction=in]').length === n, PAYLOADS.length);
  await assertInert(page, dialogs, 'quota exceeded');
  assert.equal(await editorText(page), text);
  assert.deepEqual(problems, []);
  await context.close();
});

test('release build CSP: strict policy, eval and inline script blocked, no violation in a whole session', async () => {
  const { context, page, problems, dialogs } = await open({ bypassCSP: false });
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  const d = Object.fromEntries(csp.split(';').map((x) => x.trim().split(/\s+/)).filter(([k]) => k).map(([k, ...v]) => [k, v]));
  assert.deepEqual(d['default-src'], ["'none'"], csp);
  assert.deepEqual(d['script-src'], ["'self'", "'wasm-unsafe-eval'"], csp);
  assert.deepEqual(d['object-src'], ["'none'"], csp);
  assert.deepEqual(d['base-uri'], ["'none'"], csp);
  assert.ok(!(d['style-src'] ?? []).includes("'unsafe-inline'"), csp);
  assert.equal(await page.locator('script:not([src])').count(), 0, 'no inline script in the page');

  // A session with payloads everywhere: editor, send, log selection, export, share, reload, theme.
  const text = PAYLOADS.map((p, i) => JSON.stringify(i % 2 ? SUBTRACT(p) : ECHO(p, i))).join('\n');
  await page.fill('[data-testid=editor]', text);
  await page.click('[data-testid=send]');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=log-entry][data-direction=in]').length === n, PAYLOADS.length);
  await page.locator('[data-testid=log-entry] [data-testid=log-item] button').first().click();
  await openAdvanced(page);
  await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-ndjson]')]);
  await page.click('[data-testid=format]');
  await page.click('[data-testid=share]');
  await page.locator('[data-testid=share-link]').waitFor({ state: 'visible' });
  const link = await page.inputValue('[data-testid=share-link]');
  await page.goto(link);
  await page.click('[data-testid=theme]');
  await page.reload();
  await page.waitForSelector('[data-testid=verdict]');
  await assertInert(page, dialogs, 'CSP session');
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no securitypolicyviolation during the session');
  assert.deepEqual(problems, []);

  // The policy is enforced, and the listener above does see violations: string code (a timer, run by
  // the page itself, not by the test's evaluate) and an injected inline script are blocked and reported.
  const probe = await page.evaluate(async () => {
    setTimeout('window.__evalled = 1', 0);
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.append(s);
    await new Promise((r) => setTimeout(r, 200));
    return { evalled: window.__evalled ?? null, inline: window.__inline ?? null, violations: window.__csp };
  });
  assert.equal(probe.evalled, null, 'string code ran');
  assert.equal(probe.inline, null, 'inline script ran');
  assert.ok(probe.violations.some((v) => v.startsWith('script-src')), JSON.stringify(probe));
  assert.ok(probe.violations.length >= 2, JSON.stringify(probe));
  await context.close();
});
