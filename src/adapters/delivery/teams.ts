// Reports to a Microsoft Teams Workflows webhook ("When a Teams webhook request is received"): a
// `message` whose one attachment is an Adaptive Card 1.4 (the version Teams renders): the title,
// the summary, the figures as a FactSet, each chart as an Image and an Action.OpenUrl to the
// insight or dashboard. The flow answers 202 Accepted when it took the message.
import type { ReportCard } from './card.ts';
import { ChatWebhookTransport } from './chat-webhook.ts';

export const ADAPTIVE_CARD = 'application/vnd.microsoft.card.adaptive';

export function teamsBody(card: ReportCard) {
  const body: unknown[] = [
    { type: 'TextBlock', text: card.title, weight: 'Bolder', size: 'Medium', wrap: true, style: 'heading' },
    { type: 'TextBlock', text: card.text, wrap: true },
  ];
  if (card.facts.length) body.push({ type: 'FactSet', facts: card.facts.map((f) => ({ title: f.title, value: f.value })) });
  for (const image of card.images) body.push({ type: 'Image', url: image.url, altText: image.alt, size: 'Stretch' });
  return {
    type: 'message',
    attachments: [
      {
        contentType: ADAPTIVE_CARD,
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          msteams: { width: 'Full' },
          body,
          ...(card.link ? { actions: [{ type: 'Action.OpenUrl', title: card.link.label, url: card.link.url }] } : {}),
        },
      },
    ],
  };
}

export class TeamsTransport extends ChatWebhookTransport {
  protected readonly tool = 'Microsoft Teams';

  protected body(card: ReportCard) {
    return teamsBody(card);
  }
}
