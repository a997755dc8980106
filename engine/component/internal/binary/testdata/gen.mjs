// Regenerates the .wasm fixtures in this directory with jco (wasm-tools).
// Usage: JCO_DIR=/path/to/node_modules/@bytecodealliance/jco node gen.mjs
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const jcoDir = process.env.JCO_DIR;
if (!jcoDir) throw new Error('set JCO_DIR to the @bytecodealliance/jco package directory');
const { parse, componentEmbed, componentNew } = await import(pathToFileURL(join(jcoDir, 'dist/api.js')));

// Hand-written component WAT.
for (const f of readdirSync(join(here, 'wat'))) {
  if (!f.endsWith('.wat')) continue;
  const bytes = await parse(readFileSync(join(here, 'wat', f), 'utf8'));
  writeFileSync(join(here, f.replace(/\.wat$/, '.wasm')), bytes);
}

// wit-component output for dummy core modules implementing WIT worlds.
async function dummy(out, opts) {
  const core = await componentEmbed({ dummy: true, ...opts });
  writeFileSync(join(here, out), await componentNew(core));
}
const kitchenWit = readFileSync(join(here, 'wit', 'kitchen.wit'), 'utf8');
await dummy('wit-kitchen.wasm', { witSource: kitchenWit, world: 'kitchen' });
await dummy('wit-kitchen-utf16.wasm', { witSource: kitchenWit, world: 'kitchen', stringEncoding: 'utf16' });

// WASI 0.2.12 worlds from jco's bundled WIT. The tool runs sandboxed and
// cannot read arbitrary paths, so the packages are inlined as nested
// package blocks of one WIT source.
const builtin = join(jcoDir, 'lib/wit/builtin/0.2.12');
let wasiWit = 'package test:wasi;\nworld cli { include wasi:cli/command@0.2.12; }\n' +
  'world proxy { include wasi:http/proxy@0.2.12; }\n';
for (const pkg of readdirSync(builtin)) {
  const src = readFileSync(join(builtin, pkg, 'package.wit'), 'utf8');
  const m = src.match(/^package ([^;]+);/m);
  wasiWit += `package ${m[1]} {\n${src.replace(m[0], '')}\n}\n`;
}
await dummy('wasi-cli.wasm', { witSource: wasiWit, world: 'cli' });
await dummy('wasi-http-proxy.wasm', { witSource: wasiWit, world: 'proxy' });

// A core module using preview1, adapted with jco's reactor adapter.
const adapter = readFileSync(join(jcoDir, 'lib/wasi_snapshot_preview1.reactor.wasm'));
const p1 = await parse(readFileSync(join(here, 'wat-core', 'preview1.wat'), 'utf8'));
const p1embedded = await componentEmbed({ binary: p1, witSource: 'package test:p1; world empty {}', world: 'empty' });
writeFileSync(join(here, 'preview1-adapted.wasm'),
  await componentNew(p1embedded, [['wasi_snapshot_preview1', new Uint8Array(adapter)]]));
