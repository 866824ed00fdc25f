// Takes the README's screenshot (docs/screenshot.png) of the release build: the main view with
// verdicts showing, in the light theme, at a laptop-sized viewport.
//   trunk build --release && (serve dist/) && BASE_URL=http://127.0.0.1:8080/ node scripts/screenshot.mjs [OUT]
import { BASE_URL, launch } from '../tests/e2e/support.mjs';

const OUT = process.argv[2] ?? 'docs/screenshot.png';

const MESSAGES = [
  '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}',
  '{"jsonrpc": "2.0", "method": "update", "params": [1, 2, 3, 4, 5]}',
  '{"jsonrpc": "1.0", "method": "sum", "params": [1, 2], "id": 2.5}',
  '[1, {"jsonrpc": "2.0", "result": 19, "id": 1}]',
].join('\n');

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 720 }, colorScheme: 'light' });
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  await page.fill('[data-testid=editor]', MESSAGES);
  await page.waitForSelector('[data-testid=violation]');
  await page.locator('[data-testid=editor]').blur();
  await page.waitForTimeout(300);
  await page.screenshot({ path: OUT });
  console.log(`screenshot: ${OUT}`);
} finally {
  await browser.close();
}
