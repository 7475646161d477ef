// A local OpenAI-compatible model that answers every chat call after a fixed latency, in its own
// process like a real model server, so the bench measures saboteur's CPU and not the model's.
//   node bench/slow-model.mjs LATENCY_MS   → prints the port on stdout
import http from 'node:http';

const latencyMs = Number(process.argv[2] ?? 50);
const body = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1700000000,
  model: 'bench',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
});
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url?.endsWith('/models')) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"object":"list","data":[{"id":"bench","object":"model"}]}');
      return;
    }
    setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body), latencyMs);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
