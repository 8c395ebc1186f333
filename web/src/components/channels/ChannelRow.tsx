// One channel in the list: its name, whether it is verified, what it sends to; Test (the outcome in
// words), Edit (name; config replaced whole, masked secrets sent back unchanged keep the stored
// ones) and Delete.
import { useState } from 'preact/hooks';
import { api, bodyOf } from '../../api.ts';
import type { Channel } from '../../types.ts';
import { Confirm } from '../Confirm.tsx';
import { Problem } from '../Problem.tsx';
import { useAction } from '../useAsync.ts';
import { ConfigFields, channelLabel, channelName, NameField } from './fields.tsx';
import { FormActions } from '../FormActions.tsx';

export function ChannelRow({
  channel,
  onChanged,
  onDeleted,
}: {
  channel: Channel;
  onChanged: (c: Channel) => void;
  onDeleted: () => void;
}) {
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
      const r = await bodyOf(api.POST('/api/v1/notifications/channels/{id}/test', { params: { path: { id: channel.id } }, body: {} }));
      const latency = r.latency_ms != null ? ` (${Math.round(r.latency_ms)} ms)` : '';
      setOutcome(`${r.success ? 'Test message sent' : 'Test failed'}: ${r.message}${latency}`);
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
    const ok = await act.run(async () =>
      onChanged(await bodyOf(api.PATCH('/api/v1/notifications/channels/{id}', { params: { path: { id: channel.id } }, body }))),
    );
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
          <FormActions submitLabel="Save" onCancel={() => setEditing(false)} disabled={act.busy} />
        </form>
      )}
      <Confirm
        title="Delete channel"
        message={
          `Delete ${name}? Insight subscriptions sending to it are deleted too, and it is removed from dashboard reports. ` +
          'The delivery log stays.'
        }
        confirmLabel="Delete"
        open={confirm}
        onClose={() => setConfirm(false)}
        onConfirm={() =>
          act
            .run(() => bodyOf(api.DELETE('/api/v1/notifications/channels/{id}', { params: { path: { id: channel.id } } })))
            .then((ok) => ok && onDeleted())
        }
      />
    </li>
  );
}
