// Reports to a Slack incoming webhook as Block Kit: `text` is the fallback shown in
// notifications, the blocks are a header, the summary, the figures as fields (10 per section
// block), each chart as an image block and a button to the insight or dashboard. Slack answers
// 200 "ok"; its errors are 4xx with a plain-text reason (invalid_payload, no_service,
// channel_is_archived…), final, and 429 with Retry-After, honoured by the worker.
import type { ReportCard } from './card.ts';
import { cardText } from './card.ts';
import { ChatWebhookTransport } from './chat-webhook.ts';
import { excerpt } from './http.ts';
import { DeliveryError } from './types.ts';

const plain = (text: string, max: number) => ({ type: 'plain_text', text: text.length > max ? `${text.slice(0, max - 1)}…` : text });
// mrkdwn reads &, < and > as markup: escaped as Slack asks.
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text: text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') });

export function slackBody(card: ReportCard): { text: string; blocks: unknown[] } {
  const blocks: unknown[] = [
    { type: 'header', text: plain(card.title, 150) },
    { type: 'section', text: mrkdwn(card.text) },
  ];
  for (let i = 0; i < card.facts.length; i += 10) {
    blocks.push({
      type: 'section',
      fields: card.facts.slice(i, i + 10).map((f) => mrkdwn(`*${f.title}*\n${f.value}`)),
    });
  }
  for (const image of card.images) blocks.push({ type: 'image', image_url: image.url, alt_text: image.alt });
  if (card.link) {
    blocks.push({ type: 'actions', elements: [{ type: 'button', text: plain(card.link.label, 75), url: card.link.url }] });
  }
  return { text: cardText(card), blocks: blocks.slice(0, 50) };
}

export class SlackTransport extends ChatWebhookTransport {
  protected readonly tool = 'Slack';

  protected body(card: ReportCard) {
    return slackBody(card);
  }

  protected accepted(_status: number, text: string): void {
    if (text.trim() !== 'ok' && text.trim() !== '') {
      throw new DeliveryError(`Slack did not post the message: ${excerpt(text)}`, { retryable: false });
    }
  }
}
