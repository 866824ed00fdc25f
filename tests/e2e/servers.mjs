// Real servers for the live-link tests (tests/e2e/link.test.mjs): the jsonrpsee test server, the
// misbehaving server (both cargo examples) and `jrpc serve --ws/--http`, all built by `cargo test`
// into target/debug. Each binds 127.0.0.1 only, says where it listens on its first stderr line,
// and stops by itself (--exit-after) if the test run dies without killing it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TARGET = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(ROOT, 'target');
/** Seconds a server lives at most. */
const LIFETIME = '600';

export const BIN = {
  jsonrpsee: join(TARGET, 'debug', 'examples', 'jsonrpsee_server'),
  misbehaving: join(TARGET, 'debug', 'examples', 'misbehaving_server'),
  jrpc: join(TARGET, 'debug', 'jrpc'),
};

/**
 * Starts `program args`, waits (at most 20 s) for its banner line on stderr and returns
 * `{ banner, urls, stop }` where `urls` are the banner's `ws://` and `http://` URLs in order.
 */
export function start(program, args = []) {
  if (!existsSync(program)) {
    throw new Error(`${program} is missing: build it first (cargo test, or cargo build --examples --bin jrpc)`);
  }
  const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const banner = new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${program}: no banner after 20 s: ${stderr}`)), 20_000);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const nl = stderr.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        ok(stderr.slice(0, nl));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${program} exited (${code}) before its banner: ${stderr}`));
    });
  });
  return banner.then((line) => ({
    banner: line,
    urls: [...line.matchAll(/(?:ws|http):\/\/[0-9.]+:\d+/g)].map((m) => m[0]),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  }));
}

/** The jsonrpsee test server: `{ ws, http, stop }` (one port, both transports). */
export async function jsonrpsee(args = []) {
  const s = await start(BIN.jsonrpsee, ['--exit-after', LIFETIME, ...args]);
  return { ...s, ws: s.urls.find((u) => u.startsWith('ws:')), http: s.urls.find((u) => u.startsWith('http:')) };
}

/** The misbehaving server: `{ ws, refused, http, stop }` (`http`: its HTTP endpoint, faults by method). */
export async function misbehaving() {
  const s = await start(BIN.misbehaving, ['--exit-after', LIFETIME]);
  return { ...s, ws: s.urls[0], refused: s.urls[1], http: s.urls[2] };
}

/** `jrpc serve --ws 127.0.0.1:0 --http 127.0.0.1:0`: `{ ws, http, stop }`. */
export async function jrpcServe() {
  const s = await start(BIN.jrpc, ['serve', '--ws', '127.0.0.1:0', '--http', '127.0.0.1:0', '--exit-after', LIFETIME]);
  return { ...s, ws: s.urls.find((u) => u.startsWith('ws:')), http: s.urls.find((u) => u.startsWith('http:')) };
}
