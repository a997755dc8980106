// The official A2A JS SDK client against agent capsules served by `mur run`
// (run.sh starts them), over v1.0 and v0.3: card, send, stream (status and
// artifact updates before completion), get, list, cancel, resubscribe after
// a dropped connection, an input-required round trip and 50 queued tasks
// none lost or duplicated. The scripted driver replays one script for every
// task, so each behaviour is its own capsule: ANSWER calls the echo tool
// and answers "reversed: olleh", SLEEPER runs a shell sleep until
// cancelled, ASKER's tool asks "name?" and the driver answers once it got
// "blue". Usage: node check.mjs ANSWER SLEEPER ASKER
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { TaskState, Role } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';

const [answerURL, sleeperURL, askerURL] = process.argv.slice(2);
if (!askerURL) {
  console.error('usage: node check.mjs ANSWER-URL SLEEPER-URL ASKER-URL');
  process.exit(2);
}

let failures = 0;
function check(ok, what) {
  if (!ok) {
    failures++;
    console.error(`FAIL ${what}`);
  }
}

const msg = (text, taskId = '') => ({
  message: { messageId: randomUUID(), contextId: '', taskId, role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text } }], metadata: undefined, extensions: [], referenceTaskIds: [] },
});
const partsText = (ps) => (ps ?? []).map((p) => p.content?.value ?? '').join('');
// A task's reply: its status message and artifacts, where the loop puts it.
const taskText = (t) => partsText(t?.status?.message?.parts) + (t?.artifacts ?? []).map((a) => partsText(a.parts)).join('');

async function clientFor(base, version) {
  const card = await new DefaultAgentCardResolver().resolve(base);
  const only = card.supportedInterfaces.filter((i) => i.protocolVersion === version && i.protocolBinding === 'JSONRPC');
  check(only.length === 1, `card offers JSON-RPC ${version}`);
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
  }));
  return { card, client: await factory.createFromAgentCard({ ...card, supportedInterfaces: only }) };
}

async function conformance(version) {
  const { card, client } = await clientFor(answerURL, version);
  check(card.name === 'answer' && card.capabilities?.streaming, `${version}: card name and streaming (${card.name})`);

  const sent = await client.sendMessage(msg('hello js'));
  const task = sent.payload?.$case === 'task' ? sent.payload.value : sent;
  check(task.status?.state === TaskState.TASK_STATE_COMPLETED && taskText(task).includes('reversed: olleh'), `${version}: blocking send carries the reply (${task.status?.state} ${taskText(task)})`);
  check(/^tsk_[0-9a-f]{32}$/.test(task.id), `${version}: task id ${task.id}`);

  const got = await client.getTask({ id: task.id, historyLength: undefined, tenant: '' });
  check(got.status?.state === TaskState.TASK_STATE_COMPLETED && taskText(got).includes('reversed: olleh'), `${version}: getTask after completion (${taskText(got)})`);

  if (version === '1.0') {
    const list = await client.listTasks({ tenant: '', contextId: task.contextId, pageSize: 10, pageToken: '', historyLength: undefined, includeArtifacts: false });
    check(list.tasks.length === 1 && list.tasks[0].id === task.id, `${version}: listTasks by context`);
  }

  // Stream: the turn's working status and the tool call's artifact arrive
  // before the final status, which ends the stream.
  const order = [];
  for await (const ev of client.sendMessageStream(msg('stream it'))) {
    const p = ev.payload ?? ev;
    if (p.$case === 'artifactUpdate') order.push('artifact');
    if (p.$case === 'statusUpdate') order.push(p.value.status.state === TaskState.TASK_STATE_COMPLETED ? 'completed' : p.value.status.state === TaskState.TASK_STATE_WORKING ? 'working' : 'other');
  }
  const before = order.slice(0, -1);
  check(order.at(-1) === 'completed' && before.includes('working') && before.includes('artifact'), `${version}: stream order ${order}`);

  // 50 queued tasks: none lost or duplicated.
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.sendMessage(msg(`task ${i}`))));
  const ids = new Set();
  results.forEach((r, i) => {
    const t = r.payload?.value ?? r;
    check(t.status?.state === TaskState.TASK_STATE_COMPLETED && taskText(t).includes('reversed: olleh'), `${version}: queued task ${i} (${t.status?.state} ${taskText(t)})`);
    ids.add(t.id);
  });
  check(ids.size === 50, `${version}: 50 distinct task ids, got ${ids.size}`);

  // Resubscribe after a dropped connection, then cancel the running sleep.
  const sleeper = (await clientFor(sleeperURL, version)).client;
  let id = '';
  for await (const ev of sleeper.sendMessageStream(msg('sleep'))) {
    const p = ev.payload ?? ev;
    id = p.value?.id || p.value?.taskId || id;
    if (p.$case === 'statusUpdate' && p.value.status.state === TaskState.TASK_STATE_WORKING) break; // drop
  }
  check(id !== '', `${version}: a task id from the stream`);
  const resub = sleeper.resubscribeTask({ id, tenant: '' });
  const first = await resub.next();
  check(first.value?.payload?.$case === 'task' && first.value.payload.value.id === id, `${version}: resubscribe starts with the task`);
  const cancelled = await sleeper.cancelTask({ id, tenant: '', metadata: undefined });
  check(cancelled.status?.state === TaskState.TASK_STATE_CANCELED, `${version}: cancel (${cancelled.status?.state})`);
  let last;
  for await (const ev of { [Symbol.asyncIterator]: () => resub }) last = ev.payload;
  check(last?.$case === 'statusUpdate' && last.value.status.state === TaskState.TASK_STATE_CANCELED, `${version}: resubscribed stream ends canceled`);

  // Input-required round trip.
  const asker = (await clientFor(askerURL, version)).client;
  const asked = await asker.sendMessage(msg('ask me'));
  const at = asked.payload?.value ?? asked;
  check(at.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED && taskText(at).includes('name?'), `${version}: input-required with the prompt (${at.status?.state} ${taskText(at)})`);
  const answered = await asker.sendMessage(msg('blue', at.id));
  const done = answered.payload?.value ?? answered;
  check(done.id === at.id && done.status?.state === TaskState.TASK_STATE_COMPLETED && taskText(done).includes('the answer was heard'), `${version}: the answer resumes the task (${done.status?.state} ${taskText(done)})`);
}

for (const version of ['1.0', '0.3']) {
  try {
    await conformance(version);
  } catch (e) {
    failures++;
    console.error(`FAIL ${version}: ${e.stack ?? e}`);
  }
}
if (failures) {
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
console.log('A2A JS SDK conformance against mur run: ok (v1.0 and v0.3)');
