// Builds every test guest component into out/ and records their hashes in
// fixtures.sha256. Run through build.sh, which first installs the pinned
// toolchain and compiles the Go core module into build/.
//
// jco is driven through its JS API rather than its CLI because the CLI's
// WASI sandbox cannot read arbitrary paths; for the same reason WIT is handed
// over as source text, never as a path.

import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import {
  componentEmbed,
  componentNew,
  parse,
  preview1AdapterReactorPath,
  print,
  transpile,
} from '@bytecodealliance/jco';
import { componentize } from '@bytecodealliance/componentize-js';

const root = dirname(fileURLToPath(import.meta.url));
process.chdir(root);

const rebuildJS = process.argv.includes('--rebuild-js');
const witPath = 'wit/tool.wit';
const world = 'echo-tool';

// Each guest: how to build it and which inputs (globs relative to guests/)
// its source hash covers. fixtures_test.go recomputes the same hash.
const guests = [];
for (const file of (await readdir('wat')).filter((f) => f.endsWith('.wat')).sort()) {
  const name = file.slice(0, -'.wat'.length);
  guests.push({
    name,
    inputs: [`wat/${file}`, 'package-lock.json', 'build.mjs'],
    build: async () => parse(await readFile(`wat/${file}`, 'utf8')),
  });
}
// goReactor is a Go guest: build.sh compiles go/<dir> as a wasip1 c-shared
// reactor into build/<name>.core.wasm (allocator from go/cabi); here its
// WIT is embedded and jco's preview1 reactor adapter wraps it.
// wit.source, when given, makes the WIT text instead of reading wit.path;
// deps are further input globs (shared Go packages, WIT files).
function goReactor(name, dir, wit = { path: witPath, world }, deps = []) {
  const witInputs = wit.path === witPath ? ['wit/*.wit'] : [];
  guests.push({
    name,
    inputs: [`go/${dir}/*`, 'go/cabi/*', ...deps, ...witInputs, 'package-lock.json', 'build.mjs', 'build.sh'],
    build: async () => {
      const embedded = await componentEmbed({
        binary: await readFile(`build/${name}.core.wasm`),
        witSource: wit.source ? await wit.source() : await readFile(wit.path, 'utf8'),
        world: wit.world,
        stringEncoding: 'utf8',
      });
      const adapter = await readFile(preview1AdapterReactorPath());
      return componentNew(embedded, [['wasi_snapshot_preview1', adapter]]);
    },
  });
}
// The computing tool.
goReactor('toolrun-go', 'toolrun');
// The WASI host's test guest: files, environment, clocks, random and exit
// through the adapter.
goReactor('wasitest-go', 'wasitest');
// The filesystem boundary's hostile guest: raw preview1 path calls.
goReactor('fsattack-go', 'fsattack');
// The scripted inference driver; it reads its script from the environment
// and its requests through the drivers' decoder.
goReactor('scripted-go', 'scripted', undefined, ['go/driverkit/*', 'go/wasihttp/*']);
// The WASI command guest: a Go reactor exporting wasi:cli/run itself (see
// go/cmdrun/main.go for why not the command adapter).
goReactor('cmdrun-go', 'cmdrun', { path: 'go/cmdrun/run.wit', world: 'command' });
// The first-party inference drivers (go/README.md in guests/README.md's
// "Drivers" section): Go reactors that import wasi:http and
// murmur:text/chunks through hand-lowered core imports. Their world,
// go/driver.wit, names packages it does not define; driverWit appends them.
const driverDeps = ['go/driverkit/*', 'go/wasihttp/*', 'go/driver.wit', 'wit/*.wit'];
const driverWorld = { path: 'go/driver.wit', world: 'driver', source: driverWit };
goReactor('driver-openai-go', 'driver-openai', driverWorld, ['go/openai/*', ...driverDeps]);
goReactor('driver-anthropic-go', 'driver-anthropic', driverWorld, ['go/anthropic/*', ...driverDeps]);
// The credential gateway's hostile tool: dumps what it can read, probes
// the endpoint with the key placeholder (the drivers' world and client).
goReactor('keyspy-go', 'keyspy', driverWorld, driverDeps);
// The credential gateway's hostile driver: asks every origin it reaches for
// each transformation of a response, to get the key back unredacted.
goReactor('keythief-go', 'keythief', driverWorld, driverDeps);
// The first-party hooks (guests/README.md, "First-party hooks"): Go
// reactors sharing go/hookabi, against the worlds of go/hooks.wit.
for (const [name, dir] of [['compact-go', 'compact'], ['guard-go', 'guard']]) {
  guests.push({
    name,
    inputs: [`go/${dir}/*`, 'go/hookabi/*', 'go/hooks.wit', 'go/cabi/*', 'package-lock.json', 'build.mjs', 'build.sh'],
    build: async () => {
      const embedded = await componentEmbed({
        binary: await readFile(`build/${name}.core.wasm`),
        witSource: await readFile('go/hooks.wit', 'utf8'),
        world: dir,
        stringEncoding: 'utf8',
      });
      const adapter = await readFile(preview1AdapterReactorPath());
      return componentNew(embedded, [['wasi_snapshot_preview1', adapter]]);
    },
  });
}
guests.push({
  name: 'toolrun-js',
  // componentize-js snapshots SpiderMonkey with Wizer, which feeds the engine
  // real randomness while it initialises, so its output is not reproducible.
  // It is therefore rebuilt only when its sources change (or on request),
  // and build.mjs is left out of its inputs so unrelated edits here do not
  // churn a 12 MB file.
  reproducible: false,
  inputs: ['js/toolrun/*', 'wit/*.wit', 'package-lock.json'],
  build: async () => {
    const { component } = await componentize({
      sourcePath: 'js/toolrun/toolrun.js',
      witWorld: await readFile(witPath, 'utf8'),
      worldName: world,
      // Every WASI feature off, so the component imports nothing at all.
      disableFeatures: ['stdio', 'random', 'clocks', 'http', 'fetch-event'],
    });
    return component;
  },
});
// The WASI host's HTTP guest: fetch() through wasi:http, so http (and the
// stdio, random and clocks it leans on) stay enabled; only the incoming
// fetch-event is off. Not reproducible, like toolrun-js.
guests.push({
  name: 'fetch-js',
  reproducible: false,
  inputs: ['js/fetch/*', 'wit/*.wit', 'package-lock.json'],
  build: async () => {
    const { component } = await componentize({
      sourcePath: 'js/fetch/fetch.js',
      witWorld: await readFile(witPath, 'utf8'),
      worldName: world,
      disableFeatures: ['fetch-event'],
    });
    return component;
  },
});

// The foreign-toolchain driver: Rust compiled by build.sh with a wasm32
// Rust standard library (see README.md), embedded against murmur's own
// driver world. It imports no WASI, so no adapter is involved. Where that
// toolchain is missing, the committed output is kept as long as its
// sources are unchanged.
const rustDriverCore = 'build/driver-rust.core.wasm';
guests.push({
  name: 'driver-rust',
  // build.mjs and build.sh are left out, like toolrun-js's: an edit to
  // them elsewhere must not demand a Rust toolchain to rebuild this.
  inputs: ['rust/driver/src/*', 'rust/driver/driver.wit', 'package-lock.json'],
  keepWithout: rustDriverCore,
  build: async () => {
    const embedded = await componentEmbed({
      binary: await readFile(rustDriverCore),
      witSource: await readFile('rust/driver/driver.wit', 'utf8'),
      world: 'driver',
      stringEncoding: 'utf8',
    });
    return componentNew(embedded, []);
  },
});

const recorded = await readRecorded();
await mkdir('out', { recursive: true });
const lines = [];
for (const guest of guests) {
  const srcHash = await sourceHash(guest.inputs);
  const out = `out/${guest.name}.wasm`;
  let bytes;
  const prev = recorded.get(out);
  const unchanged = prev?.src === srcHash && (await hashFile(out)) === prev.wasm;
  if (guest.reproducible === false && !rebuildJS && unchanged) {
    bytes = await readFile(out);
    console.log(`${out}: up to date (${bytes.length} bytes)`);
  } else if (guest.keepWithout && (await hashFile(guest.keepWithout)) === undefined) {
    if (!unchanged) {
      throw new Error(`${out}: its sources changed but ${guest.keepWithout} was not built: install the toolchain README.md names`);
    }
    bytes = await readFile(out);
    console.log(`${out}: kept (no toolchain to rebuild it here; sources unchanged)`);
  } else {
    bytes = await guest.build();
    await validate(out, bytes);
    await writeFile(out, bytes);
    console.log(`${out}: built (${bytes.length} bytes)`);
  }
  lines.push(`${out} ${sha256(bytes)} ${srcHash} ${guest.inputs.join(' ')}`);
}
await writeFile(
  'fixtures.sha256',
  '# Generated by guests/build.sh; checked by guests/fixtures_test.go. Do not edit.\n' +
    '# <output> <sha256 of output> <sha256 over inputs> <input globs...>\n' +
    lines.join('\n') +
    '\n',
);
await smokeTest();

// driverWit is go/driver.wit followed by the packages its world uses, each
// rewritten as a nested `package … { … }` block (worlds dropped), because
// jco takes a world as one source text: wasi:io, wasi:clocks and wasi:http
// 0.2.12 from the WIT the pinned jco ships (the version its preview1
// adapter imports, so the two share instances), and murmur:tool@0.2.0.
async function driverWit() {
  const jcoWit = 'node_modules/@bytecodealliance/jco/lib/wit/builtin/0.2.12';
  let wit = await readFile('go/driver.wit', 'utf8');
  for (const pkg of ['wasi-io', 'wasi-clocks', 'wasi-http']) {
    wit += nestedPackage(await readFile(`${jcoWit}/${pkg}/package.wit`, 'utf8'));
  }
  return wit + nestedPackage(await readFile(witPath, 'utf8'));
}

// nestedPackage turns a file `package p; items…` into `package p { items… }`
// without its worlds (nested packages hold interfaces only here).
function nestedPackage(text) {
  const m = text.match(/^\s*package\s+([^;{]+);/m);
  if (!m) throw new Error('WIT file without a package declaration');
  let body = text.slice(0, m.index) + text.slice(m.index + m[0].length);
  for (;;) {
    const w = body.match(/(^|\n)\s*world\s+[\w-]+\s*\{/);
    if (!w) break;
    let i = w.index + w[0].length;
    for (let depth = 1; depth > 0; i++) {
      if (i >= body.length) throw new Error('unbalanced braces in a WIT world');
      if (body[i] === '{') depth++;
      else if (body[i] === '}') depth--;
    }
    body = body.slice(0, w.index) + body.slice(i);
  }
  return `package ${m[1].trim()} {\n${body}\n}\n`;
}

// validate proves the bytes are a well-formed component: jco prints them,
// parses the text back and prints that again to the same lines. Lines are
// compared as a multiset because the printer may move custom sections
// (producers, target_features) between round trips.
async function validate(out, bytes) {
  const wat = await print(bytes);
  const again = await print(await parse(wat));
  const sorted = (text) => text.split('\n').sort().join('\n');
  if (sorted(again) !== sorted(wat)) {
    throw new Error(`${out}: print/parse round trip differs`);
  }
}

// sourceHash is sha256 over lines "<sha256 of file>  <path>\n", one per
// regular file matched by the globs, deduplicated and sorted by path.
async function sourceHash(globs) {
  const files = new Set();
  for (const glob of globs) {
    const matched = await expand(glob);
    if (matched.length === 0) throw new Error(`input glob ${glob} matches nothing`);
    matched.forEach((f) => files.add(f));
  }
  let manifest = '';
  for (const file of [...files].sort()) {
    manifest += `${await hashFile(file)}  ${file}\n`;
  }
  return sha256(manifest);
}

// expand supports the only glob shapes the inputs use: a '*' in the last
// path element, with the same meaning as Go's filepath.Glob there.
async function expand(glob) {
  const dir = dirname(glob);
  const base = basename(glob);
  if (dir.includes('*')) throw new Error(`unsupported glob ${glob}`);
  const re = new RegExp(
    '^' + base.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*') + '$',
  );
  const names = dir === '.' ? await readdir('.') : await readdir(dir);
  const out = [];
  for (const name of names.sort()) {
    const path = dir === '.' ? name : `${dir}/${name}`;
    if (re.test(name) && (await stat(path)).isFile()) out.push(path);
  }
  return out;
}

async function readRecorded() {
  const map = new Map();
  let text;
  try {
    text = await readFile('fixtures.sha256', 'utf8');
  } catch {
    return map;
  }
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [out, wasm, src] = line.split(' ');
    map.set(out, { wasm, src });
  }
  return map;
}

async function hashFile(path) {
  try {
    return sha256(await readFile(path));
  } catch {
    return undefined;
  }
}

function sha256(data) {
  return createHash('sha256').update(data).digest('hex');
}

// smokeTest runs the guests that compute something through jco's own
// component runtime (transpile + preview2-shim), since the Go host that will
// run them is developed separately. It checks the contracts README.md states.
async function smokeTest() {
  const check = join(root, 'build', 'check');
  await rm(check, { recursive: true, force: true });
  const run = async (name) => {
    const { files } = await transpile(await readFile(`out/${name}.wasm`), { name });
    for (const [file, data] of Object.entries(files)) {
      await mkdir(dirname(join(check, name, file)), { recursive: true });
      await writeFile(join(check, name, file), data);
    }
    const mod = await import(pathToFileURL(join(check, name, `${name}.js`)).href);
    return mod.run.run;
  };
  const expect = (what, got, want) => {
    const [g, w] = [JSON.stringify(got), JSON.stringify(want)];
    if (g !== w) throw new Error(`smoke test ${what}:\n got  ${g}\n want ${w}`);
  };
  const passed = (data, extra = {}) => ({
    status: 'passed',
    data,
    truncated: false,
    metadata: [],
    attachments: [],
    ...extra,
  });
  const endTurn = (text) =>
    `{"stop_reason":"end_turn","content":[{"type":"text","text":"${text}"}]}`;

  for (const name of ['toolrun-go', 'toolrun-js']) {
    const fn = await run(name);
    // Twice, so state left behind by the first call (allocator, pins) counts.
    for (let i = 0; i < 2; i++) {
      expect(`${name} data+log`, fn({ data: 'hello, world', logPath: 'logs/run.log' }), {
        status: 'passed',
        summary: 'echo: hello, world',
        data: 'dlrow ,olleh',
        dataPath: 'logs/run.log',
        truncated: false,
        metadata: [['len', '12']],
        attachments: [],
      });
      expect(`${name} none`, fn({}), {
        status: 'passed',
        summary: 'echo: ',
        truncated: false,
        metadata: [['len', '0']],
        attachments: [],
      });
      expect(`${name} long`, fn({ data: 'héllo 🌍 ' + 'x'.repeat(30) }), {
        status: 'passed',
        summary: 'echo: héllo 🌍 ' + 'x'.repeat(24),
        data: 'x'.repeat(30) + ' 🌍 olléh',
        truncated: true,
        metadata: [['len', '42']],
        attachments: [],
      });
    }
  }
  expect('driver-canned', (await run('driver-canned'))({ data: 'hi' }), passed(endTurn('compacted summary')));
  expect('driver-error', (await run('driver-error'))({}), {
    ...passed('{"stop_reason":"error","error":"unknown model: nope"}'),
    status: 'error',
  });
  expect(
    'driver-metadata',
    (await run('driver-metadata'))({}),
    passed(endTurn('continued reply'), {
      metadata: [
        ['continuation_id', 'cont-42'],
        ['state_effect', 'read'],
      ],
    }),
  );
  const switching = await run('driver-switching');
  expect('driver-switching before', switching({ data: 'no marker here' }), passed(endTurn('before marker')));
  expect('driver-switching after', switching({ data: 'x SWITCH-MARKER y' }), passed(endTurn('after marker')));
  expect('driver-nodata', (await run('driver-nodata'))({ data: 'hi' }), {
    status: 'passed',
    truncated: false,
    metadata: [],
    attachments: [],
  });
  let trapped = false;
  try {
    (await run('driver-trap'))({});
  } catch {
    trapped = true;
  }
  expect('driver-trap traps', trapped, true);
  await smokeTestRustDriver(check, expect);
  console.log('smoke test: ok');
}

// smokeTestRustDriver runs driver-rust with a recorder for the chunks it
// emits (instantiation mode: jco takes every import from this object).
async function smokeTestRustDriver(check, expect) {
  const name = 'driver-rust';
  const { files } = await transpile(await readFile(`out/${name}.wasm`), { name, instantiation: { tag: 'async' } });
  for (const [file, data] of Object.entries(files)) {
    await mkdir(dirname(join(check, name, file)), { recursive: true });
    await writeFile(join(check, name, file), data);
  }
  const mod = await import(pathToFileURL(join(check, name, `${name}.js`)).href);
  const chunks = [];
  const inst = await mod.instantiate(async (core) => WebAssembly.compile(await readFile(join(check, name, core))), {
    'murmur:text/chunks': { emitChunk: (c) => chunks.push(c), emitThinkingChunk: () => {} },
  });
  const run = inst['murmur:tool/run@0.1.0'].run;
  const user = '{"content":[{"text":"hello","type":"text"}],"role":"user"}';
  const req = (messages, tools = '[{"name":"echo","parameters":{}}]') =>
    `{"max_tokens":8192,"messages":[${messages}],"model":"m","params":{},"system":"[Capsule]","tools":${tools}}`;
  const ok = (data) => ({ status: 'passed', summary: 'driver-rust turn', data, truncated: false, metadata: [] });
  const error = (msg) => ({
    status: 'error',
    summary: msg,
    data: JSON.stringify({ error: msg, stop_reason: 'error' }),
    truncated: false,
    metadata: [],
  });
  const call =
    '{"type":"tool_call","id":"call-1","name":"echo","input":{"text":"hello"}}';
  expect(`${name} call`, run({ data: req(user) }), ok(
    `{"stop_reason":"tool_call","content":[{"type":"text","text":"Asking echo."},${call}]}`,
  ));
  const answered = req(`${user},{"content":[${call}],"role":"assistant"},` +
    '{"content":[{"text":"olleh","type":"text"}],"is_error":false,"role":"tool","tool_call_id":"call-1"}');
  expect(`${name} end`, run({ data: answered }), ok(
    '{"stop_reason":"end_turn","content":[{"type":"text","text":"echo answered: olleh"}]}',
  ));
  expect(`${name} chunks`, chunks, ['Asking echo.', 'echo answered: olleh']);
  expect(`${name} no data`, run({}), error('no request: the driver expects the request JSON as data'));
  expect(`${name} deep`, run({ data: '['.repeat(100000) }).status, 'error');
  expect(`${name} not JSON`, run({ data: '{"messages": tru}' }), error('request is not JSON: invalid literal at byte 13'));
}
