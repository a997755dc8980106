// The official MCP TypeScript SDK client against `mur mcp serve` serving
// the agent example (run.sh installs it): over stdio (StdioClientTransport
// starting mur) and over streamable HTTP with the bearer token mur made,
// it lists the WASM tool word-stats, the native tool fingerprint and the
// shell command wc, and calls each on task.md, checking the answers
// against what Node computes of the file itself; a shell command reading
// outside the workdir is refused by the sandbox, a tool the capsule does
// not declare by the server, and over HTTP a request without the token
// (or with a wrong one) is answered 401.
// Usage: node check.mjs MUR PROJECT WORKDIR HOME
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const [mur, project, workdir, home] = process.argv.slice(2);
if (!home) {
  console.error('usage: node check.mjs MUR PROJECT WORKDIR HOME');
  process.exit(2);
}
const env = { PATH: process.env.PATH, HOME: home, MUR_CACHE_DIR: process.env.MUR_CACHE_DIR };

let failures = 0;
function check(ok, what) {
  if (!ok) {
    failures++;
    console.error(`FAIL ${what}`);
  }
}

const task = readFileSync(join(workdir, 'task.md'));
const text = (r) => (r.content ?? []).map((c) => c.text ?? '').join('');

// checkTools lists and calls the example's tools through client.
async function checkTools(client, how) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check(JSON.stringify(names) === '["fingerprint","wc","word-stats"]', `${how}: tools ${names}`);
  check(tools.every((t) => t.description && t.inputSchema?.type === 'object'), `${how}: every tool has a description and an object schema`);

  const stats = await client.callTool({ name: 'word-stats', arguments: { path: 'task.md' } });
  const s = JSON.parse(text(stats));
  check(!stats.isError && s.path === 'task.md' && s.lines === task.toString().split('\n').length - 1 && s.words > 0, `${how}: word-stats ${text(stats)}`);

  const print = await client.callTool({ name: 'fingerprint', arguments: { path: 'task.md' } });
  const p = JSON.parse(text(print));
  check(!print.isError && p.bytes === task.length && p.sha256 === createHash('sha256').update(task).digest('hex'), `${how}: fingerprint ${text(print)}`);

  const lines = task.toString().split('\n').length - 1;
  const wc = await client.callTool({ name: 'wc', arguments: { command: '-l task.md' } });
  check(text(wc).includes('Exit code: 0') && text(wc).includes(`${lines} task.md`), `${how}: wc -l task.md ${text(wc)}`);

  // Outside the grants: the sandbox keeps wc in the workdir, and cat is
  // no tool of the capsule's.
  const outside = await client.callTool({ name: 'wc', arguments: { command: '-c /etc/passwd' } });
  check(text(outside).includes('Exit code: 1') && text(outside).includes('Permission denied'), `${how}: wc reading /etc/passwd ${text(outside)}`);
  let refused = false;
  try {
    const r = await client.callTool({ name: 'cat', arguments: { command: '/etc/passwd' } });
    refused = r.isError === true;
  } catch {
    refused = true;
  }
  check(refused, `${how}: cat, which shell.allow does not name, was called`);
}

async function stdio() {
  const transport = new StdioClientTransport({ command: mur, args: ['mcp', 'serve', '--workdir', workdir], cwd: project, env, stderr: 'inherit' });
  const client = new Client({ name: 'mur-ts-check', version: '1.0.0' });
  await client.connect(transport);
  check(client.getServerVersion()?.name === 'agent', `stdio: server ${JSON.stringify(client.getServerVersion())}`);
  await checkTools(client, 'stdio');
  await client.close();
}

async function http() {
  const server = spawn(mur, ['mcp', 'serve', '--workdir', workdir, '--http', '127.0.0.1:0'], { cwd: project, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
  const lines = createInterface({ input: server.stdout });
  const url = await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    server.once('exit', () => reject(new Error('mur mcp serve --http exited before printing its URL')));
  });
  check(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/.test(url), `http: URL line ${url}`);
  // The token mur made is in the one file of ~/.murmur/mcp, written
  // before the URL was printed.
  const dir = join(home, '.murmur', 'mcp');
  const files = readdirSync(dir);
  check(files.length === 1, `http: token files ${files}`);
  const token = readFileSync(join(dir, files[0]), 'utf8').trim();

  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  for (const auth of [undefined, `Bearer ${'0'.repeat(token.length)}`, token]) {
    const res = await fetch(url, { method: 'POST', body, headers: auth ? { ...headers, Authorization: auth } : headers });
    check(res.status === 401, `http: a request with ${auth ? 'a wrong token' : 'no token'} got ${res.status}, want 401`);
  }
  let refused = false;
  try {
    await new Client({ name: 'no-token', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(url)));
  } catch {
    refused = true;
  }
  check(refused, 'http: the SDK client connected without the token');

  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'mur-ts-check', version: '1.0.0' });
  await client.connect(transport);
  await checkTools(client, 'http');
  await client.close();
  server.kill('SIGTERM');
  const { code } = await exited;
  check(code === 143, `http: mur exited ${code} on SIGTERM, want 143`);
  check(readdirSync(dir).length === 0, 'http: the token file outlived the server');
}

try {
  await stdio();
  await http();
} catch (err) {
  failures++;
  console.error('FAIL', err);
}
if (failures > 0) {
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
console.log('MCP TypeScript SDK 1.32.2 against mur mcp serve: stdio and HTTP ok');
