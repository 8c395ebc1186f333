// Notification channels: create per type with that type's fields, test (the outcome in words),
// edit (name; config replaced whole, masked secrets sent back unchanged keep the stored ones), delete.
import { useState } from 'preact/hooks';
import { del, patch, post } from '../api.ts';
import type { Channel, ChannelType } from '../types.ts';
import { Confirm } from './Confirm.tsx';
import { Problem } from './Problem.tsx';
import { useAction } from './useAsync.ts';

const FIELDS: Record<ChannelType, [key: string, label: string, type: 'url' | 'email' | 'password' | 'text'][]> = {
  webhook: [['webhook_url', 'Webhook URL (https)', 'url']],
  email: [['email', 'E-mail address', 'email']],
  messenger: [
    ['bot_token', 'Bot token', 'password'],
    ['chat_id', 'Chat ID', 'text'],
  ],
};

const TYPE_LABEL: Record<ChannelType, string> = { webhook: 'Webhook', email: 'E-mail', messenger: 'Messenger' };

/** What the channel is called: its name, or (unnamed) its type and where it sends. */
export function channelName(c: Pick<Channel, 'channel_type' | 'config'> & { name?: string | null }): string {
  return c.name || channelLabel(c);
}

/** The label derived from type and config ("Webhook: https://…"). */
export function channelLabel(c: Pick<Channel, 'channel_type' | 'config'>): string {
  const target = c.config.webhook_url ?? c.config.email ?? (c.config.chat_id ? `chat ${c.config.chat_id}` : '');
  return `${TYPE_LABEL[c.channel_type]}${target ? `: ${target}` : ''}`;
}

function NameField({ value, onChange, id }: { value: string; onChange: (v: string) => void; id: string }) {
  return (
    <div>
      <label for={id}>Name (optional)</label>
      <input id={id} maxLength={100} autoComplete="off" value={value} onInput={(e) => onChange(e.currentTarget.value)} />
    </div>
  );
}

function ConfigFields({
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

function ChannelRow({ channel, onChanged, onDeleted }: { channel: Channel; onChanged: (c: Channel) => void; onDeleted: () => void }) {
  const [editing, setEditing] = useState(false);
  const [config, setConfig] = useState(channel.config);
  const [label, setLabel] = useState(channel.name ?? '');
  const [outcome, setOutcome] = useState<string>();
  const [confirm, setConfirm] = useState(false);
  const act = useAction();
  const name = channelName(channel);

  const test = async () => {
    setOutcome(undefined);
    const ok = await act.run(async () => {
      const r = await post<{ success: boolean; message: string; latency_ms?: number | null }>(
        `/notifications/channels/${channel.id}/test`,
        {},
      );
      setOutcome(
        `${r.success ? 'Test message sent' : 'Test failed'}: ${r.message}${r.latency_ms != null ? ` (${Math.round(r.latency_ms)} ms)` : ''}`,
      );
      onChanged({ ...channel, is_verified: r.success });
    });
    // A failed test answers 502 with the upstream's reason (shown as the problem) and unverifies.
    if (!ok) onChanged({ ...channel, is_verified: false });
  };

  const save = async (e: Event) => {
    e.preventDefault();
    // The config goes only when it changed: a PATCH of config un-verifies the channel, a rename does not.
    const body: { name?: string | null; config?: Record<string, string> } = {};
    if (JSON.stringify(config) !== JSON.stringify(channel.config)) body.config = config;
    if (label.trim() !== (channel.name ?? '')) body.name = label.trim() || null;
    if (!body.config && body.name === undefined) {
      setEditing(false);
      return;
    }
    const ok = await act.run(async () => onChanged(await patch<Channel>(`/notifications/channels/${channel.id}`, body)));
    if (ok) setEditing(false);
  };

  return (
    <li class="item">
      <div class="item-main">
        <strong>{name}</strong>
        <span class={`badge ${channel.is_verified ? 'ok' : ''}`}>{channel.is_verified ? 'verified' : 'not verified'}</span>
        <div class="muted small">
          {[
            ...(channel.name ? [channelLabel(channel)] : []),
            ...Object.entries(channel.config)
              .filter(([k]) => !['webhook_url', 'email'].includes(k))
              .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${k.includes('secret') ? v.slice(0, 10) + '…' : v}`),
          ].join(' · ')}
        </div>
      </div>
      <div class="item-actions">
        <button type="button" onClick={test} disabled={act.busy} aria-label={`Test ${name}`}>
          Test
        </button>
        <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing} aria-label={`Edit ${name}`}>
          Edit
        </button>
        <button type="button" class="danger" onClick={() => setConfirm(true)} aria-label={`Delete ${name}`}>
          Delete
        </button>
      </div>
      {outcome && (
        <p class="outcome" role="status">
          {outcome}
        </p>
      )}
      <Problem error={act.error} />
      {editing && (
        <form class="form inset" onSubmit={save} aria-label={`Edit ${name}`}>
          <NameField id={`ch-${channel.id}-name`} value={label} onChange={setLabel} />
          <ConfigFields type={channel.channel_type} config={config} onChange={setConfig} idPrefix={`ch-${channel.id}`} />
          <p class="muted small">Saving a changed address resets the channel to not verified; test it again afterwards.</p>
          <div class="actions">
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <button type="submit" class="primary" disabled={act.busy}>
              Save
            </button>
          </div>
        </form>
      )}
      <Confirm
        title="Delete channel"
        message={`Delete ${name}? Insight subscriptions sending to it are deleted too, and it is removed from dashboard reports. The delivery log stays.`}
        confirmLabel="Delete"
        open={confirm}
        onClose={() => setConfirm(false)}
        onConfirm={() => act.run(() => del(`/notifications/channels/${channel.id}`)).then((ok) => ok && onDeleted())}
      />
    </li>
  );
}

export function Channels({
  channels,
  setChannels,
  reloadSubscriptions,
}: {
  channels: Channel[];
  setChannels: (c: Channel[]) => void;
  reloadSubscriptions: () => void;
}) {
  const [type, setType] = useState<ChannelType>('webhook');
  const [config, setConfig] = useState<Record<string, string>>({});
  const [label, setLabel] = useState('');
  const create = useAction();

  const submit = async (e: Event) => {
    e.preventDefault();
    const body = {
      channel_type: type,
      config: Object.fromEntries(FIELDS[type].map(([k]) => [k, (config[k] ?? '').trim()])),
      ...(label.trim() ? { name: label.trim() } : {}),
    };
    let made: Channel | undefined;
    const ok = await create.run(async () => {
      made = await post<Channel>('/notifications/channels', body);
    });
    if (ok && made) {
      setChannels([made, ...channels]);
      setConfig({});
      setLabel('');
    }
  };

  return (
    <section aria-labelledby="channels-h" class="panel">
      <h2 id="channels-h">Channels</h2>
      {channels.length === 0 ? (
        <p class="empty">No channels yet: add a webhook, an e-mail address or a messenger chat to send reports to.</p>
      ) : (
        <ul class="items" aria-label="Channels">
          {channels.map((c) => (
            <ChannelRow
              key={c.id}
              channel={c}
              onChanged={(n) => setChannels(channels.map((x) => (x.id === n.id ? n : x)))}
              onDeleted={() => {
                setChannels(channels.filter((x) => x.id !== c.id));
                reloadSubscriptions();
              }}
            />
          ))}
        </ul>
      )}
      <form class="form card" onSubmit={submit} aria-labelledby="new-channel-h">
        <h3 id="new-channel-h">New channel</h3>
        <label for="nc-type">Channel type</label>
        <select
          id="nc-type"
          value={type}
          onChange={(e) => {
            setType(e.currentTarget.value as ChannelType);
            setConfig({});
          }}
        >
          <option value="webhook">Webhook</option>
          <option value="email">E-mail</option>
          <option value="messenger">Messenger</option>
        </select>
        <NameField id="nc-name" value={label} onChange={setLabel} />
        <ConfigFields type={type} config={config} onChange={setConfig} idPrefix="nc" />
        <Problem error={create.error} />
        <div class="actions">
          <button type="submit" class="primary" disabled={create.busy}>
            Add channel
          </button>
        </div>
      </form>
    </section>
  );
}
