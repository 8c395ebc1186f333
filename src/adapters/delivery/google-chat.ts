// Reports to a Google Chat incoming webhook: `text` (what notifications show) plus one cardsV2
// card with a header, the figures as decoratedText widgets, each chart as an image widget and a
// button opening the insight or dashboard. Chat answers 200 with the created message as JSON; its
// errors are JSON too ({error: {code, message, status}}), 429 RESOURCE_EXHAUSTED when rate limited.
import type { ReportCard } from './card.ts';
import { ChatWebhookTransport } from './chat-webhook.ts';
import type { DeliveryContext } from './types.ts';

export function googleChatBody(card: ReportCard, ctx: Pick<DeliveryContext, 'deliveryId'>) {
  const widgets: unknown[] = [{ textParagraph: { text: card.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') } }];
  for (const f of card.facts) widgets.push({ decoratedText: { topLabel: f.title, text: f.value, wrapText: true } });
  for (const image of card.images) widgets.push({ image: { imageUrl: image.url, altText: image.alt } });
  if (card.link) widgets.push({ buttonList: { buttons: [{ text: card.link.label, onClick: { openLink: { url: card.link.url } } }] } });
  return {
    text: `*${card.title}*\n${card.text}`,
    cardsV2: [{ cardId: `report-${ctx.deliveryId}`.slice(0, 64), card: { header: { title: card.title }, sections: [{ widgets }] } }],
  };
}

export class GoogleChatTransport extends ChatWebhookTransport {
  protected readonly tool = 'Google Chat';

  protected body(card: ReportCard, ctx: DeliveryContext) {
    return googleChatBody(card, ctx);
  }
}
