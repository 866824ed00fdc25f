#!/usr/bin/env node
// Finds import circles between the modules of each crate: sibling modules that use each other,
// directly or around a longer loop (`rpc::catalogue` uses `rpc::rules`, which uses
// `rpc::catalogue`). One owner per concern means the shared piece sits a level below both.
//
// Usage: node scripts/module-cycles.mjs [CRATE_SRC_DIR…]   (default: every crate of the workspace)
// Prints each circle and exits 1 when there is one; exits 0 and says so when there is none.
//
// What it reads: `crate::…`, `super::…` and `self::…` paths (in `use` items, braces expanded, and
// inline), outside `//` comments, resolved to the longest module of the same crate they name. Paths
// through a `pub use` re-export count where the re-export lives.
//
// At every level a module stands for itself and everything below it: a use from `a::x::y` of
// `b::z` is an arrow `a → b` between the siblings `a` and `b` (their nearest common parent's
// children), so a loop that goes through a module's child (`a` uses `b`, `b` uses `a::x`) is a
// circle between `a` and `b`. A module using its own ancestor or descendant is how modules nest
// (a child using its parent's types, a parent declaring its children) and is no arrow.
//
// A module may also say that some of its children never use each other, in a line of its own
// text: `//! Apart (scripts/module-cycles.mjs): page, views, workers.` Any arrow between two of
// them is reported and fails as a circle does (the web app's rooms by where their code runs).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

const roots = process.argv.length > 2
  ? process.argv.slice(2)
  : ["engine/json/src", "engine/check/src", "engine/src", "src"];

/** Every `.rs` file under `dir`. */
function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (name.endsWith(".rs")) out.push(path);
  }
  return out;
}

/** `a/b/mod.rs` → ["a", "b"]; `a/b.rs` → ["a", "b"]; `lib.rs`/`main.rs` → []. */
function modulePath(root, file) {
  const parts = relative(root, file).split(sep);
  const last = parts.pop().replace(/\.rs$/, "");
  if (parts.length === 0 && (last === "lib" || last === "main")) return [];
  if (last !== "mod") parts.push(last);
  return parts;
}

/** `use` trees with braces expanded: `super::{a, b::{c, d}}` → super::a, super::b::c, super::b::d. */
function expand(tree) {
  tree = tree.replace(/\s+/g, "");
  const open = tree.indexOf("{");
  if (open < 0) return [tree];
  const prefix = tree.slice(0, open);
  let depth = 0;
  let start = open + 1;
  const items = [];
  for (let i = open; i < tree.length; i++) {
    if (tree[i] === "{") depth++;
    else if (tree[i] === "}") {
      depth--;
      if (depth === 0) {
        items.push(tree.slice(start, i));
        break;
      }
    } else if (tree[i] === "," && depth === 1) {
      items.push(tree.slice(start, i));
      start = i + 1;
    }
  }
  return items.filter(Boolean).flatMap((item) => expand(prefix + item));
}

/**
 * `text` with its comments dropped and every string and character literal emptied, so that
 * neither a `//` inside a string (`"http://…"`) nor a quote inside a character (`'"'`) or a
 * comment hides or invents a path.
 */
function codeOnly(text) {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      while (i < n && text[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === "/" && text[i + 1] === "*") (depth++, (i += 2));
        else if (text[i] === "*" && text[i + 1] === "/") (depth--, (i += 2));
        else i++;
      }
      out += " ";
    } else if ((c === "r" || (c === "b" && next === "r")) && /^b?r#*"/.test(text.slice(i, i + 260)) &&
      !/\w/.test(text[i - 1] ?? "")) {
      const m = /^b?r(#*)"/.exec(text.slice(i, i + 260));
      const close = `"${m[1]}`;
      const end = text.indexOf(close, i + m[0].length);
      i = end < 0 ? n : end + close.length;
      out += '""';
    } else if (c === '"') {
      i++;
      while (i < n && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
      out += '""';
    } else if (c === "'") {
      // A character ('x', '\n', '\'', '\u{1F600}') or a lifetime ('a, 'static).
      const m = /^'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'/u.exec(text.slice(i, i + 16));
      if (m) {
        i += m[0].length;
        out += "' '";
      } else {
        out += c;
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The module paths `text` (a file of module `here`) refers to, as arrays of names. */
function references(text, here) {
  const code = codeOnly(text);
  const paths = [];
  for (const m of code.matchAll(/\buse\s+([^;]+);/g)) paths.push(...expand(m[1]));
  for (const m of code.matchAll(/\b(?:crate|super|self)(?:::\w+)+/g)) paths.push(m[0]);
  const out = [];
  for (const path of paths) {
    const names = path.split("::").filter((n) => n && n !== "*");
    let base;
    if (names[0] === "crate") base = [];
    else if (names[0] === "self") base = [...here];
    else if (names[0] === "super") base = [...here];
    else continue;
    let i = names[0] === "super" ? 0 : 1;
    while (names[i] === "super") {
      base.pop();
      i++;
    }
    out.push([...base, ...names.slice(i)]);
  }
  return out;
}

const isPrefix = (a, b) => a.length <= b.length && a.every((n, i) => n === b[i]);

let circles = 0;
for (const root of roots) {
  const modules = new Map(); // "a::b" → file text
  for (const file of files(root)) modules.set(modulePath(root, file).join("::"), readFileSync(file, "utf8"));
  // Arrows between siblings, each with the first use that drew it ("a::x uses b::z").
  const edges = new Map();
  const why = new Map();
  const node = (m) => {
    if (!edges.has(m)) edges.set(m, new Set());
    return edges.get(m);
  };
  for (const [name, text] of modules) {
    const here = name ? name.split("::") : [];
    for (const ref of references(text, here)) {
      // The longest module the path names.
      let target = null;
      for (let n = ref.length; n >= 0; n--) {
        const candidate = ref.slice(0, n).join("::");
        if (modules.has(candidate)) {
          target = ref.slice(0, n);
          break;
        }
      }
      if (!target || isPrefix(target, here) || isPrefix(here, target)) continue;
      // The siblings that hold each end: the children of the nearest common parent.
      let common = 0;
      while (here[common] === target[common]) common++;
      const from = here.slice(0, common + 1).join("::");
      const to = target.slice(0, common + 1).join("::");
      node(to);
      if (!node(from).has(to)) {
        node(from).add(to);
        why.set(`${from}\u0000${to}`, `${name} uses ${target.join("::")}`);
      }
    }
  }
  // Children a module keeps apart.
  for (const [name, text] of modules) {
    const said = /^\s*\/\/[!/]\s*Apart \(scripts\/module-cycles\.mjs\):\s*([\w\s,]+)\./m.exec(text);
    if (!said) continue;
    const here = name ? name.split("::") : [];
    const apart = said[1].split(",").map((c) => [...here, c.trim()].join("::"));
    for (const from of apart) {
      for (const to of edges.get(from) ?? []) {
        if (apart.includes(to) && to !== from) {
          circles++;
          console.log(`${root}: ${from} uses ${to} (${why.get(`${from}\u0000${to}`)}), but ${name || "the crate"} keeps ${said[1].trim()} apart`);
        }
      }
    }
  }
  // Tarjan's strongly connected components.
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const visit = (v) => {
    info.set(v, { index, low: index, on: true });
    index++;
    stack.push(v);
    for (const w of edges.get(v)) {
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).on) {
        info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
      }
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).on = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!info.has(v)) visit(v);
  for (const component of found) {
    circles++;
    const within = component
      .flatMap((m) =>
        [...edges.get(m)]
          .filter((t) => component.includes(t))
          .map((t) => {
            const use = why.get(`${m}\u0000${t}`);
            return use === `${m} uses ${t}` ? `${m} → ${t}` : `${m} → ${t}: ${use}`;
          }))
      .join(", ");
    console.log(`${root}: import circle between ${component.join(", ")} (${within})`);
  }
}
if (circles) {
  console.log(`module-cycles: ${circles} import circle(s) or crossing(s) between rooms kept apart`);
  process.exit(1);
}
console.log(`module-cycles: no import circle in ${roots.join(", ")}`);
