// Turns the Go core module build.sh compiled (build/word-stats.core.wasm)
// into the example's WASM tool component, checked by a jco print/parse
// round trip. Run through build.sh. Uses the toolchain pinned in guests/.

import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const fromGuests = createRequire(join(here, '..', '..', 'guests', 'package.json'));
const { componentEmbed, componentNew, parse, preview1AdapterReactorPath, print } = await import(
  pathToFileURL(fromGuests.resolve('@bytecodealliance/jco')).href
);

const out = 'tools/word-stats/word-stats.wasm';
const embedded = await componentEmbed({
  binary: await readFile(join(here, 'build', 'word-stats.core.wasm')),
  witSource: await readFile(join(here, 'wit', 'tool.wit'), 'utf8'),
  world: 'tool',
  stringEncoding: 'utf8',
});
const bytes = await componentNew(embedded, [['wasi_snapshot_preview1', await readFile(preview1AdapterReactorPath())]]);

// The printer may move custom sections between round trips, so the lines
// are compared as a multiset.
const wat = await print(bytes);
const sorted = (text) => text.split('\n').sort().join('\n');
if (sorted(await print(await parse(wat))) !== sorted(wat)) throw new Error(`${out}: print/parse round trip differs`);

await writeFile(join(here, out), bytes);
console.log(`${out}: ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
