// The official A2A JS SDK client against a served capsule, over v1.0 and
// v0.3: card, send, stream (chunks before completion), get, list, cancel,
// resubscribe after a dropped connection, an input-required round trip and
// 50 queued tasks none lost or duplicated. Usage: node check.mjs URL
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { TaskState, Role } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';

const base = process.argv[2];
if (!base) {
  console.error('usage: node check.mjs http://localhost:PORT');
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
const statusText = (t) => (t?.status?.message?.parts ?? []).map((p) => p.content?.value ?? '').join('');

async function clientFor(version) {
  const card = await new DefaultAgentCardResolver().resolve(base);
  const only = card.supportedInterfaces.filter((i) => i.protocolVersion === version && i.protocolBinding === 'JSONRPC');
  check(only.length === 1, `card offers JSON-RPC ${version}`);
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
  }));
  return { card, client: await factory.createFromAgentCard({ ...card, supportedInterfaces: only }) };
}

async function conformance(version) {
  const { card, client } = await clientFor(version);
  check(card.name === 'echocapsule' && card.capabilities?.streaming, `${version}: card name and streaming`);

  const sent = await client.sendMessage(msg('hello js'));
  const task = sent.payload?.$case === 'task' ? sent.payload.value : sent;
  check(task.status?.state === TaskState.TASK_STATE_COMPLETED && statusText(task) === 'echo: hello js', `${version}: blocking send carries the reply (${task.status?.state} ${statusText(task)})`);
  check(/^tsk_[0-9a-f]{32}$/.test(task.id), `${version}: task id ${task.id}`);

  const got = await client.getTask({ id: task.id, historyLength: undefined, tenant: '' });
  check(got.status?.state === TaskState.TASK_STATE_COMPLETED && statusText(got) === 'echo: hello js', `${version}: getTask after completion`);

  if (version === '1.0') {
    const list = await client.listTasks({ tenant: '', contextId: task.contextId, pageSize: 10, pageToken: '', historyLength: undefined, includeArtifacts: false });
    check(list.tasks.length === 1 && list.tasks[0].id === task.id, `${version}: listTasks by context`);
  }

  // Stream: every chunk arrives before the final status.
  const order = [];
  for await (const ev of client.sendMessageStream(msg('chunks:one,two,three'))) {
    const p = ev.payload ?? ev;
    if (p.$case === 'artifactUpdate' && p.value.append) order.push('chunk');
    if (p.$case === 'statusUpdate' && p.value.status.state === TaskState.TASK_STATE_COMPLETED) order.push('completed');
  }
  check(order.join(',') === 'chunk,chunk,chunk,completed', `${version}: stream order ${order}`);

  // Resubscribe after a dropped connection, then cancel.
  let id = '';
  for await (const ev of client.sendMessageStream(msg('block'))) {
    const p = ev.payload ?? ev;
    id = p.value?.id || p.value?.taskId || id;
    if (p.$case === 'statusUpdate' && p.value.status.state === TaskState.TASK_STATE_WORKING) break; // drop
  }
  check(id !== '', `${version}: a task id from the stream`);
  const resub = client.resubscribeTask({ id, tenant: '' });
  const first = await resub.next();
  check(first.value?.payload?.$case === 'task' && first.value.payload.value.id === id, `${version}: resubscribe starts with the task`);
  const cancelled = await client.cancelTask({ id, tenant: '', metadata: undefined });
  check(cancelled.status?.state === TaskState.TASK_STATE_CANCELED, `${version}: cancel (${cancelled.status?.state})`);
  let last;
  for await (const ev of { [Symbol.asyncIterator]: () => resub }) last = ev.payload;
  check(last?.$case === 'statusUpdate' && last.value.status.state === TaskState.TASK_STATE_CANCELED, `${version}: resubscribed stream ends canceled`);

  // Input-required round trip.
  const asked = await client.sendMessage(msg('ask:which colour?'));
  const at = asked.payload?.value ?? asked;
  check(at.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED && statusText(at) === 'which colour?', `${version}: input-required with the prompt`);
  const answered = await client.sendMessage(msg('blue', at.id));
  const done = answered.payload?.value ?? answered;
  check(done.id === at.id && done.status?.state === TaskState.TASK_STATE_COMPLETED && statusText(done) === 'got blue', `${version}: the answer resumes the task (${statusText(done)})`);

  // 50 queued tasks: none lost or duplicated.
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.sendMessage(msg(`task ${i}`))));
  const ids = new Set();
  results.forEach((r, i) => {
    const t = r.payload?.value ?? r;
    check(t.status?.state === TaskState.TASK_STATE_COMPLETED && statusText(t) === `echo: task ${i}`, `${version}: queued task ${i} (${statusText(t)})`);
    ids.add(t.id);
  });
  check(ids.size === 50, `${version}: 50 distinct task ids, got ${ids.size}`);
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
console.log('A2A JS SDK conformance: ok (v1.0 and v0.3)');
