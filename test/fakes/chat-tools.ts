// Incoming webhooks of Slack, Microsoft Teams (Workflows) and Google Chat on loopback, answering
// as each service does: Slack 200 "ok" or a 4xx with its error as plain text (no_service,
// invalid_payload, channel_is_archived) and 429 with Retry-After; a Teams flow 202 Accepted with
// no body, 400 JSON when the payload does not fit its trigger; Google Chat 200 with the created
// message as JSON, errors as {error: {code, message, status}}.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Tool = 'slack' | 'teams' | 'google_chat';

export interface ReceivedPost {
  tool: Tool;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface FakeChatTools {
  origin: string;
  /** A webhook URL of a tool that exists (its secret part unique per call). */
  webhookUrl(tool: Tool): string;
  received: ReceivedPost[];
  /** Answers the next requests with these, in order, then the tool's normal answers again. */
  answerNext(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

let counter = 0;

function slackAnswer(body: any): ScriptedAnswer {
  if (!body || typeof body !== 'object') return { status: 400, body: 'invalid_payload' };
  if (typeof body.text !== 'string' && !Array.isArray(body.blocks)) return { status: 400, body: 'no_text' };
  if (Array.isArray(body.blocks) && (body.blocks.length > 50 || body.blocks.some((b: any) => typeof b?.type !== 'string')))
    return { status: 400, body: 'invalid_blocks' };
  return { status: 200, headers: { 'content-type': 'text/html' }, body: 'ok' };
}

function teamsAnswer(body: any): ScriptedAnswer {
  const card = body?.attachments?.[0];
  const ok =
    body?.type === 'message' &&
    card?.contentType === 'application/vnd.microsoft.card.adaptive' &&
    card.content?.type === 'AdaptiveCard' &&
    Number(card.content.version) >= 1.4;
  if (!ok) {
    return {
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { code: 'TriggerInputSchemaMismatch', message: 'The input body does not match the schema.' } }),
    };
  }
  return { status: 202, body: '' };
}

function googleChatAnswer(path: string, body: any): ScriptedAnswer {
  if (!body?.text && !body?.cardsV2?.length) {
    return {
      status: 400,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({ error: { code: 400, message: 'Message cannot be empty.', status: 'INVALID_ARGUMENT' } }),
    };
  }
  const space = /\/v1\/(spaces\/[^/]+)\/messages/.exec(path)?.[1] ?? 'spaces/unknown';
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify({
      name: `${space}/messages/${Date.now().toString(36)}`,
      sender: { name: 'users/114022495153014004089', type: 'BOT' },
      text: body.text,
      cardsV2: body.cardsV2,
      createTime: new Date().toISOString(),
      space: { name: space, type: 'ROOM' },
    }),
  };
}

export async function startFakeChatTools(): Promise<FakeChatTools> {
  const received: ReceivedPost[] = [];
  const scripted: ScriptedAnswer[] = [];
  const known = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const tool: Tool | undefined = path.startsWith('/services/')
        ? 'slack'
        : path.startsWith('/workflows/')
          ? 'teams'
          : path.startsWith('/v1/spaces/')
            ? 'google_chat'
            : undefined;
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      if (tool) received.push({ tool, path, headers: req.headers, body });
      let answer = scripted.shift();
      if (!answer) {
        if (!tool || !known.has(path.split('?')[0])) answer = { status: 404, body: tool === 'slack' ? 'no_service' : 'Not Found' };
        else if (tool === 'slack') answer = slackAnswer(body);
        else if (tool === 'teams') answer = teamsAnswer(body);
        else answer = googleChatAnswer(path, body);
      }
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    webhookUrl(tool) {
      const n = ++counter;
      const path =
        tool === 'slack'
          ? `/services/T0001/B000${n}/xoxsecret${n}abcdefghijkl`
          : tool === 'teams'
            ? `/workflows/a1b2c3d4${n}/triggers/manual/paths/invoke`
            : `/v1/spaces/AAAA${n}/messages`;
      known.add(path);
      return tool === 'teams'
        ? `${origin}${path}?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=teamsig${n}secretvalue`
        : tool === 'google_chat'
          ? `${origin}${path}?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token=gchat${n}secrettoken`
          : `${origin}${path}`;
    },
    answerNext: (...a) => void scripted.push(...a),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
