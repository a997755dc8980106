// Reference numbers for mur-go's component benchmarks (engine/component/bench_test.go):
// the same guests run through jco transpile + Node, measured in this process.
//
//   node bench.mjs [--calls-ms N] [--compile-runs N]
//
// Prints one JSON object per line: {"metric": ..., "guest": ..., "value": ...,
// "unit": ...}; ../run.sh turns them into the comparison table.
//
// What is measured, and how it lines up with the Go side:
// - call: warm latency of murmur:tool/run@0.2.0#run with the same 1 KiB
//   input as BenchmarkCall* (after a warm-up long enough for V8 to tier the
//   hot guest code up to TurboFan); median of five timing windows.
// - instantiate: the transpiled module's instantiate() with
//   `instantiation: 'async'` output, core modules already compiled
//   (getCoreModule returns cached WebAssembly.Module objects) and jco's
//   default instantiateCore (WebAssembly.instantiate); like
//   BenchmarkInstantiate*, start functions (the Go guest's _initialize) run.
// - linmem: byteLength of every memory the core instances export, after one
//   call; compare with linmem-B/inst.
// - compile: WebAssembly.compile of every core module, in a fresh child
//   process each run so V8's in-process native-module cache cannot answer.
//   Node 20's V8 compiles lazily by default (validate now, Liftoff on first
//   call, TurboFan when hot), so this is mostly decode+validate; the
//   "compile-eager" runs pass --no-wasm-lazy-compilation --no-liftoff, i.e.
//   every function through the optimising compiler up front, which is what
//   wazero does. Node has no on-disk wasm code cache, so there is no
//   counterpart of BenchmarkCompile*Cached.

import { transpile } from '@bytecodealliance/jco';
import { cli, clocks, filesystem, io, random } from '@bytecodealliance/preview2-shim';
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const guestsDir = join(here, '..', '..', 'guests', 'out');
const guests = ['toolrun-js', 'toolrun-go'];

// Same 1 KiB string as benchData in component/bench_test.go.
const data = '0123456789abcdef'.repeat(64);

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};

// Child mode: compile the core modules of one transpiled guest once and
// print the milliseconds it took.
if (args[0] === '--compile-child') {
  const files = args.slice(1);
  const bytes = await Promise.all(files.map((f) => readFile(f)));
  const t0 = process.hrtime.bigint();
  for (const b of bytes) await WebAssembly.compile(b);
  console.log(Number(process.hrtime.bigint() - t0) / 1e6);
  process.exit(0);
}

const callsMs = opt('--calls-ms', 3000);
const compileRuns = opt('--compile-runs', 3);

const emit = (metric, guest, value, unit) =>
  console.log(JSON.stringify({ metric, guest, value, unit }));

// The Go guest's WASI: preview2-shim's Node implementation, with what the
// guest can see cut down to what mur-go's benchmark grants (nothing).
cli._setArgs([]);
cli._setEnv({});
filesystem._clearPreopens();
const wasiImports = {
  'wasi:cli/environment': cli.environment,
  'wasi:cli/exit': cli.exit,
  'wasi:cli/stderr': cli.stderr,
  'wasi:cli/stdin': cli.stdin,
  'wasi:cli/stdout': cli.stdout,
  'wasi:clocks/monotonic-clock': clocks.monotonicClock,
  'wasi:clocks/wall-clock': clocks.wallClock,
  'wasi:filesystem/preopens': filesystem.preopens,
  'wasi:filesystem/types': filesystem.types,
  'wasi:io/error': io.error,
  'wasi:io/poll': io.poll,
  'wasi:io/streams': io.streams,
  'wasi:random/random': random.random,
};

const work = await mkdtemp(join(tmpdir(), 'mur-bench-jco-'));
try {
  for (const name of guests) await benchGuest(name);
} finally {
  await rm(work, { recursive: true, force: true });
}

async function benchGuest(name) {
  const dir = join(work, name);
  const { files } = await transpile(await readFile(join(guestsDir, `${name}.wasm`)), {
    name,
    instantiation: 'async',
    noTypescript: true,
  });
  const cores = [];
  for (const [file, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), bytes);
    if (file.endsWith('.wasm')) cores.push(join(dir, file));
  }

  // Eager TurboFan takes tens of seconds for the JS guest: one run only.
  for (const [metric, flags, n] of [
    ['compile', [], compileRuns],
    ['compile-eager', ['--no-wasm-lazy-compilation', '--no-liftoff'], 1],
  ]) {
    const runs = [];
    for (let i = 0; i < n; i++) {
      const out = execFileSync(process.execPath, [...flags, fileURLToPath(import.meta.url), '--compile-child', ...cores]);
      runs.push(Number(out.toString().trim()));
    }
    emit(metric, name, median(runs) * 1e6, 'ns');
  }

  const modules = new Map();
  for (const f of cores) modules.set(f.slice(dir.length + 1), await WebAssembly.compile(await readFile(f)));
  const getCoreModule = (path) => modules.get(path);
  const { instantiate } = await import(pathToFileURL(join(dir, `${name}.js`)).href);
  const imports = name === 'toolrun-go' ? wasiImports : {};

  // Instantiate: warm up, then time a fixed count.
  for (let i = 0; i < 5; i++) await instantiate(getCoreModule, imports);
  const n = name === 'toolrun-js' ? 50 : 200;
  let t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await instantiate(getCoreModule, imports);
  emit('instantiate', name, Number(process.hrtime.bigint() - t0) / n, 'ns');

  // One instance for the calls; its core instances are captured to read
  // their memories' sizes.
  const coreInstances = [];
  const root = await instantiate(getCoreModule, imports, async (m, imp) => {
    const inst = await WebAssembly.instantiate(m, imp);
    coreInstances.push(inst);
    return inst;
  });
  const run = root.run.run;
  const want = [...data].reverse().join('');
  const got = run({ data });
  if (got.data !== want) throw new Error(`${name}: run answered ${JSON.stringify(got).slice(0, 200)}`);
  let linmem = 0;
  for (const inst of coreInstances) {
    for (const v of Object.values(inst.exports)) if (v instanceof WebAssembly.Memory) linmem += v.buffer.byteLength;
  }
  emit('linmem', name, linmem, 'B');

  // Warm call: warm up for a third of the budget (tier-up), then time five
  // windows and keep the median, which shrugs off a burst of machine load.
  const input = { data };
  const window = (ms) => {
    const end = process.hrtime.bigint() + BigInt(Math.round(ms * 1e6));
    let calls = 0;
    const start = process.hrtime.bigint();
    let now = start;
    while (now < end) {
      run(input);
      calls++;
      now = process.hrtime.bigint();
    }
    return Number(now - start) / calls;
  };
  window(callsMs / 3);
  const windows = [];
  for (let i = 0; i < 5; i++) windows.push(window(callsMs / 5));
  emit('call', name, median(windows), 'ns');
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
