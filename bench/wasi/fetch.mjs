// jco/Node reference for BenchmarkHTTP100 (engine/wasip2/bench_test.go): the same
// guest (guests/out/fetch-js.wasm) transpiled by jco and run on Node with
// @bytecodealliance/preview2-shim, making 100 sequential GET round trips to
// the server at the given URL.
//
//   node fetch.mjs http://127.0.0.1:PORT [rounds]
//
// Prints one line per variant, in the Go benchmark's format
// ("BenchmarkHTTP100/<variant>-node 1 <ns> ns/op"), the median of rounds
// timed batches after a warm-up, so run.sh can read both alike.

import { transpile } from '@bytecodealliance/jco';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [url, roundsArg] = process.argv.slice(2);
if (!url) {
  console.error('usage: node fetch.mjs URL [rounds]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 7);

// The transpiled files must live under this directory so their imports of
// @bytecodealliance/preview2-shim resolve to our node_modules.
const name = 'fetch-js';
const out = join(here, 'build', name);
await rm(out, { recursive: true, force: true });
const { files } = await transpile(await readFile(join(here, '..', '..', 'guests', 'out', `${name}.wasm`)), { name });
for (const [file, data] of Object.entries(files)) {
  await mkdir(dirname(join(out, file)), { recursive: true });
  await writeFile(join(out, file), data);
}
const run = (await import(pathToFileURL(join(out, `${name}.js`)).href)).run.run;

const call = (req) => {
  const r = run({ data: JSON.stringify(req) });
  if (r.status !== 'passed') throw new Error(`guest answered ${JSON.stringify(r)}`);
};
const variants = {
  'js-calls': () => {
    for (let i = 0; i < 100; i++) call({ url: `${url}/` });
  },
  'js-loop': () => call({ url: `${url}/`, count: 100 }),
};
for (const [variant, fn] of Object.entries(variants)) {
  fn(); // warm-up: V8 tiers the guest up, connections open
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t0));
  }
  times.sort((a, b) => a - b);
  console.log(`BenchmarkHTTP100/${variant}-node\t1\t${times[times.length >> 1]} ns/op`);
}
