// Turns the Go core modules build.sh compiled (build/*.core.wasm) into the
// example's components, then runs them in jco's own component runtime as a
// smoke test. Run through build.sh.
//
// Uses the toolchain pinned in guests/ (resolved from guests/package.json),
// driven through jco's JS API. The WIT in wit/ is handed over as source
// text: world.wit, with each deps/ package appended as a nested
// `package … { … }` block.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const fromGuests = createRequire(join(repo, 'guests', 'package.json'));
const load = (spec) => import(pathToFileURL(fromGuests.resolve(spec)).href);
const { componentEmbed, componentNew, parse, preview1AdapterReactorPath, print, transpile } = await load(
  '@bytecodealliance/jco',
);
const { WASIShim } = await load('@bytecodealliance/preview2-shim/instantiation');

const components = [
  { name: 'capsule', world: 'capsule', out: 'capsule.wasm' },
  { name: 'word-count', world: 'tool', out: 'tools/word-count/word-count.wasm' },
];

const wit = await witSource();
const adapter = await readFile(preview1AdapterReactorPath());
for (const c of components) {
  const embedded = await componentEmbed({
    binary: await readFile(join(here, 'build', `${c.name}.core.wasm`)),
    witSource: wit,
    world: c.world,
    stringEncoding: 'utf8',
  });
  const bytes = await componentNew(embedded, [['wasi_snapshot_preview1', adapter]]);
  await validate(c.out, bytes);
  await writeFile(join(here, c.out), bytes);
  console.log(`${c.out}: ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
}
await smokeTest();

// witSource is wit/world.wit followed by every wit/deps/<dir>/*.wit, each
// rewritten from `package p;` + body into a nested `package p { body }`.
async function witSource() {
  const witDir = join(here, 'wit');
  let src = await readFile(join(witDir, 'world.wit'), 'utf8');
  for (const dir of (await readdir(join(witDir, 'deps'))).sort()) {
    for (const file of (await readdir(join(witDir, 'deps', dir))).filter((f) => f.endsWith('.wit')).sort()) {
      const text = await readFile(join(witDir, 'deps', dir, file), 'utf8');
      const m = /^package\s+([^;\s]+)\s*;/m.exec(text);
      if (!m) throw new Error(`wit/deps/${dir}/${file}: no package header`);
      src += `\npackage ${m[1]} {\n${text.slice(0, m.index)}${text.slice(m.index + m[0].length)}\n}\n`;
    }
  }
  return src;
}

// validate: jco prints the component, parses the text back and prints it
// again to the same lines (as a multiset: custom sections may move).
async function validate(what, bytes) {
  const wat = await print(bytes);
  const again = await print(await parse(wat));
  const sorted = (text) => text.split('\n').sort().join('\n');
  if (sorted(again) !== sorted(wat)) throw new Error(`${what}: print/parse round trip differs`);
}

// load a component through jco transpile (instantiation mode, so every
// import is supplied here) and return its exports.
async function instantiate(name, imports) {
  const dir = join(here, 'build', 'check', name);
  await rm(dir, { recursive: true, force: true });
  const { files } = await transpile(await readFile(join(here, components.find((c) => c.name === name).out)), {
    name,
    instantiation: { tag: 'async' },
  });
  for (const [file, data] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), data);
  }
  const mod = await import(pathToFileURL(join(dir, `${name}.js`)).href);
  return mod.instantiate(async (core) => WebAssembly.compile(await readFile(join(dir, core))), imports);
}

// smokeTest runs the capsule against a stand-in for mur's invoke: the real
// word-count component, the real greet program (go run, JSON on stdin and
// stdout), and the allowlist refusal for anything else.
async function smokeTest() {
  const expect = (what, got, want) => {
    const [g, w] = [JSON.stringify(got), JSON.stringify(want)];
    if (g !== w) throw new Error(`smoke test ${what}:\n got  ${g}\n want ${w}`);
  };
  const shim = (sandbox) => new WASIShim({ sandbox: { enableNetwork: false, args: ['guest'], ...sandbox } });

  const wc = await instantiate('word-count', shim({ preopens: {}, env: {} }).getImportObject());
  const wcRun = wc['murmur:tool/run@0.1.0'].run;
  expect('word-count', wcRun({ data: 'one two\nthree  four "héllo"\n', logPath: 'ignored.log' }), {
    status: 'passed',
    summary: '5 words, 2 lines, 28 characters',
    data: '{"words":5,"lines":2,"characters":28,"bytes":29,"longest_word":"\\"héllo\\""}',
    truncated: false,
    metadata: [['state_effect', 'read']],
  });
  expect('word-count none', wcRun({}), {
    status: 'failed',
    summary: 'no input: pass the text to count as data',
    truncated: false,
    metadata: [],
  });

  const declared = new Set(['word-count', 'greet']);
  const calls = [];
  const invoke = (name, input) => {
    calls.push(name);
    if (!declared.has(name)) throw { payload: `tool '${name}' is not declared in manifest allowlist` };
    if (name === 'word-count') return wcRun(input);
    const p = spawnSync('go', ['run', './examples/hello/tools/greet'], {
      cwd: repo,
      input: JSON.stringify({ data: input.data ?? null, log_path: input.logPath ?? null }),
      env: { ...process.env, HOME: '/work/.capsule-home' },
    });
    const out = JSON.parse(p.stdout.toString());
    return { status: out.status, summary: out.summary, data: out.data, truncated: false, metadata: [] };
  };

  const workdir = await mkdtemp(join(tmpdir(), 'hello-smoke-'));
  try {
    const capsule = await instantiate('capsule', {
      ...shim({ preopens: { '.': workdir }, env: { USER: 'tester', MURMUR_SESSION_ID: 'ses_smoke' } }).getImportObject(),
      'murmur:tool-registry/invoke': { invoke },
    });
    capsule['murmur:capsule/run@0.1.0'].run();
    expect('invoked', calls, ['word-count', 'greet', 'read-secrets']);
    const result = await readFile(join(workdir, 'out', 'result.txt'), 'utf8');
    for (const want of [
      'session: ses_smoke',
      'summary: 10 words, 1 line, 69 characters',
      'summary: Hello, tester!',
      `"home":".capsule-home"`,
      "refused: tool 'read-secrets' is not declared in manifest allowlist",
      'result: ok',
    ]) {
      if (!result.includes(want)) throw new Error(`smoke test: out/result.txt lacks ${JSON.stringify(want)}:\n${result}`);
    }
  } finally {
    await rm(workdir, { recursive: true, force: true });
  }
  console.log('smoke test: ok');
}
