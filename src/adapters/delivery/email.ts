// Reports by e-mail over SMTP (SMTP_URL): an HTML body with every section, each chart as an
// inline PNG (cid:), and the rows of each section as a CSV attachment.
//
// The SMTP relay is set by the operator, not by users, but it still goes through the egress
// address policy: its host is resolved here, every address checked with the guard, and the
// connection made to the checked address (with the original name for TLS), so a name that
// resolves to an internal address is refused unless INSIGHTS_EGRESS_ALLOW lists it. A relay on
// loopback or a private network must therefore be listed there (e.g. 127.0.0.1/32).
import dns from 'node:dns/promises';
import net from 'node:net';
import type { ReportCharts } from '../charts/on-demand.ts';
import { emailHtml, emailText, type EmailSection } from './email-html.ts';
import { slug, toCsv } from './format.ts';
import { DeliveryError, type ChannelTransport, type DeliveryContext, type DeliveryResult, type OutboundChannel } from './types.ts';
import type { Report } from '../../lib/report.ts';

export interface AddressPolicy {
  isAllowed(address: string): boolean;
}

export interface EmailSettings {
  smtpUrl?: string;
  smtpFrom: string;
}

const TIMEOUT_MS = 15_000;

interface SmtpFailure {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

function fromSmtpError(err: unknown): DeliveryError {
  if (err instanceof DeliveryError) return err;
  const e = (err ?? {}) as SmtpFailure;
  const reason = `SMTP: ${(e.response ?? e.message ?? String(err)).replace(/\s+/g, ' ').slice(0, 300)}`;
  if (e.code === 'EAUTH') return new DeliveryError(reason, { retryable: false, cause: err });
  // 4xx replies are temporary by definition (greylisting, mailbox busy), 5xx final.
  if (typeof e.responseCode === 'number') return new DeliveryError(reason, { retryable: e.responseCode < 500, cause: err });
  return new DeliveryError(reason, { retryable: true, cause: err });
}

export class EmailTransport implements ChannelTransport {
  constructor(
    private readonly settings: EmailSettings,
    private readonly charts: ReportCharts,
    private readonly policy: AddressPolicy,
  ) {}

  /** The relay's host resolved to an address the egress policy allows. */
  private async relayAddress(host: string): Promise<string> {
    const bare = host.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (net.isIP(bare)) addresses = [bare];
    else {
      try {
        addresses = (await dns.lookup(bare, { all: true })).map((a) => a.address);
      } catch (err) {
        throw new DeliveryError(`SMTP: the relay host ${host} could not be resolved`, { retryable: true, cause: err });
      }
    }
    const refused = addresses.find((a) => !this.policy.isAllowed(a));
    if (refused || !addresses.length) {
      throw new DeliveryError(
        `Refused: the SMTP relay ${host} resolves to ${refused ?? 'no address'}, which outbound calls may not reach ` +
          `(list it in INSIGHTS_EGRESS_ALLOW)`,
        { retryable: false },
      );
    }
    return addresses[0];
  }

  async send(channel: OutboundChannel, report: Report, ctx: DeliveryContext): Promise<DeliveryResult> {
    if (!this.settings.smtpUrl) {
      throw new DeliveryError('E-mail is not configured on this server: set SMTP_URL (smtp:// or smtps://) to send e-mail', {
        retryable: false,
      });
    }
    const to = channel.config.email;
    if (!to) throw new DeliveryError('The channel has no e-mail address', { retryable: false });

    const url = new URL(this.settings.smtpUrl);
    const host = url.hostname;
    const address = await this.relayAddress(host);
    const secure = url.protocol === 'smtps:';
    // Loaded on the first e-mail: a process without e-mail channels never holds it (docs/footprint.md).
    const { default: nodemailer } = await import('nodemailer');
    const transporter = nodemailer.createTransport({
      host: address,
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      // Certificates are checked against the configured name, not the address we connect to.
      tls: net.isIP(host.replace(/^\[|\]$/g, '')) ? undefined : { servername: host },
      name: 'insights.local',
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    });

    const sections: EmailSection[] = [];
    for (const [i, section] of report.sections.entries()) {
      const rendered = section.kpi ? undefined : await this.charts.forSection(section);
      sections.push({
        section,
        chart: rendered ? { ...rendered, cid: `chart-${i + 1}-${ctx.deliveryId}@insights` } : undefined,
        csvFilename: section.rows.length ? `${String(i + 1).padStart(2, '0')}-${slug(section.title)}.csv` : undefined,
      });
    }
    const attachments = [
      ...sections
        .filter((s) => s.chart)
        .map((s) => ({
          filename: `${slug(s.section.title)}.png`,
          content: s.chart!.png,
          contentType: 'image/png',
          cid: s.chart!.cid,
          contentDisposition: 'inline' as const,
        })),
      ...sections
        .filter((s) => s.csvFilename)
        .map((s) => ({ filename: s.csvFilename!, content: toCsv(s.section), contentType: 'text/csv; charset=utf-8' })),
    ];
    if (report.document) {
      const pdf = await report.document();
      attachments.unshift({ filename: pdf.filename, content: pdf.content, contentType: pdf.contentType } as (typeof attachments)[number]);
    }

    try {
      const info = await transporter.sendMail({
        from: this.settings.smtpFrom,
        to,
        // Names come from users: never let one break out of the Subject header.
        subject: report.title.replace(/[\r\n\t]+/g, ' ').slice(0, 250),
        // A stable Message-ID per delivery lets mail systems drop a resend of the same delivery.
        messageId: `<${ctx.deliveryId}@insights>`,
        date: ctx.sentAt,
        html: emailHtml(report, sections),
        text: emailText(report),
        attachments,
      });
      const refused = (info.rejected ?? []).length;
      if (refused) throw new DeliveryError(`SMTP: the relay refused the recipient`, { retryable: false });
      return { detail: `accepted by the SMTP relay: ${(info.response ?? '').slice(0, 120)}` };
    } catch (err) {
      throw fromSmtpError(err);
    } finally {
      transporter.close();
    }
  }
}
