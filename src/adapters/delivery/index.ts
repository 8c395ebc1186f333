// Builds the three transports behind the Transports dispatcher from the app's configuration.
import type { EgressGuard } from '../egress.ts';
import { chartsOnFirstUse, type ReportCharts } from '../charts/on-demand.ts';
import { EmailTransport } from './email.ts';
import { MessengerTransport } from './messenger.ts';
import { Transports } from './types.ts';
import { WebhookTransport } from './webhook.ts';

export interface TransportSettings {
  messengerApiUrl: string;
  smtpUrl?: string;
  smtpFrom: string;
}

export function createTransports(settings: TransportSettings, egress: EgressGuard, charts: ReportCharts = chartsOnFirstUse()): Transports {
  return new Transports({
    messenger: new MessengerTransport(egress, charts, settings.messengerApiUrl),
    webhook: new WebhookTransport(egress),
    email: new EmailTransport({ smtpUrl: settings.smtpUrl, smtpFrom: settings.smtpFrom }, charts, egress),
  });
}

export * from './types.ts';
