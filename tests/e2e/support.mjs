// What every end-to-end test and browser script shares: where the app is served, and how to start
// the machine's Chromium (never a downloaded browser) with the flags this closed network needs.
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Headless Chromium from /usr/bin (or $CHROMIUM). */
export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** Records `page`'s console errors, page errors and CSP violations into the returned array. */
export async function watch(page) {
  const problems = [];
  page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return problems;
}

/** A fresh context (no service worker unless `worker`) and a page (not navigated yet) recording
 * its problems and the requests whose path matches `files` (`fetched`, in order). */
export async function visitor(browser, files, { worker = false } = {}) {
  const context = await browser.newContext({ serviceWorkers: worker ? 'allow' : 'block' });
  const page = await context.newPage();
  const problems = await watch(page);
  const fetched = [];
  page.on('request', (r) => files.test(new URL(r.url()).pathname) && fetched.push(r.url()));
  return { context, page, problems, fetched };
}

/** Waits until the service worker's cache holds a file whose URL matches each of `patterns`
 * (regular expressions' sources: they cross into the page as text). */
export async function waitForCached(page, ...patterns) {
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await page.waitForFunction(async (sources) => {
    const names = await caches.keys();
    if (names.length === 0) return false;
    const urls = (await (await caches.open(names[0])).keys()).map((r) => r.url);
    return sources.every((source) => urls.some((u) => new RegExp(source).test(u)));
  }, patterns);
}

/** Opens the playground's folded "Advanced" sections (the Probe; the mock's tools and the log's
 * downloads) as a visitor does, by clicking their headings; those already open stay open. */
export async function openAdvanced(page) {
  for (const summary of await page.$$('details.advanced:not([open]) > summary')) await summary.click();
  // The Probe comes from the views module, loaded on the fold's first open.
  if (await page.$('details[data-testid=probe-fold][open]')) await page.waitForSelector('[data-testid=probe-run]');
}

/** A fresh context (its own storage, downloads accepted) and a page on the app with the sample
 * checked, its problems recorded by `watch`. */
export async function openApp(browser) {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const problems = await watch(page);
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  return { context, page, problems };
}

/** The app in a context without its service worker (whose fetches Playwright neither sees nor
 * routes), so that every file the page and its workers fetch is seen (`fetched`, in order). */
export async function openUncached(browser) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const problems = await watch(page);
  const fetched = [];
  context.on('request', (request) => fetched.push(request.url()));
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-testid=verdict]');
  return { context, page, problems, fetched };
}

/** The log's entries as shown (`data-testid=log-entry`), oldest first: their data attributes,
 * text, frame problem and raw text. */
export const entries = (page) =>
  page.$$eval('[data-testid=log-entry]', (es) =>
    es.map((e) => ({
      key: e.dataset.key,
      direction: e.dataset.direction,
      kind: e.dataset.kind,
      status: e.dataset.status,
      pair: e.dataset.pair ?? null,
      latency: e.dataset.latencyMs ?? null,
      text: e.textContent,
      problem: e.querySelector('[data-testid=log-problem]')?.textContent ?? null,
      raw: e.querySelector('[data-testid=log-raw]').textContent,
    })),
  );
