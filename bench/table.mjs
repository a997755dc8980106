// Prints run.sh's comparison table from `go test -bench` output files and
// the JSON lines of jco/bench.mjs:
//
//   node table.mjs GO_BENCH_FILE... JCO_JSONL_FILE
//
// Repeated measurements (-count) are reduced to their median.

import { readFileSync } from 'node:fs';

const files = process.argv.slice(2);
const go = new Map(); // "BenchmarkX/unit" → [values]
const jco = new Map(); // "metric/guest" → value
for (const f of files) {
  for (const line of readFileSync(f, 'utf8').split('\n')) {
    if (line.startsWith('{')) {
      const r = JSON.parse(line);
      jco.set(`${r.metric}/${r.guest}`, r.value);
      continue;
    }
    const m = line.match(/^(Benchmark\S+?)(-\d+)?\s+\d+\s+(.*)$/);
    if (!m) continue;
    const fields = m[3].trim().split(/\s+/);
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const key = `${m[1]}/${fields[i + 1]}`;
      if (!go.has(key)) go.set(key, []);
      go.get(key).push(Number(fields[i]));
    }
  }
}

const median = (xs) => {
  if (!xs || xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const g = (bench, unit = 'ns/op') => median(go.get(`${bench}/${unit}`));
const j = (metric, guest) => jco.get(`${metric}/${guest}`);

const dur = (ns) => {
  if (ns === undefined) return 'n/a';
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${ns.toFixed(0)} ns`;
};
const bytes = (b) => (b === undefined ? 'n/a' : `${(b / (1 << 20)).toFixed(2)} MiB`);

// Each row: label, mur-go value, jco value, formatter, target (text and check).
const rows = [
  ['warm call run, JS guest (1 KiB)', g('BenchmarkCallJS'), j('call', 'toolrun-js'), dur, '≤ 1.5× jco', (m, r) => r <= 1.5],
  ['warm call run, Go guest (1 KiB)', g('BenchmarkCallGo'), j('call', 'toolrun-go'), dur, '≤ 1.0× jco', (m, r) => r <= 1],
  ['host lift/lower round trip (utf8)', g('BenchmarkToolCall/utf8'), undefined, dur, '< 1 µs', (m) => m < 1e3],
  ['  on dynamic values', g('BenchmarkToolCallDynamic/utf8'), undefined, dur, '', null],
  ['instantiate (compiled), JS guest', g('BenchmarkInstantiateJS'), j('instantiate', 'toolrun-js'), dur, '', null],
  ['instantiate (cached), Go guest 2 MB', g('BenchmarkInstantiateGo'), j('instantiate', 'toolrun-go'), dur, '< 2 ms', (m) => m < 2e6],
  ['compile cold, JS guest 12 MB', g('BenchmarkCompileJSCold'), j('compile', 'toolrun-js'), dur, '< 300 ms', (m) => m < 300e6],
  ['  vs V8 eager TurboFan', g('BenchmarkCompileJSCold'), j('compile-eager', 'toolrun-js'), dur, '', null],
  ['compile cold, Go guest 2 MB', g('BenchmarkCompileGoCold'), j('compile', 'toolrun-go'), dur, '', null],
  ['  vs V8 eager TurboFan', g('BenchmarkCompileGoCold'), j('compile-eager', 'toolrun-go'), dur, '', null],
  ['load from cache, JS guest 12 MB', g('BenchmarkCompileJSCached'), undefined, dur, '≤ 100 ms', (m) => m <= 100e6],
  ['load from cache, Go guest 2 MB', g('BenchmarkCompileGoCached'), undefined, dur, '', null],
  ['linear memory/instance, JS guest', g('BenchmarkInstantiateJS', 'linmem-B/inst'), j('linmem', 'toolrun-js'), bytes, '', null],
  ['linear memory/instance, Go guest', g('BenchmarkInstantiateGo', 'linmem-B/inst'), j('linmem', 'toolrun-go'), bytes, '', null],
  ['Go heap/instance, JS guest', g('BenchmarkInstantiateJS', 'heap-B/inst'), undefined, bytes, '', null],
  ['Go heap/instance, Go guest', g('BenchmarkInstantiateGo', 'heap-B/inst'), undefined, bytes, '', null],
];

const table = [['metric', 'mur-go', 'jco/Node', 'mur-go/jco', 'target', '']];
for (const [label, m, jv, fmt, target, ok] of rows) {
  const ratio = m !== undefined && jv ? m / jv : undefined;
  let verdict = '';
  if (ok && m !== undefined) verdict = ok(m, ratio) ? 'met' : 'MISSED';
  table.push([label, fmt(m), fmt(jv), ratio === undefined ? '' : `${ratio.toFixed(2)}×`, target, verdict]);
}
const widths = table[0].map((_, c) => Math.max(...table.map((r) => [...r[c]].length)));
for (const [i, r] of table.entries()) {
  console.log(r.map((cell, c) => cell + ' '.repeat(widths[c] - [...cell].length)).join('  ').trimEnd());
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
