// A fake Telegram-compatible Bot API on loopback, speaking the real wire format: POST
// /bot<token>/<method> with a JSON, urlencoded or multipart/form-data body, answers
// {ok: true, result} or {ok: false, error_code, description, parameters?: {retry_after}}.
// It enforces what the real one does and a sender can get wrong: unknown tokens (401), unknown
// chats (400 chat not found), HTML that does not parse, text over 4096 and captions over 1024
// characters (counted after entity parsing).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BotCall {
  method: string;
  token: string;
  /** Text fields of the request. */
  params: Record<string, string>;
  /** File fields (sendPhoto's photo, sendDocument's document) with their bytes. */
  files: Record<string, { filename: string; contentType: string; data: Buffer }>;
  contentType: string;
}

export interface BotFailure {
  status: number;
  description: string;
  retryAfter?: number;
}

export interface FakeBotApi {
  /** Base URL to use as INSIGHTS_MESSENGER_API_URL. */
  url: string;
  calls: BotCall[];
  /** Tokens the API accepts, and the chat ids that exist. */
  tokens: Set<string>;
  chats: Set<string>;
  /** Answers the next calls with these failures, in order, before behaving normally again. */
  failNext(...failures: BotFailure[]): void;
  close(): Promise<void>;
}

const ALLOWED_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'tg-spoiler',
  'blockquote',
  'span',
]);

/** The text Telegram would show, or the parse error it would give, for parse_mode HTML. */
export function parseTelegramHtml(html: string): { text: string } | { error: string } {
  let text = '';
  const open: string[] = [];
  let i = 0;
  while (i < html.length) {
    const c = html[i];
    if (c === '<') {
      const end = html.indexOf('>', i);
      if (end < 0) return { error: `Bad Request: can't parse entities: unclosed start tag at byte offset ${i}` };
      const inner = html.slice(i + 1, end);
      const m = /^(\/?)([a-z-]+)(\s[^<>]*)?$/i.exec(inner);
      if (!m || !ALLOWED_TAGS.has(m[2].toLowerCase())) {
        return { error: `Bad Request: can't parse entities: Unsupported start tag "${inner.split(/\s/)[0]}" at byte offset ${i}` };
      }
      const name = m[2].toLowerCase();
      if (m[1]) {
        if (open.pop() !== name)
          return {
            error: `Bad Request: can't parse entities: Unmatched end tag at byte offset ${i}, expected "</${open[open.length] ?? ''}>"`,
          };
      } else open.push(name);
      i = end + 1;
    } else if (c === '&') {
      const m = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/i.exec(html.slice(i));
      if (!m) return { error: `Bad Request: can't parse entities: Character entity expected at byte offset ${i}` };
      const e = m[1].toLowerCase();
      text +=
        e === 'lt'
          ? '<'
          : e === 'gt'
            ? '>'
            : e === 'amp'
              ? '&'
              : e === 'quot'
                ? '"'
                : String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
      i += m[0].length;
    } else if (c === '>') {
      return { error: `Bad Request: can't parse entities: Unexpected end tag at byte offset ${i}` };
    } else {
      text += c;
      i++;
    }
  }
  if (open.length)
    return { error: `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${open[open.length - 1]}"` };
  return { text };
}

function parseMultipart(body: Buffer, boundary: string): { params: Record<string, string>; files: BotCall['files'] } {
  const params: Record<string, string> = {};
  const files: BotCall['files'] = {};
  const delimiter = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delimiter);
  while (pos >= 0) {
    const start = pos + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) throw new Error('multipart body is not terminated');
    const part = body.subarray(start + 2, next - 2); // skip CRLF after the delimiter and before the next
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) throw new Error('multipart part has no header block');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const data = part.subarray(headerEnd + 4);
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    if (!name) throw new Error('multipart part has no name');
    const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
    if (filename !== undefined) {
      files[name] = {
        filename,
        contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1] ?? 'application/octet-stream',
        data: Buffer.from(data),
      };
    } else params[name] = data.toString('utf8');
    pos = next;
  }
  return { params, files };
}

export async function startFakeBotApi(options: { tokens?: string[]; chats?: string[] } = {}): Promise<FakeBotApi> {
  const calls: BotCall[] = [];
  const tokens = new Set(options.tokens ?? []);
  const chats = new Set(options.chats ?? []);
  const failures: BotFailure[] = [];
  let messageId = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const fail = (status: number, description: string, parameters?: Record<string, unknown>) =>
        answer(status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });

      const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !m) return fail(404, 'Not Found');
      const [, token, method] = m;
      const contentType = req.headers['content-type'] ?? '';
      const body = Buffer.concat(chunks);
      let call: BotCall;
      try {
        if (contentType.startsWith('application/json')) {
          const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
          call = {
            method,
            token,
            contentType,
            files: {},
            params: Object.fromEntries(Object.entries(json).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])),
          };
        } else if (contentType.startsWith('multipart/form-data')) {
          const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
          if (!boundary) return fail(400, 'Bad Request: multipart boundary missing');
          call = { method, token, contentType, ...parseMultipart(body, boundary[1] ?? boundary[2]) };
        } else if (contentType.startsWith('application/x-www-form-urlencoded')) {
          call = { method, token, contentType, files: {}, params: Object.fromEntries(new URLSearchParams(body.toString('utf8'))) };
        } else {
          call = { method, token, contentType, files: {}, params: {} };
        }
      } catch (err) {
        return fail(400, `Bad Request: ${(err as Error).message}`);
      }
      calls.push(call);

      const failure = failures.shift();
      if (failure)
        return fail(
          failure.status,
          failure.description,
          failure.retryAfter !== undefined ? { retry_after: failure.retryAfter } : undefined,
        );
      if (!tokens.has(token)) return fail(401, 'Unauthorized');
      if (method === 'getMe') return answer(200, { ok: true, result: { id: 1, is_bot: true, first_name: 'Fake', username: 'fake_bot' } });
      if (method !== 'sendMessage' && method !== 'sendPhoto' && method !== 'sendDocument') return fail(404, 'Not Found: method not found');

      const p = call.params;
      if (!p.chat_id) return fail(400, 'Bad Request: chat_id is empty');
      if (!chats.has(p.chat_id)) return fail(400, 'Bad Request: chat not found');
      const field = method === 'sendMessage' ? 'text' : 'caption';
      const raw = p[field] ?? '';
      if (method === 'sendMessage' && !raw) return fail(400, 'Bad Request: message text is empty');
      let shown = raw;
      if (p.parse_mode === 'HTML') {
        const parsed = parseTelegramHtml(raw);
        if ('error' in parsed) return fail(400, parsed.error);
        shown = parsed.text;
      }
      if (method === 'sendMessage' && shown.length > 4096) return fail(400, 'Bad Request: message is too long');
      if (method === 'sendDocument') {
        if (shown.length > 1024) return fail(400, 'Bad Request: message caption is too long');
        const document = call.files.document;
        if (!document || document.data.length === 0) return fail(400, 'Bad Request: there is no document in the request');
        // The Bot API's upload limit for documents.
        if (document.data.length > 50 * 1024 * 1024) return fail(413, 'Request Entity Too Large');
      }
      if (method === 'sendPhoto') {
        if (shown.length > 1024) return fail(400, 'Bad Request: message caption is too long');
        const photo = call.files.photo;
        if (!photo || photo.data.length === 0) return fail(400, 'Bad Request: there is no photo in the request');
        if (!photo.data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
          return fail(400, 'Bad Request: IMAGE_PROCESS_FAILED');
        }
      }
      answer(200, {
        ok: true,
        result: {
          message_id: ++messageId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: Number(p.chat_id) || p.chat_id },
          [field]: shown,
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    tokens,
    chats,
    failNext: (...f) => void failures.push(...f),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
