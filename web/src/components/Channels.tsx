// Notification channels: create per type with that type's fields, test (the outcome in words),
// edit (name; config replaced whole, masked secrets sent back unchanged keep the stored ones), delete.
import { useState } from 'preact/hooks';
import { api, bodyOf } from '../api.ts';
import type { Channel, ChannelType } from '../types.ts';
import { ChannelRow } from './channels/ChannelRow.tsx';
import { ConfigFields, FIELDS, NameField, TYPE_LABEL } from './channels/fields.tsx';
import { Problem } from './Problem.tsx';
import { useAction } from './useAsync.ts';
import { FormActions } from './FormActions.tsx';

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
      made = await bodyOf(api.POST('/api/v1/notifications/channels', { body }));
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
          {(Object.keys(TYPE_LABEL) as ChannelType[]).map((t) => (
            <option key={t} value={t}>
              {TYPE_LABEL[t]}
            </option>
          ))}
        </select>
        <NameField id="nc-name" value={label} onChange={setLabel} />
        <ConfigFields type={type} config={config} onChange={setConfig} idPrefix="nc" />
        <Problem error={create.error} />
        <FormActions submitLabel="Add channel" disabled={create.busy} />
      </form>
    </section>
  );
}
