// What a channel's config may hold, per type, and which keys are secrets. Every problem is a 400
// naming the key as /body/config/<key>.
import { BOT_TOKEN_PATTERN } from '../../adapters/delivery/messenger.ts';
import { SIGNING_SECRET_PATTERN } from '../../adapters/delivery/webhook.ts';
import type { ChannelType } from '../../adapters/delivery/types.ts';
import { AppError, type FieldError } from '../../lib/errors.ts';
import { maskSecret } from '../../lib/secrets.ts';

interface KeyRule {
  required: boolean;
  secret: boolean;
  /** An error message, or undefined when the value is fine. */
  check(value: string): string | undefined;
}

// A practical address check: one @, no spaces or header-breaking characters, a dotted domain.
const EMAIL = /^[^\s@<>()[\],;:"\\]{1,64}@(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/**
 * A URL check for webhook targets. A signed webhook takes https only. A chat tool's incoming
 * webhook (whoever holds the URL can post, so it is a secret) takes http too, as self-hosted
 * relays use it; the egress guard still decides which addresses may be reached. Credentials in
 * the URL are refused: they would be shown back unmasked, and the signature or the URL's own
 * secret authenticates us instead.
 */
const webUrl =
  (httpToo: boolean) =>
  (value: string): string | undefined => {
    const scheme = httpToo ? 'http(s)://' : 'https://';
    if (value.length > 2048) return 'must be at most 2048 characters';
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return `must be a valid ${scheme} URL`;
    }
    if (url.protocol !== 'https:' && !(httpToo && url.protocol === 'http:')) return `must be an ${scheme} URL`;
    if (url.username || url.password) return 'must not contain a user name or password';
    if (!url.hostname) return 'must name a host';
    return undefined;
  };
const httpsUrl = webUrl(false);

const CHAT_WEBHOOK: Record<string, KeyRule> = { webhook_url: { required: true, secret: true, check: webUrl(true) } };

export const CONFIG_RULES: Record<ChannelType, Record<string, KeyRule>> = {
  messenger: {
    bot_token: {
      required: true,
      secret: true,
      check: (v) =>
        BOT_TOKEN_PATTERN.test(v) ? undefined : 'must be a bot token like 123456789:AA… (digits, a colon, then letters, digits, _ or -)',
    },
    chat_id: {
      required: true,
      secret: false,
      check: (v) =>
        /^-?\d{1,20}$/.test(v) || /^@[A-Za-z][A-Za-z0-9_]{3,31}$/.test(v) ? undefined : 'must be a numeric chat id or an @channel username',
    },
  },
  email: {
    email: {
      required: true,
      secret: false,
      check: (v) => (v.length <= 254 && EMAIL.test(v) ? undefined : 'must be a valid e-mail address'),
    },
  },
  webhook: {
    webhook_url: { required: true, secret: false, check: httpsUrl },
    // Generated on create when absent; a client may bring its own in the spec's whsec_ form.
    signing_secret: {
      required: false,
      secret: true,
      check: (v) =>
        SIGNING_SECRET_PATTERN.test(v) && Buffer.from(v.slice(6), 'base64').length >= 24
          ? undefined
          : 'must be a Standard Webhooks secret: whsec_ followed by at least 24 bytes in base64',
    },
  },
  slack: CHAT_WEBHOOK,
  teams: CHAT_WEBHOOK,
  google_chat: CHAT_WEBHOOK,
};

export const isSecretKey = (type: ChannelType, key: string): boolean => CONFIG_RULES[type][key]?.secret ?? false;

/**
 * How a secret is shown. A secret URL keeps its scheme and host, so people can tell Slack from
 * Teams, and hides the path that carries the credential but for its last 4 characters.
 */
export function maskConfigValue(key: string, value: string): string {
  if (key === 'webhook_url') {
    try {
      const url = new URL(value);
      return `${url.protocol}//${url.host}/****${value.length >= 24 ? value.slice(-4) : ''}`;
    } catch {
      return '****';
    }
  }
  return maskSecret(value);
}

/**
 * Checks a config against its type's rules. keepMasked lists secret keys whose value is the
 * stored secret's mask: those are accepted as "keep what is stored" without checking.
 */
export function checkConfig(type: ChannelType, config: Record<string, string>, keepMasked: Set<string> = new Set()): void {
  const rules = CONFIG_RULES[type];
  const errors: FieldError[] = [];
  for (const key of Object.keys(config)) {
    if (!rules[key])
      errors.push({
        path: `/body/config/${key}`,
        message: `is not a known field for ${type} channels (known: ${Object.keys(rules).join(', ')})`,
      });
  }
  for (const [key, rule] of Object.entries(rules)) {
    const value = config[key];
    if (value === undefined) {
      if (rule.required) errors.push({ path: `/body/config/${key}`, message: 'is required' });
      continue;
    }
    if (keepMasked.has(key)) continue;
    const problem = rule.check(value.trim() === value ? value : ' ');
    if (problem) errors.push({ path: `/body/config/${key}`, message: problem });
  }
  if (errors.length) {
    throw new AppError('VALIDATION_FAILED', errors.map((e) => `${e.path.replace('/body/', '')}: ${e.message}`).join('; '), { errors });
  }
}
