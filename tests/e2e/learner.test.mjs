// End-to-end: what a learner tripped over, each fixed and kept fixed (issue 14's list), on the
// release build (dist/) in headless Chromium. Run alone with
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/learner.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { entries, launch, openApp } from './support.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const open = () => openApp(browser);
const editorValue = (page) => page.$eval('[data-testid=editor]', (t) => t.value);

test('the first view says what to do in one line and points at Lesson 1', async () => {
  const { page, problems } = await open();
  const intro = page.locator('[data-testid=intro]');
  assert.match(await intro.textContent(), /Paste or type a JSON-RPC message: see what it is, then Send/);
  await page.click('[data-testid=intro-lesson]');
  await page.waitForFunction(() => location.hash === '#/lessons/1');
  await page.waitForSelector('[data-testid=lesson]');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a loaded example is described once beside the editor, with its profile; no notes pile up', async () => {
  const { page, problems } = await open();
  for (const id of ['spec-positional', 'spec-named', 'mcp-tool-error-result', 'spec-positional', 'mcp-flow']) {
    await page.selectOption('[data-testid=examples]', id);
    await page.waitForSelector(`[data-testid=example-about][data-example=${id}]`);
  }
  assert.equal(await page.locator('[data-testid=example-about]').count(), 1);
  assert.equal(await page.locator('[data-testid=notice]').count(), 0, 'loading examples adds no notice');
  assert.equal(await page.locator('[data-testid=intro]').count(), 0);
  // It says which profile the example switched to, the one the Profile menu shows.
  assert.match(await page.textContent('[data-testid=example-profile]'), /Checked as MCP 2025-11-25/);
  assert.equal(await page.inputValue('[data-testid=profile]'), 'mcp:2025-11-25');
  // Its × hides it (a 44 px-ish target, reachable by Tab) and gives the focus to the editor.
  await page.click('[data-testid=example-about-dismiss]');
  assert.equal(await page.locator('[data-testid=example-about]').count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'editor');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the Examples control behaves like a select: arrow keys browse, Enter loads, Tab away loads nothing', async () => {
  const { page, problems } = await open();
  const mine = '{"jsonrpc": "2.0", "method": "mine", "id": 7}';
  await page.fill('[data-testid=editor]', mine);
  await page.focus('[data-testid=examples]');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  // Three arrows moved through the titles: nothing loaded, the learner's text is intact.
  const shown = await page.inputValue('[data-testid=examples]');
  assert.notEqual(shown, '', 'the arrows move the choice');
  assert.equal(await editorValue(page), mine);
  assert.equal(await page.locator('[data-testid=example-about]').count(), 0);
  // Enter loads the one shown (the third), and the control goes back to its prompt.
  await page.keyboard.press('Enter');
  await page.waitForSelector(`[data-testid=example-about][data-example=${shown}]`);
  assert.notEqual(await editorValue(page), mine);
  assert.equal(await page.inputValue('[data-testid=examples]'), '');
  // Browsing then leaving with Tab loads nothing and puts the prompt back.
  const loaded = await editorValue(page);
  await page.focus('[data-testid=examples]');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  assert.equal(await editorValue(page), loaded);
  assert.equal(await page.inputValue('[data-testid=examples]'), '');
  assert.deepEqual(problems, []);
  await page.close();
});

test('notes do not pile up: at most three notices, a note goes by itself, Escape in one dismisses it', async () => {
  const { page, problems } = await open();
  // Send with nothing to send: a note each time.
  await page.fill('[data-testid=editor]', '<-- {"jsonrpc": "2.0", "result": 1, "id": 1}');
  for (let i = 0; i < 5; i++) await page.click('[data-testid=send]');
  await page.waitForSelector('[data-testid=notice]');
  assert.equal(await page.locator('[data-testid=notice]').count(), 3);
  await page.focus('[data-testid=notice] >> nth=0 >> [data-testid=dismiss]');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[data-testid=notice]').count(), 2);
  // Notes (not errors) go by themselves after ten seconds.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=notice]').length === 0, null, { timeout: 15000 });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a tool error shows isError: true in the log, the picture and its text version', async () => {
  const { page, problems } = await open();
  await page.selectOption('[data-testid=examples]', 'mcp-tool-error-result');
  await page.waitForSelector('[data-testid=example-about]');
  await page.click('[data-testid=send]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 2);
  const reply = page.locator('[data-testid=log-entry] >> nth=1');
  assert.match(await reply.textContent(), /tool error \(isError: true\) cannot divide by zero/);
  assert.match(await page.textContent('[data-testid=sequence]'), /isError: true/);
  assert.match(await page.textContent('[data-testid=sequence-text]'), /isError: true/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the invalid [] is drawn as an error (dashed, crossed), named as what it is', async () => {
  const { page, problems } = await open();
  await page.fill('[data-testid=editor]', '[]');
  await page.waitForSelector('[data-testid=verdict][data-kind=invalid]');
  await page.click('[data-testid=send]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 2);
  const first = page.locator('[data-testid=log-entry] >> nth=0');
  assert.equal(await first.getAttribute('data-kind'), 'invalid');
  assert.doesNotMatch(await first.textContent(), /empty batch/i);
  assert.match(await first.textContent(), /\[\] is not a batch/);
  const arrow = page.locator('[data-testid=sequence] [data-key] >> nth=0');
  assert.match(await arrow.getAttribute('class'), /\berror\b/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('lesson progress is kept: a lesson answered right is marked finished, after a reload too', async () => {
  const { page, problems } = await open();
  await page.goto(new URL('#/lessons', page.url()).href);
  await page.waitForSelector('[data-testid=lessons]');
  // Numbered once ("1. A request", not "1. 1. A request").
  const first = await page.textContent('[data-testid=lesson-item] >> nth=0');
  assert.equal(first.trim(), 'A request');
  assert.equal(await page.locator('[data-testid=lessons-progress]').count(), 0);
  await page.click('[data-testid=lesson-link] >> nth=0');
  await page.waitForSelector('[data-testid=lesson][data-lesson]');
  // Lesson 1's question (a message that looks like a request but is not one): answer it right.
  await page.click('[data-testid=quiz-answer][data-answer=invalid]');
  assert.equal(await page.getAttribute('[data-testid=quiz-result]', 'data-correct'), 'true');
  await page.waitForSelector('[data-testid=lesson-finished]');
  await page.reload();
  await page.goto(new URL('#/lessons', page.url()).href);
  await page.waitForSelector('[data-testid=lessons-progress]');
  assert.equal(await page.getAttribute('[data-testid=lesson-item] >> nth=0', 'data-done'), 'true');
  assert.equal(await page.getAttribute('[data-testid=lesson-item] >> nth=1', 'data-done'), 'false');
  assert.match(await page.textContent('[data-testid=lessons-progress]'), /1 of 16 finished\. Continue with “A notification”/);
  await page.click('[data-testid=lesson-continue]');
  await page.waitForFunction(() => location.hash === '#/lessons/2');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the toolbar shows per view only what acts there: no Examples, Profile or Share over the quiz', async () => {
  const { page, problems } = await open();
  assert.ok(await page.isVisible('[data-testid=examples]'));
  for (const hash of ['#/quiz', '#/reference', '#/lessons']) {
    await page.goto(new URL(hash, page.url()).href);
    await page.waitForFunction(() => document.querySelector('main.playground')?.hidden);
    for (const control of ['examples', 'profile', 'share']) {
      assert.equal(await page.isVisible(`[data-testid=${control}]`), false, `${hash}: ${control} hidden`);
    }
    assert.ok(await page.isVisible('[data-testid=theme]'), `${hash}: the theme stays`);
  }
  await page.goto(new URL('#/', page.url()).href);
  await page.waitForSelector('[data-testid=examples]', { state: 'visible' });
  assert.deepEqual(problems, []);
  await page.close();
});

test('words for learners: the quiz names each rule in words, the reference has a filter', async () => {
  const { page, problems } = await open();
  await page.goto(new URL('#/quiz/rule:jsonrpc-not-2-0', page.url()).href);
  await page.waitForSelector('[data-testid=quiz-rule]');
  const option = await page.textContent('[data-testid=quiz-rule] option[value=jsonrpc-not-2-0]');
  assert.match(option, /^.{12,} \(jsonrpc-not-2-0\)$/, 'the requirement in words, then the id');
  // The words come from the teaching file (the page's wasm holds no summary).
  assert.equal(option, 'MUST: "jsonrpc" must be exactly the string "2.0". (jsonrpc-not-2-0)');

  await page.goto(new URL('#/reference', page.url()).href);
  await page.waitForSelector('[data-testid=reference-filter]');
  const total = await page.locator('[data-testid=rule-entry]').count();
  assert.match(await page.textContent('[data-testid=reference-count]'), new RegExp(`^${total} of ${total} rules$`));
  await page.fill('[data-testid=reference-filter]', 'batch');
  const shown = await page.locator('[data-testid=rule-entry]:not([hidden])').count();
  assert.ok(shown > 0 && shown < total, `${shown} of ${total}`);
  for (const text of await page.locator('[data-testid=rule-entry]:not([hidden]) h3, [data-testid=rule-entry]:not([hidden]) .summary').allTextContents()) {
    assert.ok(text.length > 0);
  }
  assert.match(await page.textContent('[data-testid=reference-count]'), new RegExp(`^${shown} of ${total} rules$`));
  // The summary is in the entry, read from the teaching file, and the filter finds an entry by a
  // word of its summary that its id and section do not hold.
  const entry = '[data-testid=rule-entry][data-rule=jsonrpc-not-2-0]';
  assert.equal(await page.textContent(`${entry} .summary`), '"jsonrpc" must be exactly the string "2.0".');
  await page.fill('[data-testid=reference-filter]', 'exactly string');
  assert.equal(await page.locator(`${entry}:not([hidden])`).count(), 1, 'found by words of its summary');
  await page.fill('[data-testid=reference-filter]', 'batch zzz-nothing');
  assert.equal(await page.locator('[data-testid=rule-entry]:not([hidden])').count(), 0);
  await page.fill('[data-testid=reference-filter]', '');
  assert.equal(await page.locator('[data-testid=rule-entry]:not([hidden])').count(), total);
  assert.deepEqual(problems, []);
  await page.close();
});

test('after Send the reply is announced beside the verdicts; Show in the log selects it there', async () => {
  const { page, problems } = await open();
  await page.fill('[data-testid=editor]', '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}');
  assert.equal(await page.isVisible('[data-testid=last-reply]'), false);
  await page.click('[data-testid=send]');
  const last = page.locator('[data-testid=last-reply]');
  await last.waitFor({ state: 'visible' });
  assert.match(await last.textContent(), /Latest reply: #2 server → client: .*result 19/);
  // In view without scrolling: it sits under the status, above the verdicts.
  assert.ok(await last.evaluate((el) => el.getBoundingClientRect().bottom <= innerHeight), 'the reply is on screen');
  await page.click('[data-testid=last-reply-show]');
  await page.waitForSelector('[data-testid=log-entry][data-key="2"].is-selected');
  assert.deepEqual(problems, []);
  await page.close();
});

// The app on a phone's screen (390×844), as a touch device, once it shows a verdict.
const openPhone = async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto(process.env.BASE_URL ?? 'http://127.0.0.1:8080/');
  await page.waitForSelector('[data-testid=verdict]');
  return { context, page, problems };
};

test('on a phone (390 px) nothing sticks out, the verdicts take only their room, a notice can be dismissed', async () => {
  const { context, page, problems } = await openPhone();
  const wide = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    out: [...document.querySelectorAll('body *')]
      .filter((el) => el.getClientRects().length && !el.closest('[hidden]') && !el.closest('.visually-hidden'))
      .filter((el) => el.getBoundingClientRect().right > innerWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className || el.dataset.testid || ''}`)
      .slice(0, 5),
  }));
  assert.ok(wide.page <= 390, `the page is ${wide.page} px wide; sticking out: ${wide.out.join(', ')}`);
  // One short message: its verdict column is not an editor-high block of empty space.
  await page.fill('[data-testid=editor]', '{"jsonrpc": "2.0", "method": "ping", "id": 1}');
  await page.waitForSelector('[data-testid=verdict][data-kind=request]');
  const results = await page.$eval('.results', (el) => el.getBoundingClientRect().height);
  const editor = await page.$eval('.editor-pane', (el) => el.getBoundingClientRect().height);
  assert.ok(results < editor * 0.8, `verdicts ${results} px against the editor's ${editor} px`);
  // A notice's dismiss button is on screen and works.
  await page.fill('[data-testid=editor]', '<-- {"jsonrpc": "2.0", "result": 1, "id": 1}');
  await page.click('[data-testid=send]');
  const dismiss = page.locator('[data-testid=notice] [data-testid=dismiss]').first();
  const box = await dismiss.boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `dismiss at ${JSON.stringify(box)}`);
  await dismiss.click();
  assert.equal(await page.locator('[data-testid=notice]').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});


test('on a phone (390×844) the sample and its verdict are both on the first screen', async () => {
  const { context, page, problems } = await openPhone();
  assert.ok((await editorValue(page)).trim().length > 0, 'the page opens on a sample');
  const box = await page.$eval('[data-testid=verdict]', (el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top + scrollY, bottom: r.bottom + scrollY };
  });
  assert.ok(box.top >= 0 && box.bottom <= 844, `the verdict spans y ${box.top}–${box.bottom} of the page`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a phone the editor is as tall as its lines, from 6 lines to 60 % of the screen, and stays resizable', async () => {
  const { context, page, problems } = await openPhone();
  const lines = (n) => Array.from({ length: n }, (_, i) => `{"jsonrpc": "2.0", "method": "ping", "id": ${i}}`).join('\n');
  // The editor box's height, and the textarea's and its scroll height, with `n` lines typed.
  const sized = async (n) => {
    await page.fill('[data-testid=editor]', lines(n));
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=mirror] .line').length === n, n);
    return page.evaluate(() => {
      const code = document.querySelector('.editor .code');
      const area = document.querySelector('[data-testid=editor]');
      return {
        box: code.getBoundingClientRect().height,
        area: area.getBoundingClientRect().height,
        client: area.clientHeight,
        scroll: area.scrollHeight,
        resize: getComputedStyle(code).resize,
      };
    });
  };
  const lineHeight = 21; // 14px/1.5 (--code-font)
  const [one, six, ten, twenty, many] = [await sized(1), await sized(6), await sized(10), await sized(20), await sized(200)];
  assert.equal(one.box, six.box, 'one line gets the 6-line minimum');
  assert.ok(one.box < 200, `one line: an editor ${one.box} px tall`);
  assert.ok(Math.abs(twenty.box - ten.box - 10 * lineHeight) <= 1, `10 → 20 lines: ${ten.box} → ${twenty.box} px`);
  assert.ok(Math.abs(many.box - 0.6 * 844) <= 1, `200 lines: ${many.box} px, the maximum is 60 % of 844`);
  // The textarea fills the box (a tap anywhere in it edits), and scrolls past the maximum only.
  for (const s of [one, twenty, many]) assert.ok(s.box - s.area <= 2, `textarea ${s.area} px in a box of ${s.box}`);
  assert.ok(twenty.scroll <= twenty.client + 1, 'twenty lines: no scrolling');
  assert.ok(many.scroll > many.client, 'two hundred lines: the textarea scrolls');
  assert.equal(many.resize, 'vertical');
  assert.deepEqual(problems, []);
  await context.close();
});

test('quiz pointing: a click anywhere in the offending message counts, and the card says what you answered', async () => {
  const { page, problems } = await open();
  await page.goto(new URL('#/quiz/rule:request-unanswered', page.url()).href);
  await page.waitForSelector('[data-testid=quiz-message]');
  // Click on "b", the method of the request that gets no answer.
  const box = await page.evaluate(() => {
    const pre = document.querySelector('[data-testid=quiz-message]');
    const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    let offset = 0;
    const at = pre.textContent.indexOf('"b"') + 1;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (offset + node.length > at) {
        const range = document.createRange();
        range.setStart(node, at - offset);
        range.setEnd(node, at - offset + 1);
        const r = range.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }
      offset += node.length;
    }
    return null;
  });
  await page.mouse.click(box.x, box.y);
  await page.waitForSelector('[data-testid=quiz-pointed]');
  await page.click('[data-testid=quiz-answer][data-answer=invalid]');
  const result = page.locator('[data-testid=quiz-result]');
  assert.equal(await result.getAttribute('data-correct'), 'true');
  assert.match(await page.textContent('[data-testid=quiz-answered]'), /^You answered: invalid, pointing at “"method": "b"”\.$/);
  assert.match(await page.textContent('[data-testid=quiz-refs]'), /request-unanswered/);

  // A valid message: no empty "In the reference:" line; a wrong answer's card is the error colour.
  await page.goto(new URL('#/quiz/own:subtract', page.url()).href);
  await page.waitForSelector('[data-testid=quiz-message]');
  await page.click('[data-testid=quiz-answer][data-answer=notification]');
  assert.equal(await page.getAttribute('[data-testid=quiz-result]', 'data-correct'), 'false');
  assert.equal(await page.locator('[data-testid=quiz-refs]').count(), 0);
  assert.match(await page.textContent('[data-testid=quiz-answered]'), /^You answered: notification\.$/);
  const stripe = await page.$eval('[data-testid=quiz-result]', (el) => getComputedStyle(el).borderLeftColor);
  const error = await page.evaluate(() => {
    const probe = document.createElement('i');
    probe.style.color = 'var(--error)';
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  });
  assert.equal(stripe, error, 'the "Not quite" card has the error stripe');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the verdict and the mock agree: under MCP the mock is an MCP server and says so', async () => {
  const { page, problems } = await open();
  await page.selectOption('[data-testid=profile]', 'mcp:2025-11-25');
  assert.match(await page.textContent('[data-testid=target-mock]'), /mock MCP 2025-11-25 server/);
  await page.fill('[data-testid=editor]', '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}');
  await page.waitForSelector('[data-testid=verdict][data-kind=invalid]');
  await page.click('[data-testid=send]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 2);
  const reply = await page.textContent('[data-testid=log-entry] >> nth=1 >> [data-testid=log-raw]');
  assert.match(reply, /"code":-32600/, 'invalid under MCP, as the verdict says');
  // Plain JSON-RPC: the spec's server answers 19, and the verdict calls it a request.
  await page.selectOption('[data-testid=profile]', 'jsonrpc');
  assert.match(await page.textContent('[data-testid=target-mock]'), /mock JSON-RPC server/);
  await page.waitForSelector('[data-testid=verdict][data-kind=request]');
  await page.click('[data-testid=send]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 4);
  assert.match(await page.textContent('[data-testid=log-entry] >> nth=3 >> [data-testid=log-raw]'), /"result":19/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('quiz pointing by keyboard: every part of the message is in a list, and choosing one counts as a click', async () => {
  const { page, problems } = await open();
  await page.goto(new URL('#/quiz/rule:request-unanswered', page.url()).href);
  await page.waitForSelector('[data-testid=quiz-point]');
  const parts = await page.$$eval('[data-testid=quiz-point] option', (os) => os.map((o) => o.textContent));
  assert.ok(parts.includes('"method": "b"'), parts.join(' | '));
  // Keyboard only: Tab to the list, choose the second request's method, answer with Enter.
  await page.focus('[data-testid=quiz-point]');
  const value = await page.$eval('[data-testid=quiz-point]', (s) =>
    [...s.options].find((o) => o.textContent === '"method": "b"').value);
  await page.selectOption('[data-testid=quiz-point]', value);
  await page.waitForSelector('[data-testid=quiz-pointed]');
  assert.match(await page.textContent('[data-testid=quiz-pointed]'), /"method": "b"/);
  await page.focus('[data-testid=quiz-answer][data-answer=invalid]');
  await page.keyboard.press('Enter');
  const result = page.locator('[data-testid=quiz-result]');
  assert.equal(await result.getAttribute('data-correct'), 'true');
  assert.match(await page.textContent('[data-testid=quiz-answered]'), /^You answered: invalid, pointing at “"method": "b"”\.$/);
  assert.equal(await page.$eval('[data-testid=quiz-point]', (s) => s.disabled), true, 'answered: the list is done too');
  assert.deepEqual(problems, []);
  await page.close();
});

test("a lesson's Run goes through the page's log: its sequence picture in the lesson, the same messages in the playground", async () => {
  const { page, problems } = await open();
  await page.goto(new URL('#/lessons/6', page.url()).href);
  await page.waitForSelector('[data-testid=lesson][data-lesson=mcp]');
  await page.click('[data-testid=lesson-run]');
  await page.waitForSelector('[data-testid=lesson] [data-testid=sequence]');
  const replies = await page.$$eval('[data-testid=lesson-reply]', (rs) => rs.map((r) => r.textContent));
  assert.ok(replies.some((r) => r.includes('"tools"')), replies.join(' | '));
  const sentences = await page.$$eval('[data-testid=lesson] [data-testid=sequence-text] li', (ls) => ls.map((l) => l.textContent));
  assert.ok(sentences.some((s) => /client → server: request server\/discover/.test(s)), sentences.join(' | '));
  assert.ok(sentences.some((s) => /tools\/list/.test(s)), sentences.join(' | '));
  // The playground's log holds the same exchange, paired.
  await page.goto(new URL('#/', page.url()).href);
  await page.waitForSelector('[data-testid=editor]', { state: 'visible' });
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=log-counts]')?.dataset.pairs) >= 3);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the mock's countdown: its log lines and progress arrive between the request and the result, in the log and the picture", async () => {
  const { page, problems } = await open();
  await page.selectOption('[data-testid=profile]', 'mcp:2025-11-25');
  await page.fill('[data-testid=editor]',
    '{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "countdown", "arguments": {"n": 2}, "_meta": {"progressToken": "c1"}}}');
  await page.waitForSelector('[data-testid=verdict][data-kind=request]');
  await page.click('[data-testid=send]');
  // The request, two log lines and two progress notifications, then the result.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-entry]').length === 6);
  const log = await entries(page);
  assert.deepEqual(log.map((e) => [e.direction, e.kind]), [
    ['out', 'request'],
    ['in', 'notification'], ['in', 'notification'], ['in', 'notification'], ['in', 'notification'],
    ['in', 'response'],
  ]);
  assert.match(log[1].raw, /notifications\/message/);
  assert.match(log[2].raw, /notifications\/progress/);
  assert.match(log[5].raw, /Liftoff! Counted down from 2\./);
  const told = await page.$$eval('[data-testid=sequence-text] li', (ls) => ls.map((l) => l.textContent));
  assert.ok(told.some((t) => /server → client: notification notifications\/progress/.test(t)), told.join(' | '));
  assert.deepEqual(problems, []);
  await page.close();
});
