// Shared by the browser benchmarks (scripts/bench-*.mjs): a static server for dist/, the
// generated inputs and a quantile. Not a test.
import { createServer } from 'node:http';
import { readFile, readdir } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

/** Every file under `dir` (dot-entries such as Trunk's `.stage` left out) gzipped once at level 9,
 * as `gzip -9` and `scripts/size.sh` do: a map from its URL path ("/x.js") to the bytes. */
async function gzipped(dir) {
  const files = new Map();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath ?? entry.path, entry.name);
    const rel = relative(dir, path);
    if (!entry.isFile() || rel.split(/[\\/]/).some((part) => part.startsWith('.'))) continue;
    files.set(`/${rel.split(/[\\/]/).join('/')}`, gzipSync(await readFile(path), { level: 9 }));
  }
  return files;
}

/** One shared network link in front of the server: each response waits `latencyMs`, then its body
 * goes out in 16 KB chunks paced so that all responses together never pass `bytesPerSecond`
 * (chunks take turns in the order they are ready). Unlike the browser's own network emulation,
 * which shapes only the page's requests, it shapes every request alike: the page's, its workers'
 * and its service worker's. */
function link({ latencyMs, bytesPerSecond }) {
  let freeAt = 0;
  const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
  return async (res, body) => {
    await sleep(latencyMs);
    for (let at = 0; at < body.length; at += 16 * 1024) {
      const chunk = body.subarray(at, at + 16 * 1024);
      const start = Math.max(performance.now(), freeAt);
      freeAt = start + (chunk.length / bytesPerSecond) * 1000;
      await sleep(freeAt - performance.now());
      if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
    }
    res.end();
  };
}

/** Serves `dir` on 127.0.0.1 (a free port); resolves to { url, close, gzipBytes }. With `gzip`, every
 * file is compressed once at start and sent `Content-Encoding: gzip`, as static hosts serve it
 * (`gzipBytes` their total); otherwise files are read and sent as they are. With `shaped`
 * ({ latencyMs, bytesPerSecond }), every response goes through one shared link of that speed. */
export async function serveDist(dir, { gzip = false, shaped = null } = {}) {
  const packed = gzip ? await gzipped(dir) : null;
  const send = shaped ? link(shaped) : (res, body) => res.end(body);
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const file = path === '/' ? '/index.html' : path;
    const type = TYPES[extname(file)] ?? 'text/html';
    if (packed) {
      const body = packed.get(file);
      if (!body) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip', 'content-length': body.length, vary: 'accept-encoding' });
      return send(res, body);
    }
    try {
      const body = await readFile(join(dir, file));
      res.writeHead(200, { 'content-type': type });
      await send(res, body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const gzipBytes = packed ? [...packed.values()].reduce((sum, body) => sum + body.length, 0) : null;
  const close = () => {
    server.close();
    server.closeAllConnections();
  };
  return { url: `http://127.0.0.1:${server.address().port}/`, close, gzipBytes };
}

/** The seven kinds of line the inputs cycle through: requests, notifications, responses, a
 * JSON-RPC 1.0 message with a fractional id, an error response, a batch with an invalid element. */
function message(i) {
  return [
    `{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": ${i}, "subtrahend": 23}, "id": ${i}}`,
    `{"jsonrpc": "2.0", "method": "update", "params": [1, 2, 3, 4, 5]}`,
    `{"jsonrpc": "2.0", "result": ["hello", ${i}], "id": "${i}"}`,
    `{"jsonrpc": "1.0", "method": "get_data", "id": ${i}.5}`,
    `{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": ${i}}`,
    `[{"jsonrpc": "2.0", "method": "sum", "params": [1, 2, 4], "id": "${i}"}, {"foo": "boo"}]`,
    `{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}`,
  ][i % 7];
}

/** About `bytes` of newline-separated messages (a stream, one message per line). */
export function documentOf(bytes) {
  const lines = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = message(i);
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** About `bytes` as ONE JSON document: a batch (array) of the same mixed messages, one per line
 * (nested batches flattened into their elements so it stays a valid batch of objects). */
export function batchOf(bytes) {
  const items = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const m = message(i);
    const item = m.startsWith('[') ? m.slice(1, -1) : m;
    items.push(item);
    size += item.length + 2;
  }
  return `[\n${items.join(',\n')}\n]`;
}

export const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** One element of the invalid-heavy mix: every seventh message is broken, each time by a
 * different rule family (both result and error, "1.0", method not a string, error code a string,
 * a fractional id, params a string, a missing jsonrpc), the rest valid with nested params and
 * exponent numbers. */
function invalidHeavy(i) {
  const broken = [
    `{"jsonrpc": "2.0", "result": {"ok": true}, "error": {"code": -32000, "message": "both"}, "id": ${i}}`,
    `{"jsonrpc": "1.0", "method": "get_data", "params": {"q": [1, 2.5e3, -4]}, "id": ${i}}`,
    `{"jsonrpc": "2.0", "method": ${i}, "params": [1, 2], "id": ${i}}`,
    `{"jsonrpc": "2.0", "error": {"code": "-32601", "message": "Method not found"}, "id": ${i}}`,
    `{"jsonrpc": "2.0", "method": "sum", "params": [1, 2], "id": ${i}.25}`,
    `{"jsonrpc": "2.0", "method": "echo", "params": "text ${i}", "id": ${i}}`,
    `{"method": "notify", "params": {"n": ${i}}}`,
  ];
  if (i % 7 === 3) return broken[(i / 7 | 0) % broken.length];
  return [
    `{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "search", "arguments": {"query": "q${i}", "filters": {"from": 1.5e2, "to": 3E+4, "tags": ["a", "b"]}}}, "id": ${i}}`,
    `{"jsonrpc": "2.0", "result": {"content": [{"type": "text", "text": "r${i}"}], "isError": false}, "id": ${i}}`,
    `{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t${i}", "progress": ${i % 100}, "total": 100}}`,
  ][i % 3];
}

/** One element of the string-heavy mix: long strings with non-ASCII text and escapes. */
function stringHeavy(i) {
  const text = `Grüße, ${i}: «日本語のテキスト» — emoji 🚀✨, tab\\t, quote \\"x\\", newline\\n, \\u00e9\\u4e2d\\ud83d\\ude00 `.repeat(4);
  return i % 2
    ? `{"jsonrpc": "2.0", "method": "log", "params": {"level": "info", "message": "${text}", "logger": "app/${i}"}}`
    : `{"jsonrpc": "2.0", "result": {"content": [{"type": "text", "text": "${text}"}]}, "id": "s-${i}"}`;
}

/** One element of the deep mix: params nested 20 to 60 levels (arrays and objects alternating). */
function deep(i) {
  const depth = 20 + (i * 7) % 41;
  let value = `{"leaf": ${i}, "s": "v${i}"}`;
  for (let d = 0; d < depth; d++) value = d % 2 ? `{"k${d}": ${value}, "n": ${d}}` : `[${value}, ${d}]`;
  return `{"jsonrpc": "2.0", "method": "deep", "params": {"tree": ${value}}, "id": ${i}}`;
}

/** A batch of about `bytes` whose elements `element(i)` makes. */
function batchFrom(element, bytes) {
  const items = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const item = element(i);
    items.push(item);
    size += item.length + 2;
  }
  return `[\n${items.join(',\n')}\n]`;
}

/** The four ~1 MB batches the browser benchmark compares on: valid-heavy (the original mix),
 * invalid-heavy, string-heavy and deep. */
export function mixes(bytes = 1_000_000) {
  return {
    'valid-heavy': batchOf(bytes),
    'invalid-heavy': batchFrom(invalidHeavy, bytes),
    'string-heavy': batchFrom(stringHeavy, bytes),
    deep: batchFrom(deep, bytes),
  };
}
