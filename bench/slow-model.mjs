// A local OpenAI-compatible model that answers every chat call after a fixed latency, in its own
// process like a real model server, so the bench measures saboteur's CPU and not the model's.
//   node bench/slow-model.mjs LATENCY_MS   → prints the port on stdout
import { createServer } from './wire.mjs';

const latencyMs = Number(process.argv[2] ?? 50);
const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1700000000,
  model: 'bench',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
});
const models = JSON.stringify({ object: 'list', data: [{ id: 'bench', object: 'model' }] });
const server = createServer((req, send) => {
  if (req.path.endsWith('/models')) return send(200, models);
  if (req.method !== 'POST') return send(405, '{"error":{"message":"POST a chat completion"}}');
  setTimeout(() => send(200, completion), latencyMs);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
