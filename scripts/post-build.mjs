// Trunk's post_build hook for release builds (Trunk.toml [[hooks]]): shrinks what wasm-bindgen
// leaves behind, then puts the page's Subresource Integrity hashes right again.
//   1. The wasm's imports are named `__wbg_<name>_<16 hex digits>` (~235 of them, ~4.7 KB gzipped in
//      the wasm and as much again in the JS glue: hex digits do not compress). Each becomes a short
//      name, in the wasm's import section and in the glue's import object alike.
//   2. The glue is minified with terser (Trunk's own JS minifier gives up on it).
//   3. The page's own small scripts (boot, service worker, checking worker, probe loader) are
//      minified too.
//   4. index.html carries sha384 hashes of these files: the old hashes are replaced by the new ones.
//   5. The worker binaries (Trunk's data-type="worker": probe-worker) get 1 and 2 as well, and
//      hashed names like the page's files (Trunk leaves them unhashed); so does the Probe's loader
//      (worker-boot.js). <meta name="app-entry"> (data-lazy-*) names the new files.
//      The teaching views' module (later-views, loaded on the main thread by boot.js) also gets
//      its files' SRI hashes in <meta name="app-entry" data-views-integrity-js/-wasm>.
//   6. The teaching text (teaching.json) is made compact, gets a hashed name, and its SRI hash in
//      <meta name="app-entry" data-teaching-integrity>; so do the examples' texts (library.txt,
//      without its header comment; data-examples-integrity).
// Debug builds (trunk serve) are left alone.
//   node scripts/post-build.mjs [DIR]    (default: $TRUNK_STAGING_DIR; for trying it on a dist/)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minify } from 'terser';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) fail('no directory: run by Trunk (TRUNK_STAGING_DIR) or give one');
if (!process.argv[2] && process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const files = readdirSync(dir);
const htmlPath = join(dir, 'index.html');
const html = readFileSync(htmlPath, 'utf8');
// The page's wasm has a hashed name (jsonrpc-playground-<hash>_bg.wasm); a worker binary's has
// not (Trunk names it after the binary, e.g. probe-worker_bg.wasm): this hook hashes it.
const wasmNames = files.filter((f) => f.endsWith('_bg.wasm'));
const mainWasm = one(wasmNames.filter((f) => /-[0-9a-f]{8,}_bg\.wasm$/.test(f)), 'hashed *_bg.wasm (the page\'s)');
const workerWasms = wasmNames.filter((f) => f !== mainWasm);

const changed = [];
const written = [];
let page = html;
const report = [];
for (const wasmName of [mainWasm, ...workerWasms]) {
  const jsName = one(files.filter((f) => f === wasmName.replace(/_bg\.wasm$/, '.js')), `the glue of ${wasmName}`);
  const wasm = readFileSync(join(dir, wasmName));
  const js = readFileSync(join(dir, jsName), 'utf8');
  const { bytes: newWasm, renamed } = renameImports(wasm, wasmName);
  let glue = js;
  for (const [long, short] of renamed) {
    const uses = glue.split(long).length - 1;
    if (uses !== 1) fail(`import ${long} appears ${uses} times in ${jsName} (expected once, as its key)`);
    glue = glue.replace(`${long}:`, `${short}:`);
  }
  const min = await minify(glue, { module: true, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  if (!min.code) fail(`terser returned nothing for ${jsName}`);
  report.push(`${wasmName}: ${renamed.size} imports renamed, ${wasm.length} -> ${newWasm.length} B; ${jsName} ${js.length} -> ${min.code.length} B`);
  if (wasmName === mainWasm) {
    changed.push([wasm, newWasm], [Buffer.from(js), Buffer.from(min.code)]);
    written.push([wasmName, newWasm], [jsName, min.code]);
  } else {
    // A worker's files are named in <meta name="app-entry"> (data-lazy-*): new names with a hash
    // of the content, so that a cache never serves an old build's worker to a new page.
    const base = jsName.replace(/\.js$/, '');
    const hash = contentHash(newWasm, min.code);
    const [newJs, newWasmName] = [`${base}-${hash}.js`, `${base}-${hash}_bg.wasm`];
    page = renameIn(page, jsName, newJs);
    page = renameIn(page, wasmName, newWasmName);
    // The teaching views' module is loaded on the main thread (src/web/js/boot.js): with SRI.
    if (base === 'later-views') {
      const attribute = 'data-lazy-views-js=';
      if (page.split(attribute).length !== 2) fail(`index.html names ${attribute} not once`);
      page = page.replace(attribute, `data-views-integrity-js="${sri(Buffer.from(min.code))}" data-views-integrity-wasm="${sri(newWasm)}" ${attribute}`);
    }
    unlinkSync(join(dir, jsName));
    unlinkSync(join(dir, wasmName));
    written.push([newWasmName, newWasm], [newJs, min.code]);
  }
}

// boot-<hash>.js is loaded with an integrity hash; sw.js and check-worker.js are fetched by name;
// a worker's loader (worker-boot.js) is named in <meta name="app-entry"> and gets a hashed name.
const small = files.filter((f) => /^boot-[0-9a-f]+\.js$/.test(f) || ['sw.js', 'check-worker.js', 'worker-boot.js'].includes(f));
const minified = [];
for (const name of small) {
  const source = readFileSync(join(dir, name), 'utf8');
  const out = await minify(source, { module: name.startsWith('boot-'), compress: true, mangle: true, format: { comments: false } });
  if (!out.code) fail(`terser returned nothing for ${name}`);
  minified.push(name);
  if (name.startsWith('boot-')) changed.push([Buffer.from(source), Buffer.from(out.code)]);
  if (name === 'worker-boot.js') {
    const hashed = `worker-boot-${contentHash(out.code)}.js`;
    page = renameIn(page, name, hashed);
    unlinkSync(join(dir, name));
    written.push([hashed, out.code]);
  } else {
    written.push([name, out.code]);
  }
}
// The build's data files, fetched by the page with their SRI hash: the teaching text
// (engine/src/teach/teaching.json, src/web/kit/teaching.rs, on the first open of the reference,
// lessons or quiz) as compact JSON, and the examples' texts (engine/src/examples/library.txt,
// src/web/page/playground/library.rs, on the first pick from the Examples menu) without the header
// comment that describes the format. Each gets a hashed name like the workers' files and its hash
// in <meta name="app-entry" data-NAME-integrity>.
for (const [name, lazy, integrity, compact] of [
  ['teaching.json', 'data-lazy-teaching=', 'data-teaching-integrity', (text) => JSON.stringify(JSON.parse(text))],
  ['library.txt', 'data-lazy-examples=', 'data-examples-integrity', (text) => text.slice(Math.max(0, text.search(/^=== /m)))],
]) {
  if (!files.includes(name)) fail(`no ${name} in ${dir} (index.html copies it)`);
  const content = compact(readFileSync(join(dir, name), 'utf8'));
  const [stem, ext] = name.split('.');
  const hashed = `${stem}-${contentHash(content)}.${ext}`;
  page = renameIn(page, name, hashed);
  if (page.split(lazy).length !== 2) fail(`index.html names ${lazy} not once`);
  page = page.replace(lazy, `${integrity}="${sri(Buffer.from(content))}" ${lazy}`);
  unlinkSync(join(dir, name));
  written.push([hashed, content]);
  minified.push(name);
}
for (const [before, after] of changed) {
  const old = sri(before);
  if (!page.includes(old)) fail(`index.html has no integrity ${old}`);
  page = page.split(old).join(sri(after));
}
for (const [name, content] of written) writeFileSync(join(dir, name), content);
writeFileSync(htmlPath, page);
console.log(`post-build: ${report.join('; ')}; minified ${minified.join(', ')}`);

/** `page` with the file name `from` (a whole attribute value's last part) replaced by `to`. */
function renameIn(text, from, to) {
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(?<=[=/"'])${escaped}(?=["'\\s>])`, 'g');
  const uses = (text.match(pattern) ?? []).length;
  if (uses !== 1) fail(`index.html names ${from} ${uses} times (expected once, in <meta name="app-entry">)`);
  return text.replace(pattern, to);
}

/** 16 hex digits of the sha384 of the given contents. */
function contentHash(...parts) {
  const h = createHash('sha384');
  for (const part of parts) h.update(part);
  return h.digest('hex').slice(0, 16);
}

function sri(bytes) {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

function one(list, what) {
  if (list.length !== 1) fail(`expected exactly one ${what} in ${dir}, found ${list.length}`);
  return list[0];
}

function fail(message) {
  console.error(`post-build: ${message}`);
  process.exit(1);
}

// Rewrites the import section (id 2) of a wasm module: every function import from the glue module
// whose name starts with `__wbg` gets a short name. Returns the new bytes and the map long -> short.
function renameImports(bytes, wasmName) {
  if (bytes.readUInt32LE(0) !== 0x6d736100) fail(`${wasmName} is not a wasm module`);
  const renamed = new Map();
  const out = [bytes.subarray(0, 8)];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, body] = uleb(bytes, at + 1);
    const end = body + size;
    if (id !== 2) {
      out.push(bytes.subarray(at, end));
    } else {
      const section = importSection(bytes.subarray(body, end), renamed, wasmName);
      out.push(Buffer.from([2]), encodeUleb(section.length), section);
    }
    at = end;
  }
  if (at !== bytes.length) fail(`${wasmName}: a section runs past the end`);
  return { bytes: Buffer.concat(out), renamed };
}

function importSection(section, renamed, wasmName) {
  const parts = [];
  let [count, at] = uleb(section, 0);
  parts.push(encodeUleb(count));
  const name = () => {
    const [len, from] = uleb(section, at);
    at = from + len;
    return section.subarray(from, at).toString('utf8');
  };
  const text = (s) => {
    const b = Buffer.from(s, 'utf8');
    return Buffer.concat([encodeUleb(b.length), b]);
  };
  for (let i = 0; i < count; i++) {
    const module = name();
    const field = name();
    const descStart = at;
    at = skipImportDesc(section, at, wasmName);
    let newField = field;
    if (module.endsWith('_bg.js') && field.startsWith('__wbg')) {
      newField = shortName(renamed.size);
      renamed.set(field, newField);
    }
    parts.push(text(module), text(newField), section.subarray(descStart, at));
  }
  if (at !== section.length) fail(`${wasmName}: the import section has ${section.length - at} bytes left over`);
  return Buffer.concat(parts);
}

// Past one import description: func (typeidx), table (reftype limits), memory (limits), global.
function skipImportDesc(b, at, wasmName) {
  const kind = b[at++];
  const limits = (p) => {
    const flags = b[p++];
    p = uleb(b, p)[1];
    if (flags & 1) p = uleb(b, p)[1];
    return p;
  };
  switch (kind) {
    case 0: return uleb(b, at)[1];
    case 1: return limits(at + 1);
    case 2: return limits(at);
    case 3: return at + 2;
    default: fail(`${wasmName}: import kind ${kind} is not known`);
  }
}

// `$0`, `$1`, … `$z`, `$10`, …: valid JS property names that clash with no `__wbg…` or `__wbindgen…` name.
function shortName(n) {
  return `$${n.toString(36)}`;
}

function uleb(b, at, wasmName = 'a wasm') {
  let result = 0;
  let shift = 0;
  for (;;) {
    const byte = b[at++];
    if (byte === undefined) fail(`${wasmName}: truncated number`);
    result += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [result, at];
  }
}

function encodeUleb(n) {
  const out = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
}
