// The smallest http-mode pipeline, for measuring the harness: per POSTed task one chat call to the
// task's openaiBaseUrl as agent "coder", answering {answer}. Same contract as
// fixtures/pipelines/minimal-http.mjs, over bench/wire.mjs so its own CPU stays out of the figure.
//   node bench/minimal-service.mjs --port 9000
import { createClient, createServer } from './wire.mjs';

const portArg = process.argv.indexOf('--port');
const port = portArg >= 0 ? Number(process.argv[portArg + 1]) : 0;
const clients = new Map();
function clientFor(url) {
  let client = clients.get(url.host);
  if (!client) clients.set(url.host, (client = createClient(url.hostname, Number(url.port))));
  return client;
}
const server = createServer((req, send) => {
  if (req.method === 'GET') return send(req.path === '/health' ? 200 : 404, '{"ok":true}');
  let task;
  try {
    task = JSON.parse(req.body.toString('utf8'));
  } catch (err) {
    return send(400, JSON.stringify({ error: `the task is not JSON: ${err.message}` }));
  }
  const base = new URL(task.openaiBaseUrl);
  const chat = JSON.stringify({ model: task.model, temperature: 0, messages: [{ role: 'user', content: task.task.prompt }] });
  clientFor(base)
    .post(
      `${base.pathname.replace(/\/+$/, '')}/chat/completions`,
      { Authorization: `Bearer ${task.apiKey}`, 'X-Saboteur-Agent': 'coder' },
      chat,
    )
    .then((answer) => {
      if (answer.status !== 200)
        return send(500, JSON.stringify({ error: `chat call answered HTTP ${answer.status}: ${answer.body.slice(0, 300)}` }));
      send(200, JSON.stringify({ answer: JSON.parse(answer.body).choices[0].message.content }));
    })
    .catch((err) => send(500, JSON.stringify({ error: String(err?.message ?? err) })));
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`minimal service listening on http://127.0.0.1:${server.address().port}\n`));
// Keep-alive connections would hold server.close() open: nothing here needs a graceful end.
process.on('SIGTERM', () => process.exit(0));
