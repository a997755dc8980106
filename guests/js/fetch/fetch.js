// The HTTP test guest: murmur:tool/run@0.2.0#run (world echo-tool in
// wit/tool.wit) whose input data is a JSON request for fetch(). The WASI
// host's HTTP tests and benchmarks all use this one guest, so they add a
// single 12 MB fixture.
//
// Input (data, JSON):
//   url      string, required (the test server's port is only known then)
//   method   default "GET"
//   body     string sent as the request body
//   repeat   [chunk, count]: the body is chunk repeated count times
//   stream   send the body as a ReadableStream, one chunk per enqueue
//   count    fetch this many times in sequence (benchmarks), default 1
//   discard  do not keep the response body, only count it
//
// Answer: status passed with metadata status, len (bytes), chunks (reads
// of the body stream) and sha256 (hex, unless discard) of the last
// response; data is its body as text when at most 64 KiB (big bodies are
// compared by digest: building a multi-megabyte string in the guest is
// slow). Status error with data = the error's message when fetch rejects
// or the input is malformed.

export const run = {
  async run(input) {
    let req;
    try {
      req = JSON.parse(input.data ?? '');
      if (typeof req.url !== 'string') throw new Error('url missing');
    } catch (e) {
      return answer('error', { data: `bad input: ${e.message}` });
    }
    let last;
    try {
      for (let i = 0; i < (req.count ?? 1); i++) {
        last = await once(req);
      }
    } catch (e) {
      return answer('error', { data: describe(e) });
    }
    return answer('passed', {
      summary: `HTTP ${last.status}`,
      data: last.text,
      metadata: [
        ['status', String(last.status)],
        ['len', String(last.len)],
        ['chunks', String(last.chunks)],
        ...(last.sha256 ? [['sha256', last.sha256]] : []),
      ],
    });
  },
};

// once performs one fetch and reads the whole response body chunk by
// chunk, as a streaming consumer would.
async function once(req) {
  const init = { method: req.method ?? 'GET' };
  const body = requestBody(req);
  if (body !== undefined) {
    init.body = body;
    if (req.stream) init.duplex = 'half';
  }
  const resp = await fetch(req.url, init);
  const reader = resp.body.getReader();
  const parts = [];
  let len = 0;
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks++;
    len += value.length;
    if (!req.discard) parts.push(value);
  }
  const out = { status: resp.status, len, chunks };
  if (!req.discard) {
    const all = new Uint8Array(len);
    let off = 0;
    for (const p of parts) {
      all.set(p, off);
      off += p.length;
    }
    out.sha256 = hex(await crypto.subtle.digest('SHA-256', all));
    if (len <= 64 << 10) out.text = new TextDecoder().decode(all);
  }
  return out;
}

function requestBody(req) {
  if (req.repeat) {
    const [chunk, count] = req.repeat;
    const bytes = new TextEncoder().encode(chunk);
    if (req.stream) {
      let sent = 0;
      return new ReadableStream({
        pull(controller) {
          if (sent++ < count) controller.enqueue(bytes);
          else controller.close();
        },
      });
    }
    const all = new Uint8Array(bytes.length * count);
    for (let i = 0; i < count; i++) all.set(bytes, i * bytes.length);
    return all;
  }
  return req.body;
}

function hex(buf) {
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');
}

// describe flattens an error and its causes into one line.
function describe(e) {
  const parts = [];
  for (let c = e; c !== undefined && c !== null && parts.length < 4; c = c.cause) {
    parts.push(c instanceof Error ? `${c.name}: ${c.message}` : String(c));
  }
  return parts.join(' <- ');
}

function answer(status, { summary, data, metadata = [] }) {
  return { status, summary, data, dataPath: undefined, truncated: false, metadata, attachments: [] };
}
