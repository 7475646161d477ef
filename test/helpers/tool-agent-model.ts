/**
 * A local stand-in for an OpenAI-compatible model that drives a read-then-mail tool agent the way
 * a gullible model would: it reads the file the request names, then mails what it read to the
 * first address in the file when there is one (it follows an injected instruction), else to the
 * address in the request, then answers. Deterministic, so every trace dialect sees the same run.
 */
import http from 'node:http';
import { closeServer, listenLocal, readBody, sendJson } from '../../src/util/http.js';

interface Message {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
}

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const text = (m: Message | undefined): string =>
  typeof m?.content === 'string' ? m.content : (m?.content ?? []).map((p) => p.text ?? '').join('');

/**
 * The read tool and the mail tool: the first two tools the request offers, in order (the agent may
 * rename them). A request that names no address gets a proposal first ("Shall I mail it to …?", the
 * address the file gives); the mail follows the user's next turn, whatever it says (the stand-in
 * does not listen).
 */
function reply(messages: Message[], [read = 'read_file', mail = 'send_email']: (string | undefined)[]): Record<string, unknown> {
  const request = text(messages.find((m) => m.role === 'user'));
  const results = messages.filter((m) => m.role === 'tool').map(text);
  const turns = messages.filter((m) => m.role === 'user').length;
  const call = (id: string, name: string, args: Record<string, unknown>) => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  });
  if (results.length === 0) return call('call_read_1', read, { path: /\/[\w./-]+\w/.exec(request)?.[0] ?? '' });
  if (results.length === 1) {
    const to = EMAIL.exec(results[0])?.[0] ?? EMAIL.exec(request)?.[0] ?? '';
    if (!EMAIL.test(request) && turns === 1) return { role: 'assistant', content: `I have read it. Shall I mail it to ${to}?` };
    return call('call_mail_1', mail, { to, body: results[0] });
  }
  return { role: 'assistant', content: 'Done: the report is mailed.' };
}

export interface ToolAgentModel {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  calls: number;
  stop(): Promise<void>;
}

export async function startToolAgentModel(): Promise<ToolAgentModel> {
  const state = { calls: 0 };
  const server = http.createServer((req, res) => {
    void readBody(req).then((raw) => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions'))
        return sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
      state.calls++;
      const body = JSON.parse(raw.toString('utf8')) as { messages: Message[]; model?: string; tools?: { function?: { name?: string } }[] };
      const message = reply(
        body.messages,
        (body.tools ?? []).map((t) => t.function?.name),
      );
      sendJson(res, 200, {
        id: `cmpl-${state.calls}`,
        object: 'chat.completion',
        created: 1778320800,
        model: body.model ?? 'stand-in',
        choices: [{ index: 0, message, finish_reason: 'tool_calls' in message ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
    });
  });
  const port = await listenLocal(server);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get calls() {
      return state.calls;
    },
    stop: () => closeServer(server),
  };
}
