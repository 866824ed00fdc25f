// End-to-end: the site as a static teaching site. The one release build (`trunk build
// --release`, relative asset URLs: Trunk.toml public_url = "./") is copied to <tmp>/some/path/ and
// <tmp> is served by a plain static server: every view renders by URL fragment (no rewrites),
// nothing is fetched outside the sub-path, and after the first load the site works with the
// network cut (the service worker, src/web/js/sw.js).
//
// SUBPATH_DIST names the build to serve (scripts/test.sh: dist); without it this test makes the
// release build itself into target/dist-static (trunk, from the repository root).
//   node --test tests/e2e/static.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './support.mjs';

const SUB = '/some/path/';
let browser;
let root;

before(async () => {
  let dist = process.env.SUBPATH_DIST;
  if (!dist) {
    dist = 'target/dist-static';
    const built = spawnSync('trunk', ['build', '--release', '--dist', dist], { stdio: 'inherit' });
    assert.equal(built.status, 0, 'trunk build --release');
  }
  root = mkdtempSync(join(tmpdir(), 'jrpc-static-'));
  mkdirSync(join(root, SUB), { recursive: true });
  cpSync(dist, join(root, SUB), { recursive: true });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A plain static server of <tmp> (the same one scripts/test.sh uses), stopped by `stop()`. */
/** Serves `dir` (default: the tree holding the build at SUB) on a free port; its URL is `sub` in it. */
async function serve(dir = root, sub = SUB) {
  const port = await freePort();
  const py = '/usr/bin/python3';
  const server = spawn(py, ['-m', 'http.server', '--bind', '127.0.0.1', String(port), '--directory', dir], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}${sub}`;
  for (let i = 0; i < 50; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = () => new Promise((resolve) => {
    if (server.exitCode !== null) return resolve();
    server.once('exit', resolve);
    server.kill();
  });
  return { url, stop };
}

/** A fresh context whose page records console errors, page errors and failed requests. */
async function visitor() {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()} ${r.url()}`));
  return { context, page, problems };
}

test('the build names every file relative to the page, so one dist/ serves any path', () => {
  const html = readFileSync(join(root, SUB, 'index.html'), 'utf8');
  // The release HTML is minified: attribute values may be quoted or bare.
  const refs = [...html.matchAll(/\s(?:href|src|data-js|data-wasm|data-worker)=(?:"([^"]+)"|([^\s">]+))/g)]
    .map((m) => m[1] ?? m[2])
    .filter((r) => !r.startsWith('data:'));
  assert.ok(refs.length >= 5, refs.join(' '));
  for (const ref of refs) assert.ok(ref.startsWith('./'), `${ref} is not relative`);
});

test('a page whose files are missing says so, not a blank page', async () => {
  // index.html alone, none of its files: the static message stays and explains after a while.
  const bare = mkdtempSync(join(tmpdir(), 'jrpc-bare-'));
  cpSync(join(root, SUB), join(bare, 'css-only'), { recursive: true, filter: (p) => !/\.(js|wasm)$/.test(p) });
  const server = await serve(join(bare, 'css-only'), '/');
  const { context, page } = await visitor();
  await page.goto(server.url);
  const status = page.locator('[data-testid=boot-status]');
  assert.match(await status.textContent(), /Loading the JSON-RPC playground/);
  await page.locator('.boot-slow').waitFor({ state: 'visible', timeout: 15_000 });
  await context.close();
  await server.stop();
  rmSync(bare, { recursive: true, force: true });
});

test('served under a sub-path: every view renders by fragment, with no rewrite', async () => {
  const server = await serve();
  const { context, page, problems } = await visitor();
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=verdict][data-kind=request]');
  const views = [
    ['#/reference', '[data-testid=reference] [data-testid=rule-entry]'],
    ['#/reference/batch-empty', '[data-testid=rule-entry][data-rule=batch-empty].focused'],
    ['#/quiz', '[data-testid=quiz] .quiz-item'],
    // An older link by the item's own id opens it; the page names it by its opaque id.
    ['#/quiz/own:update', '[data-testid=quiz] .quiz-item[data-item="q-c475418e"]'],
    ['#/lessons', '[data-testid=lessons] [data-testid=lesson-link]'],
    ...Array.from({ length: 16 }, (_, i) => i + 1).map((n) => [`#/lessons/${n}`, '[data-testid=lesson]']),
    ['#/', '[data-testid=editor]'],
  ];
  for (const [fragment, selector] of views) {
    // A fresh load of each view's address, as a visitor's bookmark would be.
    await page.goto(server.url + fragment);
    await page.reload();
    await page.waitForSelector(selector, { state: 'visible' });
    assert.equal(new URL(page.url()).pathname, SUB, fragment);
  }
  // "Try it" from the reference lands in the playground.
  await page.goto(`${server.url}#/reference/jsonrpc-not-2-0`);
  await page.click('[data-rule=jsonrpc-not-2-0] [data-testid=try-bad]');
  await page.waitForSelector('[data-testid=violation][data-rule=jsonrpc-not-2-0]');
  assert.deepEqual(problems, []);
  await context.close();
  await server.stop();
});

/** The paths the service worker's cache holds. */
function cachedPaths(page) {
  return page.evaluate(async () => {
    const cache = await caches.open((await caches.keys())[0]);
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  });
}

test('after the first load the site works offline (network cut, then reload)', async () => {
  const server = await serve();
  const { context, page, problems } = await visitor();
  await page.goto(`${server.url}#/lessons/1`);
  await page.waitForSelector('[data-testid=lesson]');
  // The service worker is installed (its cache filled) and controls the page.
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  assert.equal(new URL(scope).pathname, SUB);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // An online reload goes through the worker (network first); the cache keeps this build's files
  // and drops what an older build named.
  await page.evaluate(async (sub) => {
    const cache = await caches.open((await caches.keys())[0]);
    await cache.put(`${sub}jsonrpc-playground-0ld_bg.wasm`, new Response('stale'));
  }, SUB);
  await page.reload();
  await page.waitForSelector('[data-testid=lesson]');
  let cached = await cachedPaths(page);
  for (let i = 0; i < 50 && cached.some((p) => p.includes('0ld')); i++) {
    await new Promise((r) => setTimeout(r, 100));
    cached = await cachedPaths(page);
  }
  assert.ok(!cached.some((p) => p.includes('0ld')), `an older build's file is dropped: ${cached.join(' ')}`);
  assert.ok(cached.includes(SUB), cached.join(' '));
  assert.ok(cached.some((p) => p.startsWith(SUB) && p.endsWith('_bg.wasm')), cached.join(' '));
  assert.ok(cached.some((p) => p.endsWith('.css')) && cached.some((p) => p.endsWith('.js')), cached.join(' '));

  await context.setOffline(true);
  await server.stop();
  assert.equal(await fetch(server.url).then(() => 'up', () => 'down'), 'down', 'the server is gone');
  await page.reload();
  await page.waitForSelector('[data-testid=lesson]');
  await page.click('[data-testid=lesson-run]');
  await page.waitForSelector('[data-testid=lesson-reply]');
  assert.match(await page.textContent('[data-testid=lesson-reply]'), /"result":19/);
  // A new page of the same site, offline from its first request.
  const other = await context.newPage();
  await other.goto(`${server.url}#/quiz`);
  await other.waitForSelector('[data-testid=quiz] .quiz-item');
  await other.goto(`${server.url}#/`);
  await other.waitForSelector('[data-testid=verdict]');
  assert.deepEqual(problems, []);
  await context.close();
});
