// Turns the component-model reference tests (engine/component/testdata/
// reference/wast/**/*.wast, copied from WebAssembly/component-model's test/
// at the commit in SOURCE) into one JSON file per .wast next to it: every
// top-level command in order, with each component encoded to binary by jco's
// parse (wasm-tools), so the Go runner (engine/component/reference_test.go)
// needs no Node. Values in invoke and assert_return stay s-expressions (atoms
// as strings, string literals as {"str": ...}). Run through build-reference.sh.

import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from '@bytecodealliance/jco';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'engine', 'component', 'testdata', 'reference');
const sha = (b) => createHash('sha256').update(b).digest('hex');

// Tokens: '(' ')' atoms and strings, with their source offsets.
function tokenize(src) {
  const toks = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ';' && src[i + 1] === ';') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '(' && src[i + 1] === ';') {
      let depth = 1;
      i += 2;
      while (i < src.length && depth > 0) {
        if (src[i] === '(' && src[i + 1] === ';') { depth++; i += 2; }
        else if (src[i] === ';' && src[i + 1] === ')') { depth--; i += 2; }
        else i++;
      }
    } else if (c === '(' || c === ')') {
      toks.push({ t: c, at: i });
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      const start = i;
      i++;
      while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
      i++;
      toks.push({ t: 'str', at: start, end: i, raw: src.slice(start + 1, i - 1) });
    } else {
      const start = i;
      while (i < src.length && !/[\s()";]/.test(src[i])) i++;
      toks.push({ t: 'atom', at: start, end: i, v: src.slice(start, i) });
    }
  }
  return toks;
}

// Nested lists: {list, at, end}, {atom}, {str (raw)}.
function tree(toks) {
  let p = 0;
  function node() {
    const t = toks[p++];
    if (t.t === '(') {
      const items = [];
      while (toks[p].t !== ')') items.push(node());
      const end = toks[p++].at + 1;
      return { list: items, at: t.at, end };
    }
    if (t.t === ')') throw new Error(`unbalanced ) at ${t.at}`);
    return t;
  }
  const out = [];
  while (p < toks.length) out.push(node());
  return out;
}

// The bytes of a wat string literal.
function strBytes(raw) {
  const out = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== '\\') {
      out.push(...Buffer.from(String.fromCodePoint(raw.codePointAt(i)), 'utf8'));
      if (raw.codePointAt(i) > 0xffff) i++;
      continue;
    }
    const n = raw[++i];
    const simple = { n: 10, t: 9, r: 13, '"': 34, "'": 39, '\\': 92 };
    if (n in simple) out.push(simple[n]);
    else if (n === 'u') {
      const close = raw.indexOf('}', i);
      const cp = parseInt(raw.slice(i + 2, close), 16);
      out.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
      i = close;
    } else {
      out.push(parseInt(raw.slice(i, i + 2), 16));
      i++;
    }
  }
  return Buffer.from(out);
}

const lineOf = (src, at) => src.slice(0, at).split('\n').length;

function value(n) {
  if (n.list) return n.list.map(value);
  if (n.t === 'str') return { str: strBytes(n.raw).toString('utf8') };
  return n.v;
}

// A component form: (component [definition] [$id] ...), binary or quote.
async function component(src, n) {
  const items = n.list;
  let k = 1;
  let definition = false;
  if (items[k]?.v === 'definition') { definition = true; k++; }
  let id;
  const from = k; // the text keeps the id: outer aliases name it
  if (items[k]?.v?.startsWith('$')) { id = items[k].v; k++; }
  const out = { definition, id };
  if (items[k]?.v === 'binary') {
    out.wasm = Buffer.concat(items.slice(k + 1).map((s) => strBytes(s.raw))).toString('base64');
    return out;
  }
  let text;
  if (items[k]?.v === 'quote') {
    out.quote = true;
    text = '(component ' + items.slice(k + 1).map((s) => strBytes(s.raw).toString('utf8')).join(' ') + ')';
  } else {
    text = '(component ' + (from < items.length ? src.slice(items[from].at, n.end - 1) : '') + ')';
  }
  try {
    out.wasm = Buffer.from(await parse(text)).toString('base64');
  } catch (e) {
    const m = String(e.message ?? e);
    out.textError = (m.match(/kind: (.*?) \} \}\) \}/)?.[1] ?? m).split('\n')[0];
  }
  return out;
}

async function commands(src) {
  const out = [];
  for (const n of tree(tokenize(src))) {
    const head = n.list?.[0]?.v;
    const line = lineOf(src, n.at);
    const msg = (i) => (n.list[i]?.t === 'str' ? strBytes(n.list[i].raw).toString('utf8') : undefined);
    if (head === 'component' && n.list[1]?.v === 'instance') {
      out.push({ line, type: 'instance', id: n.list[2].v, of: n.list[3].v });
    } else if (head === 'component') {
      const c = await component(src, n);
      out.push({ line, type: c.definition ? 'definition' : 'component', ...c, definition: undefined });
    } else if (head === 'assert_invalid' || head === 'assert_malformed') {
      out.push({ line, type: head, ...(await component(src, n.list[1])), definition: undefined, message: msg(2) });
    } else if (head === 'assert_return' || head === 'assert_trap' || head === 'invoke') {
      const action = head === 'invoke' ? n : n.list[1];
      const cmd = { line, type: head };
      if (action.list[0].v === 'invoke') {
        let k = 1;
        if (action.list[k].v?.startsWith('$')) cmd.instance = action.list[k++].v;
        cmd.invoke = strBytes(action.list[k].raw).toString('utf8');
        cmd.args = action.list.slice(k + 1).map(value);
      } else {
        Object.assign(cmd, await component(src, action), { definition: undefined });
        cmd.instantiate = true;
      }
      if (head === 'assert_return') cmd.expected = n.list.slice(2).map(value);
      if (head === 'assert_trap') cmd.message = msg(2);
      out.push(cmd);
    } else {
      throw new Error(`line ${line}: unknown command ${head}`);
    }
  }
  return out;
}

async function walk(dir) {
  const files = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) files.push(...(await walk(p)));
    else if (e.name.endsWith('.wast')) files.push(p);
  }
  return files.sort();
}

const wastDir = join(root, 'wast');
const lines = ['# path wast-sha256 json-sha256 (written by guests/build-reference.sh)'];
for (const f of await walk(wastDir)) {
  const src = await readFile(f, 'utf8');
  const rel = relative(wastDir, f);
  const json = JSON.stringify({ wast: rel, wastSha256: sha(src), commands: await commands(src) }, null, 1) + '\n';
  const out = f.replace(/\.wast$/, '.json');
  await writeFile(out, json);
  lines.push(`${rel} ${sha(src)} ${sha(json)}`);
}
await writeFile(join(root, 'sums.sha256'), lines.join('\n') + '\n');
console.log(`encoded ${lines.length - 1} reference test files`);
