// Reports to a Telegram-compatible Bot API: the text as sendMessage with parse_mode HTML (every
// value escaped, split at section boundaries to stay under the 4096-character limit), then one
// sendPhoto per chart. The bot token is part of the URL path, so no URL is ever put in an error
// message or a log line.
import crypto from 'node:crypto';
import type { ReportCharts } from '../charts/on-demand.ts';
import type { RenderedChart } from '../charts/renderer.ts';
import { columnsOf, formatCell } from '../charts/cells.ts';
import { retentionLines, retentionOf } from '../charts/retention.ts';
import { kpiLine } from './format.ts';
import { excerpt, fromEgressError, retryAfterMs, statusError, type HttpClient } from './http.ts';
import { DeliveryError, type ChannelTransport, type DeliveryContext, type DeliveryResult, type OutboundChannel } from './types.ts';
import type { Report, ReportSection } from '../../lib/report.ts';

export const MESSAGE_LIMIT = 4096;
export const CAPTION_LIMIT = 1024;
const TABLE_ROWS = 15;
const TABLE_COLUMNS = 6;
const CELL_WIDTH = 24;
export const BOT_TOKEN_PATTERN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, Math.max(0, max - 1))}…` : s;
}

/** A monospace table in <pre>, at most `maxRows` rows, columns padded to a common width. */
function preTable(section: ReportSection, maxRows: number): string {
  const columns = columnsOf(section).slice(0, TABLE_COLUMNS);
  const rows = section.rows.slice(0, maxRows);
  const cells = [
    columns.map((c) => clip(c.label || c.name, CELL_WIDTH)),
    ...rows.map((r) => columns.map((c) => clip(formatCell(r[c.name], c), CELL_WIDTH))),
  ];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  const numeric = columns.map((c) => ['money', 'integer', 'number', 'percent'].includes(c.type));
  const lines = cells.map((line) =>
    line
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((w) => '─'.repeat(w)).join('  '));
  let html = `<pre>${escapeHtml(lines.join('\n'))}</pre>`;
  const more = section.rows.length - rows.length;
  if (more > 0) html += `\n<i>… and ${more} more row${more === 1 ? '' : 's'}</i>`;
  return html;
}

function sectionBlock(section: ReportSection, limit: number): string {
  const head = [`<b>${escapeHtml(clip(section.title, 200))}</b>`];
  if (section.subtitle) head.push(`<i>${escapeHtml(clip(section.subtitle, 200))}</i>`);
  const kpi = kpiLine(section);
  if (kpi) return [...head, escapeHtml(kpi)].join('\n');
  if (!section.rows.length) return [...head, '<i>No data for this period.</i>'].join('\n');
  // A cohort as its triangle, the latest cohorts over the first periods (as wide as a table's columns).
  const triangle = retentionOf(section);
  const pre = (n: number) =>
    triangle
      ? `<pre>${escapeHtml(retentionLines(triangle, { cohorts: n, periods: TABLE_COLUMNS }).join('\n'))}</pre>`
      : preTable(section, n);
  // Fewer rows until the block fits one message.
  for (let n = Math.min(TABLE_ROWS, triangle?.rows.length ?? section.rows.length); n >= 1; n--) {
    const block = [...head, pre(n)].join('\n');
    if (block.length <= limit) return block;
  }
  return [...head, `<i>${section.rows.length} rows; see the chart or the e-mail report for the table.</i>`].join('\n');
}

/**
 * The report as HTML messages, each within the limit, split between blocks. Sections in
 * `pictured` are sent as photos with a caption instead, so the text leaves them out.
 */
export function messagesOf(report: Report, limit = MESSAGE_LIMIT, pictured: ReadonlySet<ReportSection> = new Set()): string[] {
  // Escaping can grow text up to 5x (&amp;): shorten the summary until the head block fits.
  let head = '';
  for (let max = 1500; max > 0; max = Math.floor(max / 2)) {
    head = `<b>${escapeHtml(clip(report.title, 300))}</b>\n${escapeHtml(clip(report.summary, max))}`;
    if (head.length <= limit) break;
  }
  const blocks = [head];
  for (const s of report.sections) if (!pictured.has(s)) blocks.push(sectionBlock(s, limit));
  const messages: string[] = [];
  let current = '';
  for (const b of blocks) {
    if (!current) current = b;
    else if (current.length + 2 + b.length <= limit) current += `\n\n${b}`;
    else {
      messages.push(current);
      current = b;
    }
  }
  if (current) messages.push(current);
  return messages;
}

export function captionOf(section: ReportSection): string {
  const kpi = kpiLine(section);
  const sub = [section.subtitle, kpi].filter(Boolean).join(' · ');
  const caption = `<b>${escapeHtml(clip(section.title, 300))}</b>${sub ? `\n${escapeHtml(clip(sub, 600))}` : ''}`;
  return caption.length <= CAPTION_LIMIT ? caption : `<b>${escapeHtml(clip(section.title, 200))}</b>`;
}

function multipart(
  fields: Record<string, string>,
  file: { field: string; filename: string; contentType: string; data: Buffer },
): { body: Buffer; contentType: string } {
  const boundary = `----insights${crypto.randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`, 'utf8'));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; ` +
        `filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      'utf8',
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface BotAnswer {
  ok?: boolean;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

export class MessengerTransport implements ChannelTransport {
  constructor(
    private readonly http: HttpClient,
    private readonly charts: ReportCharts,
    private readonly apiUrl: string,
  ) {}

  private async call(token: string, method: string, body: Buffer | string, contentType: string): Promise<void> {
    let res: Awaited<ReturnType<HttpClient['request']>>;
    try {
      res = await this.http.request(`${this.apiUrl}/bot${token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
    } catch (err) {
      throw fromEgressError(err);
    }
    let answer: BotAnswer | undefined;
    try {
      answer = res.json() as BotAnswer;
    } catch {
      answer = undefined;
    }
    if (res.status >= 200 && res.status < 300 && answer?.ok) return;
    if (!answer || typeof answer !== 'object' || answer.ok === undefined) {
      throw (
        statusError(res, 'The messenger API') ??
        new DeliveryError(`The messenger API gave an unreadable answer: ${excerpt(res.text())}`, { retryable: true })
      );
    }
    const code = answer.error_code ?? res.status;
    const reason = `Messenger API ${method}: ${excerpt(answer.description ?? `error ${code}`)}`;
    // The Bot API says when to come back in parameters.retry_after; a proxy in front of it may say
    // so in a Retry-After header instead.
    const after = answer.parameters?.retry_after;
    const hint = typeof after === 'number' && Number.isFinite(after) && after >= 0 ? after * 1000 : retryAfterMs(res);
    if (code === 429) throw new DeliveryError(reason, { retryable: true, retryAfterMs: hint });
    // 401 bad token, 403 bot blocked, 400 chat not found / bad markup: sending again will not help.
    throw new DeliveryError(reason, code >= 500 ? { retryable: true, retryAfterMs: hint } : { retryable: false });
  }

  async send(channel: OutboundChannel, report: Report, _ctx: DeliveryContext): Promise<DeliveryResult> {
    const token = channel.config.bot_token ?? '';
    const chatId = channel.config.chat_id ?? '';
    if (!BOT_TOKEN_PATTERN.test(token)) throw new DeliveryError('The channel has no valid bot token', { retryable: false });
    if (!chatId) throw new DeliveryError('The channel has no chat_id', { retryable: false });

    // Charts go as photos; KPIs and tables read better as text in a chat.
    const pictures = new Map<ReportSection, RenderedChart>();
    for (const section of report.sections) {
      const chart = section.kpi ? undefined : await this.charts.forSection(section);
      if (chart) pictures.set(section, chart);
    }
    const messages = messagesOf(report, MESSAGE_LIMIT, new Set(pictures.keys()));
    for (const text of messages) {
      await this.call(
        token,
        'sendMessage',
        JSON.stringify({ chat_id: chatId, text, parse_mode: 'HTML', disable_web_page_preview: true }),
        'application/json',
      );
    }
    let photos = 0;
    for (const [section, chart] of pictures) {
      const { body, contentType } = multipart(
        { chat_id: chatId, caption: captionOf(section), parse_mode: 'HTML' },
        { field: 'photo', filename: 'chart.png', contentType: 'image/png', data: chart.png },
      );
      await this.call(token, 'sendPhoto', body, contentType);
      photos++;
    }
    let documents = 0;
    if (report.document) {
      const pdf = await report.document();
      const { body, contentType } = multipart(
        { chat_id: chatId, caption: `<b>${escapeHtml(clip(report.title, 300))}</b>\nThe whole dashboard as a PDF.`, parse_mode: 'HTML' },
        {
          field: 'document',
          filename: pdf.filename,
          contentType: pdf.contentType,
          data: Buffer.from(pdf.content.buffer, pdf.content.byteOffset, pdf.content.byteLength),
        },
      );
      await this.call(token, 'sendDocument', body, contentType);
      documents++;
    }
    return {
      detail:
        `${messages.length} message${messages.length === 1 ? '' : 's'}, ${photos} ` +
        `chart${photos === 1 ? '' : 's'}${documents ? ', 1 PDF' : ''}`,
    };
  }
}
