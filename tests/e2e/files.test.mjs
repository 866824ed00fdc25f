// End-to-end: a recorded transcript (what `jrpc tap --transcript` and `jrpc probe --transcript`
// write) opens into the editor from the file picker or by drag-and-drop, with its verdicts; what
// is not UTF-8 text is refused with a notice and the editor keeps its text. Run alone with
//   BASE_URL=http://127.0.0.1:8080/ node --test tests/e2e/files.test.mjs
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

const editorValue = (page) => page.$eval('[data-testid=editor]', (t) => t.value);

// A transcript with one broken reply: the result and the error both.
const TRANSCRIPT = [
  '--> {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}',
  '<-- {"jsonrpc": "2.0", "result": 19, "id": 1}',
  '--> {"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}',
  '<-- {"jsonrpc": "2.0", "result": -19, "error": {"code": 1, "message": "both"}, "id": 2}',
  '',
].join('\n');

test('Open file… puts a transcript in the editor with its verdicts; Ctrl+Z brings the old text back', async () => {
  const { context, page, problems } = await openApp(browser);
  const before = await editorValue(page);
  await page.setInputFiles('[data-testid=open-file-input]', {
    name: 'session.transcript.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(TRANSCRIPT),
  });
  await page.waitForFunction((t) => document.querySelector('[data-testid=editor]').value === t, TRANSCRIPT);
  await page.waitForSelector('[data-testid=verdict][data-kind=invalid]');
  const rules = await page.$$eval('[data-testid=verdict] [data-rule]', (rs) => rs.map((r) => r.dataset.rule));
  assert.ok(rules.includes('result-and-error'), rules.join(' '));
  assert.match(await page.textContent('[data-testid=notices]'), /Opened session\.transcript\.txt/);
  await page.focus('[data-testid=editor]');
  await page.keyboard.press('Control+z');
  await page.waitForFunction((t) => document.querySelector('[data-testid=editor]').value === t, before);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a file dropped on the editor opens in it', async () => {
  const { context, page, problems } = await openApp(browser);
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'dropped.txt', { type: 'text/plain' }));
    const pane = document.querySelector('.editor-pane');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      pane.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
    }
  }, TRANSCRIPT);
  await page.waitForFunction((t) => document.querySelector('[data-testid=editor]').value === t, TRANSCRIPT);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a file that is not UTF-8 is refused with where it breaks; the editor keeps its text', async () => {
  const { context, page, problems } = await openApp(browser);
  const before = await editorValue(page);
  await page.setInputFiles('[data-testid=open-file-input]', {
    name: 'image.png',
    mimeType: 'image/png',
    buffer: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0xff, 0xfe, 0x00]),
  });
  await page.waitForFunction(() => /not UTF-8 text \(byte 4/.test(document.querySelector('[data-testid=notices]')?.textContent ?? ''));
  assert.equal(await editorValue(page), before);
  assert.deepEqual(problems, []);
  await context.close();
});
