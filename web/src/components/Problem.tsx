// An API problem in words: its title and detail, and each field the service named.
import { describe } from '../api.ts';

export function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  const p = describe(error);
  return (
    <div class="problem" role="alert">
      <strong>{p.title}</strong>
      {p.detail && p.detail !== p.title ? <span>: {inWords(p.detail)}</span> : null}
      {p.fields.length > 0 && (
        <ul>
          {p.fields.map((f) => (
            <li key={f.path + f.message}>
              {f.path ? <code>{f.path.replace(/^\//, '').replace(/\//g, '.')}</code> : null} {inWords(f.message)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What the service said of one field (`/body/widget_filters/country`), in words; undefined when nothing. */
export function fieldMessage(error: unknown, ...paths: string[]): string | undefined {
  if (!error) return undefined;
  const f = describe(error).fields.find((x) => paths.some((p) => x.path === p || x.path.startsWith(`${p}/`)));
  return f ? inWords(f.message) : undefined;
}

/** Schema words become a person's; a pattern is never shown (a two-capitals one is a two-letter code). */
export function inWords(message: string): string {
  if (/^must match "?\^\[A-Z\]\{2\}\$/.test(message)) return 'use a two-letter code such as DE';
  if (/^must match /.test(message)) return 'is not in the expected form';
  // Inside a sentence (a problem's detail): the pattern goes, the words stay.
  message = message.replace(/must match (pattern )?"?\^[^\s"]*"?/g, 'is not in the expected form');
  return message.replace(/^must be one of: /, 'use one of: ');
}

/** A field's problem, next to it; the field points here with aria-describedby and aria-invalid. */
export function FieldError({ id, label, message }: { id: string; label: string; message?: string }) {
  if (!message) return null;
  return (
    <p class="field-error" id={id}>
      {label}: {message}
    </p>
  );
}
