// Encodes the components of engine/component/testdata/{invalid,valid}/*.wat into
// .wasm files next to them and records both hashes in each directory's
// sums.sha256, which engine/component/invalid_test.go and valid_test.go check.
// jco's parse only encodes the text, it does not validate, which is what
// lets the invalid components exist at all. Run through build-invalid.sh.

import { createHash } from 'node:crypto';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from '@bytecodealliance/jco';

const testdata = join(dirname(fileURLToPath(import.meta.url)), '..', 'engine', 'component', 'testdata');
const sha = (b) => createHash('sha256').update(b).digest('hex');

for (const set of ['invalid', 'valid']) {
  const dir = join(testdata, set);

  const files = (await readdir(dir)).sort();
  for (const f of files.filter((f) => f.endsWith('.wasm'))) {
    if (!files.includes(f.replace(/\.wasm$/, '.wat'))) {
      await rm(join(dir, f));
    }
  }
  const lines = ['# name wat-sha256 wasm-sha256 (written by guests/build-invalid.sh)'];
  for (const f of files.filter((f) => f.endsWith('.wat'))) {
    const name = f.slice(0, -'.wat'.length);
    const wat = await readFile(join(dir, f));
    const wasm = await parse(wat.toString("utf8")).catch((e) => {
      throw new Error(`${f}: ${e}`);
    });
    await writeFile(join(dir, `${name}.wasm`), wasm);
    lines.push(`${name} ${sha(wat)} ${sha(wasm)}`);
  }
  await writeFile(join(dir, 'sums.sha256'), lines.join('\n') + '\n');
  console.log(`encoded ${lines.length - 1} ${set} components`);
}
