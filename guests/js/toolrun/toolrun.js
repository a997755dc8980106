// The JS test guest: murmur:tool/run@0.2.0#run with exactly the Go guest's
// behaviour (guests/go/toolrun, contract in guests/README.md), so one set of
// assertions covers both toolchains' output.

// summaryRunes caps how much of the input the summary echoes.
const summaryRunes = 32;

export const run = {
  run(input) {
    // Normalise none, whichever of null/undefined the bindings use for it.
    const data = input.data ?? undefined;
    const logPath = input.logPath ?? undefined;
    // Array.from splits by code point, as Go's []rune conversion does.
    const runes = data === undefined ? [] : Array.from(data);
    const summary = 'echo: ' + runes.slice(0, summaryRunes).join('');
    return {
      status: 'passed',
      summary,
      data: data === undefined ? undefined : runes.reverse().join(''),
      dataPath: logPath,
      truncated: runes.length > summaryRunes,
      metadata: [['len', String(utf8Length(data ?? ''))]],
      attachments: [],
    };
  },
};

// utf8Length counts UTF-8 bytes without TextEncoder, which a guest built
// with every WASI feature disabled need not provide.
function utf8Length(s) {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}
