// An API problem in words: its title and detail, and each field the service named.
import { describe } from '../api.ts';

export function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  const p = describe(error);
  return (
    <div class="problem" role="alert">
      <strong>{p.title}</strong>
      {p.detail && p.detail !== p.title ? <span>: {p.detail}</span> : null}
      {p.fields.length > 0 && (
        <ul>
          {p.fields.map((f) => (
            <li key={f.path + f.message}>
              {f.path ? <code>{f.path.replace(/^\//, '').replace(/\//g, '.')}</code> : null} {f.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
