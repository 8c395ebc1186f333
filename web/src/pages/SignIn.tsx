import { useState } from 'preact/hooks';
import { Problem } from '../components/Problem.tsx';
import { signIn, type Session } from '../session.ts';

export function SignIn({ onSignedIn, notice }: { onSignedIn: (s: Session) => void; notice?: string }) {
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await signIn(token.trim()));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="signin">
      <form onSubmit={submit} class="card">
        <h1>
          <span aria-hidden="true" class="logo" /> Insights
        </h1>
        <p class="muted">
          Sign in with an API token (<code>ins_…</code>) or a JWT. It is kept in this tab only, until you close it.
        </p>
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <label for="token">Access token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          autoFocus
          spellcheck={false}
          required
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
        />
        <Problem error={error} />
        <button type="submit" class="primary" disabled={busy || !token.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
