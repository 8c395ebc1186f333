// A notification channel's fields by type, its name in words, and the name and config inputs its
// forms share (new channel, edit).
import type { Channel, ChannelType } from '../../types.ts';

export const FIELDS: Record<ChannelType, [key: string, label: string, type: 'url' | 'email' | 'password' | 'text'][]> = {
  webhook: [['webhook_url', 'Webhook URL (https)', 'url']],
  email: [['email', 'E-mail address', 'email']],
  messenger: [
    ['bot_token', 'Bot token', 'password'],
    ['chat_id', 'Chat ID', 'text'],
  ],
  // The incoming webhook's URL is the credential: typed like a password, shown masked once saved.
  slack: [['webhook_url', 'Slack incoming webhook URL', 'password']],
  teams: [['webhook_url', 'Teams Workflows webhook URL', 'password']],
  google_chat: [['webhook_url', 'Google Chat webhook URL', 'password']],
};

export const TYPE_LABEL: Record<ChannelType, string> = {
  webhook: 'Webhook',
  email: 'E-mail',
  messenger: 'Messenger',
  slack: 'Slack',
  teams: 'Microsoft Teams',
  google_chat: 'Google Chat',
};

/** What the channel is called: its name, or (unnamed) its type and where it sends. */
export function channelName(c: Pick<Channel, 'channel_type' | 'config'> & { name?: string | null }): string {
  return c.name || channelLabel(c);
}

/** The label derived from type and config ("Webhook: https://…"). */
export function channelLabel(c: Pick<Channel, 'channel_type' | 'config'>): string {
  const target = c.config.webhook_url ?? c.config.email ?? (c.config.chat_id ? `chat ${c.config.chat_id}` : '');
  return `${TYPE_LABEL[c.channel_type]}${target ? `: ${target}` : ''}`;
}

export function NameField({ value, onChange, id }: { value: string; onChange: (v: string) => void; id: string }) {
  return (
    <div>
      <label for={id}>Name (optional)</label>
      <input id={id} maxLength={100} autoComplete="off" value={value} onInput={(e) => onChange(e.currentTarget.value)} />
    </div>
  );
}

export function ConfigFields({
  type,
  config,
  onChange,
  idPrefix,
}: {
  type: ChannelType;
  config: Record<string, string>;
  onChange: (c: Record<string, string>) => void;
  idPrefix: string;
}) {
  return (
    <>
      {FIELDS[type].map(([key, label, inputType]) => (
        <div key={key}>
          <label for={`${idPrefix}-${key}`}>{label}</label>
          <input
            id={`${idPrefix}-${key}`}
            type={inputType as 'text'}
            required
            autoComplete="off"
            value={config[key] ?? ''}
            onInput={(e) => onChange({ ...config, [key]: e.currentTarget.value })}
          />
        </div>
      ))}
    </>
  );
}
