// Adding or replacing an AI connector: the key is tested before it can be saved, and Save is
// offered for exactly the values the successful test was made with.
import { useState } from 'preact/hooks';
import { api, bodyOf, type ResponseBody } from '../../api.ts';
import type { Connector } from '../../types.ts';
import { Problem } from '../Problem.tsx';
import { useAction } from '../useAsync.ts';

export const PROVIDERS: [code: string, label: string, placeholder: string][] = [
  // Shown by what they are: the API's neutral codes name these services (docs/web.md).
  ['vendor_a', 'OpenAI (chat completions)', 'sk-…'],
  ['vendor_b', 'Anthropic (messages)', 'sk-ant-…'],
  ['vendor_c', 'Google Gemini (generateContent)', 'AIza…'],
  ['router', 'Router (multi-model)', 'sk-or-…'],
  ['custom', 'Custom (OpenAI-compatible endpoint)', 'any key'],
];
export const label = (code: string) => PROVIDERS.find((p) => p[0] === code)?.[1] ?? code;

type TestResult = ResponseBody<'/api/v1/ai/connectors/test', 'post'>;

export function ConnectorForm({ onSaved }: { onSaved: () => void }) {
  const [provider, setProvider] = useState<Connector['provider']>('vendor_a');
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
      const r = await bodyOf(api.POST('/api/v1/ai/connectors/test', { body }));
      setResult(r);
      setTested(r.success ? fingerprint : undefined);
    });
  };

  const save = async (e: Event) => {
    e.preventDefault();
    const ok = await act.run(() => bodyOf(api.POST('/api/v1/ai/connectors', { body })));
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
      <select id="cn-provider" value={provider} onChange={(e) => setProvider(e.currentTarget.value as Connector['provider'])}>
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
