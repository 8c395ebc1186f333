// Builds the transports (one per channel type) behind the Transports dispatcher from the app's configuration.
import type { EgressGuard } from '../egress.ts';
import { chartsOnFirstUse, type ReportCharts } from '../charts/on-demand.ts';
import type { ChartImages } from './chat-webhook.ts';
import { EmailTransport } from './email.ts';
import { GoogleChatTransport } from './google-chat.ts';
import { MessengerTransport } from './messenger.ts';
import { SlackTransport } from './slack.ts';
import { TeamsTransport } from './teams.ts';
import { Transports } from './types.ts';
import { WebhookTransport } from './webhook.ts';

export interface TransportSettings {
  messengerApiUrl: string;
  smtpUrl?: string;
  smtpFrom: string;
  publicUrl?: string;
}

export function createTransports(
  settings: TransportSettings,
  egress: EgressGuard,
  charts: ReportCharts = chartsOnFirstUse(),
  images?: ChartImages,
): Transports {
  const chat = { publicUrl: settings.publicUrl, images };
  return new Transports({
    slack: new SlackTransport(egress, chat),
    teams: new TeamsTransport(egress, chat),
    google_chat: new GoogleChatTransport(egress, chat),
    messenger: new MessengerTransport(egress, charts, settings.messengerApiUrl),
    webhook: new WebhookTransport(egress),
    email: new EmailTransport({ smtpUrl: settings.smtpUrl, smtpFrom: settings.smtpFrom }, charts, egress),
  });
}

export * from './types.ts';
