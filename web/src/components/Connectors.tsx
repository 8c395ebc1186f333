// AI connectors: the key is tested before it can be saved; saved keys are only ever shown masked.
import { useState } from 'preact/hooks';
import { api, bodyOf } from '../api.ts';
import { isManager, useSession } from '../session.ts';
import type { Connector } from '../types.ts';
import { Confirm } from './Confirm.tsx';
import { ConnectorForm, label } from './connectors/ConnectorForm.tsx';
import { Problem } from './Problem.tsx';
import { useAction, useAsync } from './useAsync.ts';

export function Connectors() {
  const session = useSession();
  const manager = isManager(session);
  const list = useAsync(() => bodyOf(api.GET('/api/v1/ai/connectors')), []);
  const act = useAction();
  const [deleting, setDeleting] = useState<Connector | null>(null);
  const setActive = (c: Connector, active: boolean) =>
    act
      .run(() =>
        bodyOf(api.PATCH('/api/v1/ai/connectors/{provider}', { params: { path: { provider: c.provider } }, body: { is_active: active } })),
      )
      .then(() => list.reload());

  return (
    <section aria-labelledby="conn-h" class="panel">
      <h2 id="conn-h">AI connectors</h2>
      <p class="muted">
        With no active connector, chat uses the built-in question parser. A connector only turns questions into queries: the numbers always
        come from the insight engine.
      </p>
      <Problem error={list.error ?? act.error} />
      {list.data && list.data.length === 0 && <p class="empty">No connectors.</p>}
      <ul class="items" aria-label="AI connectors">
        {list.data?.map((c) => (
          <li key={c.provider} class="item">
            <div class="item-main">
              <strong>{label(c.provider)}</strong>
              {c.is_active && <span class="badge ok">active</span>}
              <div class="muted small">
                {c.model_label || c.model || 'default model'} · key <code>{c.api_key_masked}</code>
                {c.base_url ? ` · ${c.base_url}` : ''}
              </div>
            </div>
            {manager && (
              <div class="item-actions">
                <button type="button" disabled={act.busy} onClick={() => setActive(c, !c.is_active)}>
                  {c.is_active ? 'Deactivate' : 'Make active'}
                </button>
                <button type="button" class="danger" aria-label={`Delete ${label(c.provider)}`} onClick={() => setDeleting(c)}>
                  Delete
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {manager && <ConnectorForm onSaved={() => list.reload()} />}
      <Confirm
        title="Delete connector"
        message={`Delete the ${deleting ? label(deleting.provider) : ''} connector and its stored key?`}
        confirmLabel="Delete"
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          act
            .run(() => bodyOf(api.DELETE('/api/v1/ai/connectors/{provider}', { params: { path: { provider: deleting.provider } } })))
            .then(() => list.reload())
        }
      />
    </section>
  );
}
