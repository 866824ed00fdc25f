// Shared by the browser benchmarks (scripts/bench-*.mjs): a static server for dist/, the
// generated inputs and a quantile. Not a test.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

/** Serves `dir` on 127.0.0.1 (a free port); resolves to { url, close }. */
export async function serveDist(dir) {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    try {
      const body = await readFile(join(dir, path === '/' ? 'index.html' : path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/html' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
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
