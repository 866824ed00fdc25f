// End-to-end: the teaching views (src/web/page/router.rs, reference/, quiz/, lessons/) on the release build: the nav, every reference
// entry's "try it", the verdict pane's links into the reference, the quiz answered right and
// wrong (grading, explanation, the pointed span), its saved progress and shared links, and the
// six lessons against the in-browser mock.
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/teach.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BASE_URL, launch, watch } from './support.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A fresh context (its own storage) and page recording errors and CSP violations. */
async function visitor() {
  const context = await browser.newContext();
  const problems = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const page = await context.newPage();
  page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  return { context, page, problems };
}

async function go(page, fragment) {
  await page.goto(BASE_URL + fragment);
  await page.waitForSelector('[data-testid=views]');
  // A teaching view shows its text once the teaching data has arrived (the first open fetches it).
  await page.waitForSelector('[data-testid=teaching-loading]', { state: 'detached' });
}

const editorText = (page) => page.inputValue('[data-testid=editor]');
const visible = (page, testid) => page.isVisible(`[data-testid=${testid}]`);

test('the nav bar switches views by fragment and the playground keeps its text', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '');
  await page.fill('[data-testid=editor]', '{"jsonrpc": "2.0", "method": "kept"}');
  for (const [view, testid] of [['reference', 'reference'], ['quiz', 'quiz'], ['lessons', 'lessons']]) {
    await page.click(`[data-testid=views] a[data-view=${view}]`);
    await page.waitForSelector(`[data-testid=${testid}]`);
    assert.equal(new URL(page.url()).hash, `#/${view}`);
    assert.equal(await visible(page, 'editor'), false, `${view}: the playground is hidden`);
    assert.equal(await page.getAttribute(`[data-testid=views] a[data-view=${view}]`, 'aria-current'), 'page');
  }
  await page.goBack();
  await page.waitForSelector('[data-testid=quiz]');
  await page.click('[data-testid=views] a[data-view=playground]');
  await page.waitForSelector('[data-testid=editor]', { state: 'visible' });
  assert.equal(await editorText(page), '{"jsonrpc": "2.0", "method": "kept"}');
  assert.equal(await page.$('[data-testid=reference], [data-testid=quiz], [data-testid=lesson]'), null);
  assert.deepEqual(problems, []);
  await context.close();
});

test('every reference entry: its broken example breaks it in the playground, its fixed one does not', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '#/reference');
  const rules = await page.$$eval('[data-testid=rule-entry]', (es) => es.map((e) => e.dataset.rule));
  assert.ok(rules.length >= 50, `${rules.length} entries`);
  assert.equal(new Set(rules).size, rules.length, 'one entry per rule');
  // Each entry names its severity and links its spec section.
  const first = page.locator('[data-testid=rule-entry]').first();
  assert.match(await first.locator('.section a').getAttribute('href'), /^https:\/\//);
  for (const rule of rules) {
    for (const which of ['bad', 'good']) {
      await go(page, `#/reference/${rule}`);
      const entry = page.locator(`[data-testid=rule-entry][data-rule="${rule}"]`);
      assert.match(await entry.getAttribute('class'), /focused/, rule);
      const example = await entry.locator(`pre.${which}`).textContent();
      const mcp = /checked under MCP/.test(await entry.locator('.section').textContent());
      await entry.locator(`[data-testid=try-${which}]`).click();
      await page.waitForSelector('[data-testid=editor]', { state: 'visible' });
      assert.equal(await editorText(page), example, `${rule} ${which}: loaded into the editor`);
      const found = await page.$$eval('[data-testid=violation]', (vs) => vs.map((v) => v.dataset.rule));
      if (which === 'bad') {
        assert.ok(found.includes(rule), `${rule}: its broken example shows it (found ${found})`);
      } else {
        assert.deepEqual(found, [], `${rule}: its fixed example breaks nothing`);
      }
      assert.equal((await page.inputValue('[data-testid=profile]')).startsWith('mcp:'), mcp, `${rule}: its profile`);
    }
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('25.4 the reference has an entry for every 2026-07-28 rule the lessons teach', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '#/reference');
  const rules = await page.$$eval('[data-testid=rule-entry]', (es) => es.map((e) => e.dataset.rule));
  for (const rule of ['mcp-meta-required', 'mcp-meta-client-info', 'mcp-method-removed', 'mcp-result-type-missing',
    'mcp-input-required-shape', 'mcp-input-request-invalid', 'mcp-input-response-invalid', 'mcp-retry-missing-responses',
    'mcp-request-state-changed', 'mcp-cache-fields']) {
    assert.ok(rules.includes(rule), rule);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('MCP entries load with an MCP profile, JSON-RPC entries with JSON-RPC', async () => {
  const { context, page, problems } = await visitor();
  for (const [rule, profile] of [['jsonrpc-not-2-0', /^jsonrpc$/], ['mcp-param-missing', /^mcp:/]]) {
    await go(page, `#/reference/${rule}`);
    await page.click(`[data-rule="${rule}"] [data-testid=try-bad]`);
    await page.waitForSelector(`[data-testid=violation][data-rule="${rule}"]`);
    assert.match(await page.inputValue('[data-testid=profile]'), profile, rule);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('a violation in the verdict pane links to its reference entry', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '');
  await page.fill('[data-testid=editor]', '{"jsonrpc": "1.0", "method": "x", "id": 1}');
  await page.click('[data-testid=violation][data-rule=jsonrpc-not-2-0] [data-testid=violation-ref]');
  await page.waitForSelector('[data-testid=rule-entry][data-rule=jsonrpc-not-2-0].focused');
  assert.equal(new URL(page.url()).hash, '#/reference/jsonrpc-not-2-0');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.rule), 'jsonrpc-not-2-0');
  assert.deepEqual(problems, []);
  await context.close();
});

test('quiz: a wrong kind is graded wrong, explained, and the broken part is marked', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '#/quiz/rule:jsonrpc-not-2-0');
  // With the keyboard: the answer button is rebuilt, so focus moves to the result.
  await page.focus('[data-testid=quiz-answer][data-answer=request]');
  await page.keyboard.press('Enter');
  const result = page.locator('[data-testid=quiz-result]');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'quiz-result');
  assert.equal(await result.getAttribute('data-correct'), 'false');
  assert.equal(await result.getAttribute('data-expected'), 'invalid');
  assert.match(await result.textContent(), /Not quite: it is invalid/);
  assert.match(await page.textContent('[data-testid=quiz-explanation]'), /"jsonrpc" must be exactly the string "2.0"/);
  assert.deepEqual(await page.$$eval('[data-testid=quiz-span]', (ms) => ms.map((m) => m.textContent)), ['"1.0"']);
  assert.equal(await page.isDisabled('[data-testid=quiz-answer][data-answer=invalid]'), true, 'answered once');
  await result.locator('a[href="#/reference/jsonrpc-not-2-0"]').click();
  await page.waitForSelector('[data-testid=rule-entry][data-rule=jsonrpc-not-2-0].focused');
  assert.deepEqual(problems, []);
  await context.close();
});

test('quiz: picking the rule, or a wrong rule, is graded', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '#/quiz/rule:jsonrpc-not-2-0');
  await page.selectOption('[data-testid=quiz-rule]', 'jsonrpc-not-2-0');
  await page.click('[data-testid=quiz-answer][data-answer=invalid]');
  assert.equal(await page.getAttribute('[data-testid=quiz-result]', 'data-correct'), 'true');
  assert.match(await page.textContent('[data-testid=quiz-result]'), /you found what is wrong/);
  await page.reload();
  await page.waitForSelector('[data-testid=quiz-rule]');
  await page.selectOption('[data-testid=quiz-rule]', 'method-not-string');
  await page.click('[data-testid=quiz-answer][data-answer=invalid]');
  assert.equal(await page.getAttribute('[data-testid=quiz-result]', 'data-correct'), 'false');
  assert.match(await page.textContent('[data-testid=quiz-result]'), /not for that reason/);
  assert.deepEqual(problems, []);
  await context.close();
});

/** Clicks (or, with `tap`, taps) the middle of `needle` inside the quiz message. */
async function clickOn(page, needle, tap = false) {
  // The quiz's text arrives with the teaching data (fetched on the first open): wait for it.
  await page.waitForSelector('[data-testid=quiz-message]');
  const at = await page.$eval('[data-testid=quiz-message]', (pre, needle) => {
    const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    let node = walker.nextNode();
    while (node && !node.textContent.includes(needle)) node = walker.nextNode();
    const start = node.textContent.indexOf(needle);
    const range = document.createRange();
    range.setStart(node, start + 1);
    range.setEnd(node, start + 2);
    const r = range.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }, needle);
  await (tap ? page.touchscreen.tap(at.x, at.y) : page.mouse.click(at.x, at.y));
}

test('quiz: clicking the offending part, or another part, is graded', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '#/quiz/rule:jsonrpc-not-2-0');
  await clickOn(page, '"1.0"');
  assert.match(await page.textContent('[data-testid=quiz-pointed]'), /You point at: "jsonrpc": "1\.0"/);
  await page.click('[data-testid=quiz-answer][data-answer=invalid]');
  assert.equal(await page.getAttribute('[data-testid=quiz-result]', 'data-correct'), 'true');
  assert.match(await page.textContent('[data-testid=quiz-result]'), /you found what is wrong/);
  await page.reload();
  await page.waitForSelector('[data-testid=quiz-message]');
  await clickOn(page, '"method"');
  await page.click('[data-testid=quiz-answer][data-answer=invalid]');
  assert.equal(await page.getAttribute('[data-testid=quiz-result]', 'data-correct'), 'false');
  assert.deepEqual(problems, []);
  await context.close();
});

test('quiz: valid messages of each kind, and the MCP seed lab', async () => {
  const { context, page, problems } = await visitor();
  const cases = [
    ['own:update', 'notification', 'notification'],
    ['own:method-not-found', 'response', 'response'],
    ['valid:response-unmatched', 'valid', 'valid'],
    ['rule:response-unmatched', 'valid', 'invalid'],
    ['own:batch', 'batch', 'batch'],
    ['own:subtract', 'notification', 'request'],
    ['own:seed-lab-1', 'request', 'invalid'],
    ['own:seed-lab-4', 'request', 'request'],
  ];
  for (const [id, answer, expected] of cases) {
    await go(page, `#/quiz/${id}`);
    await page.click(`[data-testid=quiz-answer][data-answer=${answer}]`);
    const result = page.locator('[data-testid=quiz-result]');
    assert.equal(await result.getAttribute('data-expected'), expected, id);
    assert.equal(await result.getAttribute('data-correct'), String(answer === expected), id);
    assert.notEqual((await page.textContent('[data-testid=quiz-explanation]')).trim(), '', id);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('quiz: progress and score persist; order varies; a set link reproduces the order', async () => {
  const a = await visitor();
  await go(a.page, '#/quiz');
  const progress = a.page.locator('[data-testid=quiz-progress]');
  assert.match(await progress.textContent(), /^Question 1 of \d+ · 0 \/ 0 right$/);
  const firstA = await a.page.getAttribute('.quiz-item', 'data-item');
  await a.page.click('[data-testid=quiz-answer] >> nth=0');
  const right = (await a.page.getAttribute('[data-testid=quiz-result]', 'data-correct')) === 'true' ? 1 : 0;
  await a.page.click('[data-testid=quiz-next]');
  assert.equal(await a.page.evaluate(() => document.activeElement?.className), 'quiz-item', 'focus on the next question');
  const secondA = await a.page.getAttribute('.quiz-item', 'data-item');
  assert.notEqual(secondA, firstA);
  await a.page.reload();
  await a.page.waitForSelector('[data-testid=quiz-progress]');
  assert.equal(await progress.getAttribute('data-pos'), '1');
  assert.equal(await progress.getAttribute('data-answered'), '1');
  assert.equal(await progress.getAttribute('data-right'), String(right));
  assert.match(await progress.textContent(), new RegExp(`^Question 2 of \\d+ · ${right} / 1 right$`));
  assert.equal(await a.page.getAttribute('.quiz-item', 'data-item'), secondA, 'the same question after a reload');
  const setLink = await a.page.getAttribute('[data-testid=quiz-set-link]', 'href');
  assert.match(setLink, /^#\/quiz\/set\/\d+$/);

  // Another learner gets another order; the set link gives them this one.
  const b = await visitor();
  await go(b.page, '#/quiz');
  const otherSet = await b.page.getAttribute('[data-testid=quiz-set-link]', 'href');
  assert.notEqual(otherSet, setLink, 'questions vary in order between learners');
  await go(b.page, setLink);
  assert.equal(await b.page.getAttribute('.quiz-item', 'data-item'), firstA);
  await b.page.click('[data-testid=quiz-next]');
  assert.equal(await b.page.getAttribute('.quiz-item', 'data-item'), secondA);

  // Start over: a new order and a zero score.
  await a.page.click('[data-testid=quiz-restart]');
  assert.match(await progress.textContent(), /^Question 1 of \d+ · 0 \/ 0 right$/);
  assert.notEqual(await a.page.getAttribute('[data-testid=quiz-set-link]', 'href'), setLink);

  // A question's own link opens that one question.
  const share = await a.page.getAttribute('[data-testid=quiz-share]', 'href');
  const shown = await a.page.getAttribute('.quiz-item', 'data-item');
  assert.match(share, /^#\/quiz\/q-[0-9a-f]{8}$/, 'opaque: the link does not name the answer');
  await go(b.page, share);
  assert.equal(await b.page.getAttribute('.quiz-item', 'data-item'), shown);
  await go(b.page, '#/quiz/no-such-item');
  await b.page.waitForSelector('[data-testid=quiz-missing]');
  assert.deepEqual([...a.problems, ...b.problems], []);
  await a.context.close();
  await b.context.close();
});

test('quiz: storage that refuses writes is a notice, and the editor keeps its text', async () => {
  const { context, page } = await visitor();
  await context.addInitScript(() => {
    const real = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key === 'jrpc.quiz') throw new DOMException('quota', 'QuotaExceededError');
      return real.call(this, key, value);
    };
  });
  await go(page, '');
  await page.fill('[data-testid=editor]', '{"jsonrpc": "2.0", "method": "mine", "id": 7}');
  await page.click('[data-testid=views] a[data-view=quiz]');
  await page.waitForSelector('[data-testid=notice][data-level=error]');
  assert.match(await page.textContent('[data-testid=notice][data-level=error]'), /Quiz progress is not being saved/);
  await page.click('[data-testid=quiz-answer] >> nth=0');
  await page.waitForSelector('[data-testid=quiz-result]');
  await page.click('[data-testid=views] a[data-view=playground]');
  assert.equal(await editorText(page), '{"jsonrpc": "2.0", "method": "mine", "id": 7}');
  await page.reload();
  await page.waitForSelector('[data-testid=verdict]');
  assert.equal(await editorText(page), '{"jsonrpc": "2.0", "method": "mine", "id": 7}', 'the draft is still saved');
  await context.close();
});

test('quiz: "is this right?" grades the learner\'s own message', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '#/quiz');
  await page.fill('[data-testid=quiz-own]', '{"jsonrpc": "2.0", "method": "ping", "id": {}}');
  await page.click('[data-testid=quiz-own-check]');
  const own = page.locator('.own');
  await own.locator('[data-testid=quiz-answer][data-answer=request]').click();
  assert.equal(await own.locator('[data-testid=quiz-result]').getAttribute('data-correct'), 'false');
  assert.equal(await own.locator('[data-testid=quiz-result]').getAttribute('data-expected'), 'invalid');
  assert.ok((await own.locator('[data-testid=quiz-span]').count()) > 0, 'the broken part is marked');
  await page.fill('[data-testid=quiz-own]', '{"jsonrpc": "2.0", "method": "ping"}');
  await page.click('[data-testid=quiz-own-check]');
  await own.locator('[data-testid=quiz-answer][data-answer=notification]').click();
  assert.equal(await own.locator('[data-testid=quiz-result]').getAttribute('data-correct'), 'true');
  assert.deepEqual(problems, []);
  await context.close();
});

test('lessons: walk all sixteen, run each example on the mock, answer each question', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '#/lessons');
  assert.equal(await page.locator('[data-testid=lesson-link]').count(), 16);
  await page.click('[data-testid=lesson-link] >> nth=0');
  const steps = [
    // [lesson, a reply to expect (or null: no reply), the right answer, a wrong one]
    ['request', '"result":19', 'invalid', 'request'],
    ['notification', null, 'notification', 'request'],
    ['response', '"result":19', 'invalid', 'response'],
    ['error', '-32601', 'invalid', 'response'],
    ['batch', '"result":7', 'invalid', 'batch'],
    ['mcp', '"supportedVersions"', 'invalid', 'request'],
    ['mcp-content', '"structuredContent"', 'invalid', 'response'],
    ['mcp-tool-errors', '"isError":true', 'response', 'invalid'],
    ['mcp-resources', '"cacheScope"', 'invalid', 'response'],
    ['mcp-prompts', '"messages"', 'request', 'response'],
    ['mcp-progress', 'Liftoff!', 'invalid', 'notification'],
    ['mcp-subscriptions', 'JSON-RPC ids echo exactly', 'invalid', 'request'],
    ['mcp-sampling', '"input_required"', 'invalid', 'response'],
    ['mcp-elicitation', '"input_required"', 'invalid', 'valid'],
    ['mcp-cancellation', null, 'notification', 'response'],
    ['mcp-versions', '"protocolVersion":"2025-11-25"', 'invalid', 'valid'],
  ];
  for (const [i, [id, reply, right, wrong]] of steps.entries()) {
    // The view is rebuilt after the click on "next": wait for this lesson (the previous one is
    // still on the page for a moment; reading it at once made this test flaky).
    await page.waitForSelector(`[data-testid=lesson][data-lesson="${id}"]`, { timeout: 5_000 });
    assert.equal(new URL(page.url()).hash, `#/lessons/${i + 1}`);
    await page.click('[data-testid=lesson-run]');
    await page.waitForSelector('[data-testid=lesson-replies]');
    const replies = await page.$$eval('[data-testid=lesson-reply]', (rs) => rs.map((r) => r.textContent));
    if (reply) {
      // Long replies are laid out on several lines: compare without the layout's spaces.
      const flat = (t) => t.replace(/\s/g, '');
      assert.ok(replies.some((r) => flat(r).includes(flat(reply))), `${id}: ${replies}`);
    } else {
      assert.deepEqual(replies, [], `${id}: a notification (or a cancelled request) gets no reply`);
      await page.waitForSelector('[data-testid=lesson-no-reply]');
    }
    const answer = i % 2 === 0 ? right : wrong;
    await page.click(`[data-testid=quiz-answer][data-answer=${answer}]`);
    const result = page.locator('[data-testid=quiz-result]');
    assert.equal(await result.getAttribute('data-correct'), String(answer === right), id);
    assert.equal(await result.getAttribute('data-expected'), right, id);
    if (i < steps.length - 1) await page.click('[data-testid=lesson-next]');
  }
  assert.equal(await page.$('[data-testid=lesson-next]'), null, 'the last step has no next');
  // The last example opens in the playground with the MCP profile, and Send runs it there.
  await page.click('[data-testid=lesson-open]');
  await page.waitForSelector('[data-testid=editor]', { state: 'visible' });
  assert.match(await page.inputValue('[data-testid=profile]'), /^mcp:/);
  assert.match(await editorText(page), /"method": "initialize"/);
  await page.click('[data-testid=send]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=log-counts]')?.dataset.pairs) >= 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('axe: no serious or critical findings on the reference, a graded quiz question and a lesson', async () => {
  const { context, page, problems } = await visitor();
  const views = [
    ['#/reference/batch-empty', async () => {}],
    ['#/quiz/rule:jsonrpc-not-2-0', async () => page.click('[data-testid=quiz-answer][data-answer=request]')],
    ['#/lessons/6', async () => {
      await page.click('[data-testid=lesson-run]');
      await page.click('[data-testid=quiz-answer][data-answer=invalid]');
    }],
  ];
  for (const [fragment, act] of views) {
    await go(page, fragment);
    await page.waitForSelector('.teach');
    await act();
    await page.evaluate(AXE_SOURCE);
    const found = await page.evaluate(async () => {
      const results = await window.axe.run(document, { resultTypes: ['violations'] });
      return results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
    });
    assert.deepEqual(found, [], fragment);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('each view has its title, its <main>, and the focus on its heading; a skip link leads past the toolbar', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '');
  assert.equal(await page.title(), 'JSON-RPC playground');
  // The first Tab reaches the skip link; following it puts the focus in the playground's <main>.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'skip-link');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.matches('main.playground')), true);
  for (const [fragment, title, heading] of [
    ['#/reference', 'Rule reference — JSON-RPC playground', 'reference-title'],
    ['#/quiz', 'Quiz — JSON-RPC playground', 'quiz-title'],
    ['#/lessons', 'Lessons — JSON-RPC playground', 'lessons-title'],
    ['#/lessons/2', /^Lesson 2: .+ — JSON-RPC playground$/, 'lesson-title'],
  ]) {
    await page.evaluate((f) => { location.hash = f; }, fragment);
    await page.waitForFunction((id) => document.activeElement?.id === id, heading);
    const shown = await page.title();
    if (title instanceof RegExp) assert.match(shown, title); else assert.equal(shown, title);
    assert.equal(await page.evaluate(() => document.querySelectorAll('main:not([hidden])').length), 1, `${fragment}: one visible <main>`);
    assert.equal(await page.evaluate(() => document.activeElement?.closest('main')?.classList.contains('teach-host')), true);
  }
  // Back to the playground with "Try it": the title follows and the focus is in the editor.
  await page.evaluate(() => { location.hash = '#/reference/batch-empty'; });
  await page.click('[data-rule=batch-empty] [data-testid=try-bad]');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'editor');
  assert.equal(await page.title(), 'JSON-RPC playground');
  assert.deepEqual(problems, []);
  await context.close();
});

// ---- Issue 28: teaching that teaches. One test per item, walked as a student. ----

/** The lesson at 1-based `n`, loaded. */
async function lesson(page, n) {
  await go(page, `#/lessons/${n}`);
  await page.waitForSelector(`[data-testid=lesson] .step >> text="Step ${n} of 16"`);
}

test('28.1 severity: a SHOULD is marked as one everywhere, and pointing at it is a right observation', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '#/quiz/rule:member-unknown');
  const option = await page.textContent('[data-testid=quiz-rule] option[value=member-unknown]');
  assert.match(option, /^SHOULD: /);
  assert.match(await page.textContent('[data-testid=quiz-rule] option[value=jsonrpc-not-2-0]'), /^MUST: /);
  await clickOn(page, '"parms"');
  await page.click('[data-testid=quiz-answer][data-answer=invalid]');
  const result = page.locator('[data-testid=quiz-result]');
  assert.equal(await result.getAttribute('data-correct'), 'true');
  assert.equal(await result.getAttribute('data-noticed'), 'member-unknown');
  const text = await result.textContent();
  assert.match(text, /Right observation: it is valid, but member-unknown is discouraged/);
  assert.doesNotMatch(text, /Not quite/);
  // The batch whose ids repeat: naming that rule is right too (it used to be "Not quite: it is batch").
  await go(page, '#/quiz/rule:batch-duplicate-id');
  await page.selectOption('[data-testid=quiz-rule]', 'batch-duplicate-id');
  await page.click('[data-testid=quiz-answer][data-answer=invalid]');
  assert.equal(await page.getAttribute('[data-testid=quiz-result]', 'data-correct'), 'true');
  // The reference: a warning's example is "Discouraged", an error's "Breaks it"; badges say the keyword.
  await go(page, '#/reference/member-unknown');
  const entry = page.locator('[data-rule=member-unknown]');
  assert.match(await entry.textContent(), /Discouraged \(valid, but\)/);
  assert.doesNotMatch(await entry.textContent(), /Breaks it/);
  assert.equal(await entry.locator('[data-testid=rule-severity]').textContent(), 'warning (SHOULD)');
  assert.match(await page.locator('[data-rule=jsonrpc-not-2-0]').textContent(), /Breaks it/);
  // Lesson 1 teaches MUST and SHOULD.
  await lesson(page, 1);
  assert.match(await page.textContent('[data-testid=lesson]'), /MUST.*invalid.*SHOULD.*still valid/s);
  assert.deepEqual(problems, []);
  await context.close();
});

test('28.2 each lesson asks what it taught; the --> notation is taught where first used', async () => {
  const { context, page, problems } = await visitor();
  await lesson(page, 9);
  assert.match(await page.textContent('[data-testid=quiz-message]'), /ttlMs/);
  await lesson(page, 13);
  assert.match(await page.textContent('[data-testid=quiz-message]'), /input_required/);
  assert.doesNotMatch(await page.textContent('[data-testid=lesson] > p'), /-->/);
  await lesson(page, 14);
  assert.match(await page.textContent('[data-testid=lesson]'), /a line starting --> is what the client sends, <-- what the server sends back/);
  assert.equal(await page.locator('[data-testid=quiz-notation]').count(), 1, 'said above the transcript question');
  await lesson(page, 6);
  assert.doesNotMatch(await page.textContent('[data-testid=lesson] > p'), /-->/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('28.3 a wrong answer can be tried again, the explanation stays, and a right retry finishes the lesson', async () => {
  const { context, page, problems } = await visitor();
  await lesson(page, 2);
  await page.click('[data-testid=quiz-answer][data-answer=request]');
  assert.equal(await page.getAttribute('[data-testid=quiz-result]', 'data-correct'), 'false');
  assert.equal(await page.isDisabled('[data-testid=quiz-answer][data-answer=notification]'), true);
  const explanation = await page.textContent('[data-testid=quiz-explanation]');
  await page.click('[data-testid=quiz-retry]');
  assert.equal(await page.textContent('[data-testid=quiz-explanation]'), explanation, 'the explanation stays');
  assert.equal(await page.isDisabled('[data-testid=quiz-answer][data-answer=notification]'), false);
  await page.click('[data-testid=quiz-answer][data-answer=notification]');
  assert.equal(await page.getAttribute('[data-testid=quiz-result]', 'data-correct'), 'true');
  await page.waitForSelector('[data-testid=lesson-finished]');
  assert.deepEqual(problems, []);
  await context.close();
});

test('28.4 each lesson run is a fresh session: its picture and the server ids start again', async () => {
  const { context, page, problems } = await visitor();
  await lesson(page, 2);
  await page.click('[data-testid=lesson-run]');
  await lesson(page, 4);
  await page.click('[data-testid=lesson-run]');
  await page.waitForSelector('[data-testid=lesson] [data-testid=sequence]');
  const sentences = await page.$$eval('[data-testid=lesson] [data-testid=sequence-text] li', (ls) => ls.map((l) => l.textContent));
  assert.ok(sentences.length > 0 && sentences.every((s) => !/update/.test(s)), sentences.join(' | '));
  // Lesson 16 (the handshake): its server asks mock-1 and mock-2 (then cancels mock-2), on every run.
  await lesson(page, 16);
  await page.click('[data-testid=lesson-run]');
  await page.waitForSelector('[data-testid=lesson-answer]');
  const said = (await page.$$eval('[data-testid=lesson-server-message]', (ms) => ms.map((m) => m.textContent))).join(' ').replace(/\s/g, '');
  assert.match(said, /"id":"mock-1"/);
  assert.match(said, /"requestId":"mock-2"/);
  assert.doesNotMatch(said, /mock-3/);
  // Run again: the same ids, a fresh picture.
  const count = await page.locator('[data-testid=lesson] [data-testid=sequence-text] li').count();
  await page.click('[data-testid=lesson-run]');
  await page.waitForSelector('[data-testid=lesson-run-output][data-run="2"]');
  // The run's output shows at once; the mock's answer follows from its worker: wait for the
  // picture to fill again (it must reach the first run's length, not add to it).
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid=lesson] [data-testid=sequence-text] li').length >= n,
    count,
    { timeout: 10000 },
  );
  assert.equal(await page.locator('[data-testid=lesson] [data-testid=sequence-text] li').count(), count);
  const again = (await page.$$eval('[data-testid=lesson-server-message]', (ms) => ms.map((m) => m.textContent))).join(' ').replace(/\s/g, '');
  assert.match(again, /"id":"mock-1"/);
  assert.doesNotMatch(again, /mock-3/);
  assert.deepEqual(problems, []);
  await context.close();
});

/** A laptop's window and a phone's, each with a fresh context; `walk` gets the page. */
const SCREENS = [
  ['laptop', { viewport: { width: 1280, height: 800 } }],
  ['phone', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }],
];

/** The run's area, its content's height, and the pending "Answer as the client" (if any), measured. */
const runBox = (page) => page.evaluate(() => {
  const run = document.querySelector('[data-testid=lesson-run-output]');
  const r = run.getBoundingClientRect();
  const b = document.querySelector('[data-testid=lesson-answer], [data-testid=lesson-retry]')?.getBoundingClientRect();
  return {
    top: r.top, bottom: r.bottom, height: r.height, content: run.scrollHeight, window: innerHeight,
    button: b && { top: b.top, bottom: b.bottom },
  };
});

/** The pending action is on screen and inside the run's visible area (not under its scroll). */
const actionInSight = () => {
  const b = document.querySelector('[data-testid=lesson-answer], [data-testid=lesson-retry]')?.getBoundingClientRect();
  const r = document.querySelector('[data-testid=lesson-run-output]').getBoundingClientRect();
  return b && b.top >= 0 && b.bottom <= innerHeight && b.top >= r.top && b.bottom <= r.bottom;
};

for (const [screen, options] of SCREENS) {
  test(`28.5 ${screen}: every lesson's run stays within a screen, long messages folded, the pending action in sight`, async () => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const problems = await watch(page);
    const tall = [];
    for (let n = 1; n <= 16; n += 1) {
      await lesson(page, n);
      await page.click('[data-testid=lesson-run]');
      await page.waitForSelector('[data-testid=lesson-replies] li');
      if (await page.locator('[data-testid=lesson-answer], [data-testid=lesson-retry]').count()) {
        await page.waitForFunction(actionInSight, null, { timeout: 3000 });
      }
      const box = await runBox(page);
      assert.ok(box.height <= box.window, `lesson ${n}: the run is ${box.height} px tall in a ${box.window} px window`);
      if (box.content > box.window) tall.push(`${n}: ${box.content}`);
      // Each message is one heading; a long one is folded under it, a short one open on one line.
      const shown = await page.$$eval('[data-testid=lesson-replies] details', (ds) => ds.map((d) => ({
        open: d.open, text: d.querySelector('pre').textContent, head: d.querySelector('summary').getBoundingClientRect().height,
        bytes: new TextEncoder().encode(d.querySelector('pre').textContent).length,
      })));
      for (const m of shown) {
        assert.equal(m.open, m.bytes <= 100, `lesson ${n}: ${m.text.slice(0, 60)}`);
        assert.ok(m.head < 30, `lesson ${n}: the heading is one line (${m.head} px)`);
      }
    }
    // Lesson 6, ~4,200 px on a phone before: within the window, the tools list folded under its
    // heading, sent and received laid out alike (the long ones on lines, folded).
    await lesson(page, 6);
    await page.click('[data-testid=lesson-run]');
    await page.waitForSelector('[data-testid=lesson-reply]');
    const box = await runBox(page);
    assert.ok(box.top >= -1 && box.bottom <= box.window + 1, `lesson 6: the run is in the window (${box.top}–${box.bottom})`);
    const tools = page.locator('[data-testid=lesson-reply] >> nth=1');
    assert.equal(await tools.evaluate((d) => d.open), false, 'the long tools list is folded');
    assert.match(await tools.locator('summary').textContent(), /^← #4 response id 2 result /);
    const initialize = page.locator('[data-testid=lesson-sent]', { hasText: 'request server/discover' });
    assert.equal(await initialize.evaluate((d) => d.open), false, 'a long sent message is folded too');
    for (const message of [tools, initialize]) {
      assert.ok((await message.locator('pre').textContent()).split('\n').length > 3, 'laid out on lines');
    }
    const short = await page.$$eval('[data-testid=lesson-replies] details[open] pre', (ps) => ps.map((p) => p.textContent));
    // (Every 2026-07-28 request carries _meta, so none of this lesson's is short: the loop above
    // checks the short ones of the other lessons open.)
    assert.ok(short.every((t) => !t.includes('\n') && !t.includes('": ')), short.join(' | '));
    // Opened, the tools list scrolls in a box of its own: the run still fits the window.
    await tools.locator('summary').click();
    assert.ok((await tools.locator('pre').evaluate((p) => p.getBoundingClientRect().height)) <= 260);
    assert.ok((await runBox(page)).height <= box.window);
    // Lesson 16: answered, the pending action is gone and what followed is in sight.
    await lesson(page, 16);
    await page.click('[data-testid=lesson-run]');
    await page.waitForFunction(actionInSight, null, { timeout: 3000 });
    await page.click('[data-testid=lesson-answer]');
    await page.waitForFunction(() => {
      const last = document.querySelector('[data-testid=lesson-replies] > li:last-child').getBoundingClientRect();
      const r = document.querySelector('[data-testid=lesson-run-output]').getBoundingClientRect();
      return !document.querySelector('[data-testid=lesson-answer]') && last.bottom <= r.bottom + 1 && last.top >= r.top - 1
        && last.top >= 0 && last.top < innerHeight;
    }, null, { timeout: 3000 });
    console.log(`28.5 ${screen}: runs whose content scrolls within the run's area: ${tall.join(', ') || 'none'}`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('28.6 a shared question link does not give the answer away, and old links still open', async () => {
  const { context, page, problems } = await visitor();
  await go(page, '#/quiz/rule:mcp-request-during-initialization');
  const item = await page.getAttribute('.quiz-item', 'data-item');
  const share = await page.getAttribute('[data-testid=quiz-share]', 'href');
  assert.match(share, /^#\/quiz\/q-[0-9a-f]{8}$/);
  // The page names the question by its opaque id too, never by the rule it breaks.
  assert.equal(`#/quiz/${item}`, share);
  await go(page, share);
  await page.waitForSelector('[data-testid=quiz-message]');
  assert.equal(await page.getAttribute('.quiz-item', 'data-item'), item);
  assert.deepEqual(problems, []);
  await context.close();
});

test('25.4 the input-required lesson: the tool asks, "Answer and retry" retries with the answers, the result follows', async () => {
  const { context, page, problems } = await visitor();
  for (const [n, says] of [[13, 'An automatic answer'], [14, 'Hello']]) {
    await lesson(page, n);
    await page.click('[data-testid=lesson-run]');
    await page.waitForSelector('[data-testid=lesson-retry]');
    const asked = (await page.textContent('[data-testid=lesson-reply]')).replace(/\s/g, '');
    assert.match(asked, /"resultType":"input_required"/, `lesson ${n}`);
    await page.click('[data-testid=lesson-retry]');
    // The retry goes out under a new id with inputResponses, and is answered.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=lesson-reply]').length === 2);
    const sent = (await page.$$eval('[data-testid=lesson-sent]', (ms) => ms.map((m) => m.textContent)))[1].replace(/\s/g, '');
    assert.match(sent, /"inputResponses":\{"answer":/, `lesson ${n}`);
    const done = (await page.$$eval('[data-testid=lesson-reply]', (rs) => rs.map((r) => r.textContent)))[1].replace(/\s/g, '');
    assert.match(done, /"resultType":"complete"/, `lesson ${n}`);
    assert.ok(done.includes(says.replace(/\s/g, '')), `lesson ${n}: ${done}`);
    assert.equal(await page.locator('[data-testid=lesson-retry]').count(), 0, 'answered once');
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('28.7 a request the server cancelled cannot be answered from the lesson', async () => {
  const { context, page, problems } = await visitor();
  await lesson(page, 16);
  await page.click('[data-testid=lesson-run]');
  await page.waitForSelector('[data-testid=lesson-cancelled]');
  assert.match(await page.textContent('[data-testid=lesson-cancelled]'), /sends no reply/);
  // One answer offered: for mock-1, which is still waiting; none beside the cancelled mock-2.
  assert.equal(await page.locator('[data-testid=lesson-answer]').count(), 1);
  const cancelledRow = page.locator('[data-testid=lesson-replies] > li', { has: page.locator('[data-testid=lesson-cancelled]') });
  assert.equal(await cancelledRow.locator('[data-testid=lesson-answer]').count(), 0);
  assert.match((await cancelledRow.textContent()).replace(/\s/g, ''), /"id":"mock-2"/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("28.8 \"Open the playground's log\" shows the log itself, with the lesson's run in it", async () => {
  const { context, page, problems } = await visitor();
  await lesson(page, 1);
  await page.click('[data-testid=lesson-run]');
  // The learner reads the run's reply, then opens the log (a reply landing after the log is
  // shown brings the log's newest entry into view instead, which moves its top).
  await page.waitForSelector('[data-testid=lesson-reply]');
  await page.click('[data-testid=lesson-log-link]');
  await page.waitForFunction(() => location.hash === '#/log');
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-testid=log]').getBoundingClientRect();
    return r.top < window.innerHeight && r.bottom > 0 && r.top >= -5;
  }, null, { timeout: 3000 });
  assert.match(await page.textContent('[data-testid=log]'), /subtract/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('28.9 the question reads in order: kinds first, then point (by tap too), rules taught so far, every part', async () => {
  const context = await browser.newContext({ hasTouch: true });
  const page = await context.newPage();
  const problems = await watch(page);
  await lesson(page, 1);
  const order = await page.$eval('.quiz-item', (q) =>
    [...q.querySelectorAll('.answers, [data-testid=quiz-point-step], [data-testid=quiz-point]')].map((e) => e.className || e.dataset.testid));
  assert.deepEqual(order, ['answers', 'point-step', 'quiz-point']);
  const rules = await page.$$eval('[data-testid=quiz-rule] option', (os) => os.map((o) => o.value).filter(Boolean));
  assert.ok(rules.includes('jsonrpc-not-2-0'));
  assert.ok(!rules.includes('json-lone-surrogate') && !rules.includes('id-beyond-safe-integer'), rules.join(' '));
  // Tap on the wrong part.
  await clickOn(page, '"1.0"', true);
  await page.waitForSelector('[data-testid=quiz-pointed]');
  assert.match(await page.textContent('[data-testid=quiz-pointed]'), /"jsonrpc": "1\.0"/);
  // Grammatical feedback.
  await lesson(page, 2);
  await page.click('[data-testid=quiz-answer][data-answer=request]');
  assert.match(await page.textContent('[data-testid=quiz-result]'), /Not quite: it is a notification\./);
  // The free quiz lists every rule; the nested batch's inner [ is a part.
  await go(page, '#/quiz/rule:batch-nested');
  const parts = await page.$$eval('[data-testid=quiz-point] option', (os) => os.map((o) => o.textContent));
  assert.ok(parts.some((p) => p.startsWith('[')), parts.join(' | '));
  assert.ok(await page.locator('[data-testid=quiz-rule] option[value=json-lone-surrogate]').count() === 1);
  assert.deepEqual(problems, []);
  await context.close();
});

/** What the jargon the home page had said now says in plain words. */
const JARGON = [/--skip-tool/, /--max-calls/, /NDJSON/, /Mock serves/, /conformance suite's/, /jrpc probe's checks/, /Export JSON/];

for (const [screen, options] of SCREENS) {
  test(`28.10 ${screen}: the first view and the lessons page say what this is and for whom; advanced tools folded, in plain words`, async () => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const problems = await watch(page);
    await go(page, '');
    const intro = page.locator('[data-testid=intro]');
    assert.ok(await intro.isVisible());
    assert.match(await intro.textContent(), /^A playground for JSON-RPC 2\.0.*Model Context Protocol \(MCP: how AI applications talk to tools and data servers, over JSON-RPC\)\. For developers learning them/);
    // The Probe, the mock's tool set and the log's downloads are folded under their own headings.
    for (const [fold, heading, inside] of [
      ['probe-fold', /^Advanced: check a server \(the Probe\)$/, ['probe-run']],
      ['log-advanced', /^Advanced: the mock's tools, download the log$/, ['mock-fixtures', 'export-ndjson', 'export-json']],
    ]) {
      const details = page.locator(`details[data-testid=${fold}]`);
      assert.equal(await details.evaluate((d) => d.open), false, `${fold} starts folded`);
      const summary = page.locator(`details[data-testid=${fold}] > summary`);
      assert.match(await summary.textContent(), heading);
      for (const testid of inside) assert.equal(await visible(page, testid), false, `${testid} is folded`);
      await summary.click();
      // The Probe comes from the views module, loaded on the fold's first open.
      for (const testid of inside) await page.waitForSelector(`[data-testid=${testid}]`, { state: 'visible' });
      for (const testid of inside) assert.equal(await visible(page, testid), true, `${testid} shows once opened`);
    }
    await page.click('.probe-options summary');
    const said = await page.innerText('main.playground');
    for (const word of JARGON) assert.doesNotMatch(said, word);
    assert.match(said, /Never call these tools \(their names, separated by commas\)/);
    assert.match(said, /Download the log \(a message per line\)/);
    assert.match(await page.textContent('[data-testid=mock-fixtures]'), /for learning.*the official MCP test suite's/);
    await go(page, '#/lessons');
    const lessons = await page.textContent('[data-testid=lessons-intro]');
    assert.match(lessons, /^For anyone who knows JSON/);
    assert.match(lessons, /16 short steps/);
    assert.match(lessons, /Model Context Protocol \(MCP: how AI applications talk to tools and data servers, over JSON-RPC\)/);
    assert.doesNotMatch(lessons, /Six|fifteen/);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('28: a student answering every lesson wrong first, then right, ends with all sixteen finished', async () => {
  const { context, page, problems } = await visitor();
  for (let n = 1; n <= 16; n += 1) {
    await lesson(page, n);
    const expected = await expectedOf(page);
    const choices = await page.$$eval('[data-testid=quiz-answer]', (bs) => bs.map((b) => b.dataset.answer));
    const wrong = choices.find((c) => c !== expected);
    await page.click(`[data-testid=quiz-answer][data-answer=${wrong}]`);
    assert.equal(await page.getAttribute('[data-testid=quiz-result]', 'data-correct'), 'false', `lesson ${n}`);
    await page.click('[data-testid=quiz-retry]');
    await page.click(`[data-testid=quiz-answer][data-answer=${expected}]`);
    assert.equal(await page.getAttribute('[data-testid=quiz-result]', 'data-correct'), 'true', `lesson ${n}`);
    await page.waitForSelector('[data-testid=lesson-finished]');
  }
  await go(page, '#/lessons');
  assert.equal(await page.locator('[data-testid=lesson-item][data-done=true]').count(), 16);
  assert.match(await page.textContent('[data-testid=lessons-progress]'), /All 16 finished/);
  assert.deepEqual(problems, []);
  await context.close();
});

/** The right kind of the lesson's question, read from a wrong answer's grade in a scratch page. */
async function expectedOf(page) {
  const item = await page.getAttribute('.quiz-item', 'data-item');
  const scratch = await page.context().newPage();
  await scratch.goto(BASE_URL + `#/quiz/${item}`);
  await scratch.waitForSelector('[data-testid=quiz-answer]');
  await scratch.click('[data-testid=quiz-answer] >> nth=0');
  const expected = await scratch.getAttribute('[data-testid=quiz-result]', 'data-expected');
  await scratch.close();
  return expected;
}
