// Embedding keys (owners and admins, docs/embedding.md): create one for the origins that may frame
// the embedded pages, rotate its secret (the old one keeps working 24 h), revoke it, and copy the
// snippet a page pastes. The secret is shown once, right after create or rotate.
import { useState } from 'preact/hooks';
import { api, bodyOf } from '../api.ts';
import type { CreatedEmbedKey, EmbedKey } from '../types.ts';
import { Confirm } from './Confirm.tsx';
import { Problem } from './Problem.tsx';
import { useAction, useAsync } from './useAsync.ts';
import { FormActions } from './FormActions.tsx';

/** What a page pastes to show a dashboard: the iframe, keyed, with the token in the fragment. */
export function embedSnippet(key: Pick<EmbedKey, 'id'>, origin = location.origin): string {
  return [
    `<iframe src="${origin}/embed/dashboards/DASHBOARD_ID?key=${key.id}#token=EMBED_TOKEN"`,
    `        referrerpolicy="no-referrer" style="width:100%;border:0"></iframe>`,
  ].join('\n');
}

const origins = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((o) => o.trim())
    .filter(Boolean);

export function EmbedKeys() {
  const list = useAsync(() => bodyOf(api.GET('/api/v1/embed/keys')), []);
  const act = useAction();
  const [name, setName] = useState('');
  const [allowed, setAllowed] = useState('');
  const [secret, setSecret] = useState<CreatedEmbedKey>();
  const [revoking, setRevoking] = useState<EmbedKey | null>(null);
  const [copied, setCopied] = useState('');

  const submit = async (e: Event) => {
    e.preventDefault();
    const ok = await act.run(async () =>
      setSecret(await bodyOf(api.POST('/api/v1/embed/keys', { body: { name: name.trim(), allowed_origins: origins(allowed) } }))),
    );
    if (ok) {
      setName('');
      setAllowed('');
      void list.reload();
    }
  };
  const rotate = (k: EmbedKey) =>
    act
      .run(async () => setSecret(await bodyOf(api.POST('/api/v1/embed/keys/{id}/rotate', { params: { path: { id: k.id } }, body: {} }))))
      .then(() => list.reload());
  const copy = (k: EmbedKey) => {
    void navigator.clipboard?.writeText(embedSnippet(k)).catch(() => {});
    setCopied(k.id);
  };

  return (
    <section aria-labelledby="embed-h" class="panel">
      <h2 id="embed-h">Embedding keys</h2>
      <p class="muted small">
        Your backend signs short-lived embed tokens with a key's secret; the embedded pages may be framed only by the key's origins.
      </p>
      <Problem error={list.error ?? act.error} />
      {secret && (
        <div class="card notice" role="status">
          <p>
            <strong>Secret of “{secret.name}”</strong>, shown only now: keep it on your server.
          </p>
          <p>
            <code class="token" data-testid="embed-secret">
              {secret.secret}
            </code>
          </p>
        </div>
      )}
      {list.data && list.data.length > 0 && (
        <ul class="embed-keys" aria-label="Embedding keys">
          {list.data.map((k) => (
            <li key={k.id} class="card">
              <h3>{k.name}</h3>
              <p class="muted small">
                Key <code>{k.id}</code> · secret <code>{k.secret_masked}</code> · framed by {k.allowed_origins.join(', ')}
                {k.rotated_at ? ` · rotated ${new Date(k.rotated_at).toLocaleDateString()}` : ''}
              </p>
              <label for={`snippet-${k.id}`}>Embed snippet</label>
              <textarea id={`snippet-${k.id}`} readOnly rows={2} value={embedSnippet(k)} />
              <div class="actions">
                <button type="button" onClick={() => copy(k)}>
                  Copy snippet for {k.name}
                </button>
                <button type="button" disabled={act.busy} onClick={() => void rotate(k)}>
                  Rotate {k.name}
                </button>
                <button type="button" class="danger" onClick={() => setRevoking(k)}>
                  Revoke {k.name}
                </button>
                {copied === k.id && <span role="status">Copied.</span>}
              </div>
            </li>
          ))}
        </ul>
      )}
      <form class="form card" onSubmit={submit} aria-labelledby="new-embed-h">
        <h3 id="new-embed-h">New embedding key</h3>
        <label for="ek-name">Key name</label>
        <input id="ek-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="ek-origins">Allowed origins</label>
        <input
          id="ek-origins"
          required
          placeholder="https://app.example.com"
          aria-describedby="ek-origins-help"
          value={allowed}
          onInput={(e) => setAllowed(e.currentTarget.value)}
        />
        <p id="ek-origins-help" class="muted small">
          The sites that may show the embedded pages, separated by spaces or commas.
        </p>
        <FormActions submitLabel="Create key" disabled={act.busy} />
      </form>
      <Confirm
        title="Revoke embedding key"
        message={`Revoke “${revoking?.name ?? ''}”? Pages embedded with it stop at once.`}
        confirmLabel="Revoke"
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        onConfirm={() =>
          revoking &&
          act.run(() => bodyOf(api.DELETE('/api/v1/embed/keys/{id}', { params: { path: { id: revoking.id } } }))).then(() => list.reload())
        }
      />
    </section>
  );
}
