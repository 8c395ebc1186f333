// AI connectors: the key is tested before it can be saved; saved keys are only ever shown masked.
import { useState } from 'preact/hooks';
import { del, get, patch, post } from '../api.ts';
import { isManager, useSession } from '../session.ts';
import type { Connector } from '../types.ts';
import { Confirm } from './Confirm.tsx';
import { Problem } from './Problem.tsx';
import { useAction, useAsync } from './useAsync.ts';

const PROVIDERS: [code: string, label: string, placeholder: string][] = [
  // Shown by what they are: the API's neutral codes name these services (docs/web.md).
  ['vendor_a', 'OpenAI (chat completions)', 'sk-…'],
  ['vendor_b', 'Anthropic (messages)', 'sk-ant-…'],
  ['vendor_c', 'Google Gemini (generateContent)', 'AIza…'],
  ['router', 'Router (multi-model)', 'sk-or-…'],
  ['custom', 'Custom (OpenAI-compatible endpoint)', 'any key'],
];
const label = (code: string) => PROVIDERS.find((p) => p[0] === code)?.[1] ?? code;

interface TestResult {
  success: boolean;
  message: string;
  latency_ms?: number | null;
}

function ConnectorForm({ onSaved }: { onSaved: () => void }) {
  const [provider, setProvider] = useState('vendor_a');
  const [apiKey, setApiKey] = useState('');
  const [model, setModel] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  // The values a successful test was made with: Save is offered for exactly those.
  const [tested, setTested] = useState<string>();
  const [result, setResult] = useState<TestResult>();
  const act = useAction();
  const body = { provider, api_key: apiKey.trim(), model: model.trim(), ...(provider === 'custom' ? { base_url: baseUrl.trim() } : {}) };
  const fingerprint = JSON.stringify(body);

  const test = async () => {
    setResult(undefined);
    await act.run(async () => {
      const r = await post<TestResult>('/ai/connectors/test', body);
      setResult(r);
      setTested(r.success ? fingerprint : undefined);
    });
  };

  const save = async (e: Event) => {
    e.preventDefault();
    const ok = await act.run(() => post('/ai/connectors', body));
    if (ok) {
      setApiKey('');
      setTested(undefined);
      setResult(undefined);
      onSaved();
    }
  };

  return (
    <form class="form card" onSubmit={save} aria-labelledby="new-conn-h">
      <h3 id="new-conn-h">Add or replace a connector</h3>
      <label for="cn-provider">Provider</label>
      <select id="cn-provider" value={provider} onChange={(e) => setProvider(e.currentTarget.value)}>
        {PROVIDERS.map(([code, l]) => (
          <option key={code} value={code}>
            {l}
          </option>
        ))}
      </select>
      <label for="cn-key">API key</label>
      <input
        id="cn-key"
        type="password"
        autoComplete="off"
        required
        placeholder={PROVIDERS.find((p) => p[0] === provider)?.[2]}
        value={apiKey}
        onInput={(e) => setApiKey(e.currentTarget.value)}
      />
      <label for="cn-model">Model</label>
      <input id="cn-model" required value={model} onInput={(e) => setModel(e.currentTarget.value)} />
      {provider === 'custom' && (
        <>
          <label for="cn-base">Base URL</label>
          <input id="cn-base" type="url" required value={baseUrl} onInput={(e) => setBaseUrl(e.currentTarget.value)} />
        </>
      )}
      {result && (
        <p class={`outcome ${result.success ? 'ok' : 'bad'}`} role="status">
          {result.success ? 'Connection works' : 'Connection failed'}: {result.message}
          {result.latency_ms != null ? ` (${Math.round(result.latency_ms)} ms)` : ''}
        </p>
      )}
      <Problem error={act.error} />
      <div class="actions">
        <button type="button" onClick={test} disabled={act.busy || !apiKey.trim() || !model.trim()}>
          Test connection
        </button>
        <button type="submit" class="primary" disabled={act.busy || tested !== fingerprint}>
          Save and make active
        </button>
      </div>
      {tested !== fingerprint && <p class="muted small">Test the connection to save it.</p>}
    </form>
  );
}

export function Connectors() {
  const session = useSession();
  const manager = isManager(session);
  const list = useAsync(() => get<Connector[]>('/ai/connectors'), []);
  const act = useAction();
  const [deleting, setDeleting] = useState<Connector | null>(null);

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
                {!c.is_active && (
                  <button
                    type="button"
                    disabled={act.busy}
                    onClick={() => act.run(() => patch(`/ai/connectors/${c.provider}`, { is_active: true })).then(() => list.reload())}
                  >
                    Make active
                  </button>
                )}
                {c.is_active && (
                  <button
                    type="button"
                    disabled={act.busy}
                    onClick={() => act.run(() => patch(`/ai/connectors/${c.provider}`, { is_active: false })).then(() => list.reload())}
                  >
                    Deactivate
                  </button>
                )}
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
        onConfirm={() => deleting && act.run(() => del(`/ai/connectors/${deleting.provider}`)).then(() => list.reload())}
      />
    </section>
  );
}
