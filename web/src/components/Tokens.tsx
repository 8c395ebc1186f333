// API tokens (owners and admins): the plaintext is shown once, right after creation.
import { useState } from 'preact/hooks';
import { api, bodyOf } from '../api.ts';
import { useSession } from '../session.ts';
import type { ApiToken, Role } from '../types.ts';
import { Confirm } from './Confirm.tsx';
import { Problem } from './Problem.tsx';
import { useAction, useAsync } from './useAsync.ts';
import { FormActions } from './FormActions.tsx';

export function Tokens() {
  const session = useSession();
  const list = useAsync(() => bodyOf(api.GET('/api/v1/auth/tokens')), []);
  const act = useAction();
  const [form, setForm] = useState({ name: '', user_id: '', user_name: '', email: '', role: 'member' as Role });
  const [created, setCreated] = useState<string>();
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  // Never a role above one's own.
  const roles: Role[] = session.role === 'owner' ? ['member', 'admin', 'owner'] : ['member', 'admin'];

  const submit = async (e: Event) => {
    e.preventDefault();
    const body = {
      name: form.name.trim(),
      user_id: form.user_id.trim(),
      role: form.role,
      ...(form.user_name.trim() ? { user_name: form.user_name.trim() } : {}),
      ...(form.email.trim() ? { email: form.email.trim() } : {}),
    };
    const ok = await act.run(async () => {
      const t = await bodyOf(api.POST('/api/v1/auth/tokens', { body }));
      setCreated(t.token);
    });
    if (ok) {
      setForm({ name: '', user_id: '', user_name: '', email: '', role: 'member' });
      void list.reload();
    }
  };

  const field = (key: 'name' | 'user_id' | 'user_name' | 'email', lbl: string, required = false, type: 'text' | 'email' = 'text') => (
    <div>
      <label for={`tk-${key}`}>{lbl}</label>
      <input
        id={`tk-${key}`}
        type={type as 'text'}
        required={required}
        value={form[key]}
        onInput={(e) => setForm({ ...form, [key]: e.currentTarget.value })}
      />
    </div>
  );

  return (
    <section aria-labelledby="tokens-h" class="panel">
      <h2 id="tokens-h">API tokens</h2>
      <Problem error={list.error ?? act.error} />
      {created && (
        <div class="card notice" role="status">
          <p>
            <strong>New token</strong>, shown only now: copy it.
          </p>
          <p>
            <code class="token" data-testid="new-token">
              {created}
            </code>{' '}
            <button type="button" onClick={() => navigator.clipboard?.writeText(created)}>
              Copy
            </button>
          </p>
        </div>
      )}
      <div class="table-wrap" tabIndex={0} role="group" aria-label="API tokens (scrolls)">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">User</th>
              <th scope="col">Role</th>
              <th scope="col">Token</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((t) => (
              <tr key={t.id} class={t.revoked_at ? 'revoked' : ''}>
                <td>
                  {t.name}
                  {!t.revoked_at && session.token.startsWith(t.token_masked.replace(/\*+$/, '')) ? (
                    <span class="badge">this session</span>
                  ) : null}
                </td>
                <td>
                  {t.user_name || t.user_id}
                  {t.email ? <div class="muted small">{t.email}</div> : null}
                </td>
                <td>{t.role}</td>
                <td>
                  <code>{t.token_masked}</code>
                </td>
                <td>{new Date(t.created_at).toLocaleDateString()}</td>
                <td>
                  {t.revoked_at ? (
                    'revoked'
                  ) : (
                    <button type="button" class="danger" aria-label={`Revoke ${t.name}`} onClick={() => setRevoking(t)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form class="form card" onSubmit={submit} aria-labelledby="new-token-h">
        <h3 id="new-token-h">New token</h3>
        <div class="row wrap">
          {field('name', 'Token name', true)}
          {field('user_id', 'User ID', true)}
          {field('user_name', 'User name')}
          {field('email', 'E-mail', false, 'email')}
          <div>
            <label for="tk-role">Role</label>
            <select id="tk-role" value={form.role} onChange={(e) => setForm({ ...form, role: e.currentTarget.value as Role })}>
              {roles.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </div>
        </div>
        <FormActions submitLabel="Create token" disabled={act.busy} />
      </form>
      <Confirm
        title="Revoke token"
        message={`Revoke “${revoking?.name ?? ''}”? Requests with it fail at once.`}
        confirmLabel="Revoke"
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        onConfirm={() =>
          revoking &&
          act.run(() => bodyOf(api.DELETE('/api/v1/auth/tokens/{id}', { params: { path: { id: revoking.id } } }))).then(() => list.reload())
        }
      />
    </section>
  );
}
