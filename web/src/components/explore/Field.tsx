// A labelled control of the Explore form with the service's words of its problem under it: the
// control gets `invalid(id, error)` (aria-invalid, aria-describedby pointing at the words).
import type { ComponentChildren } from 'preact';
import { FieldError } from '../Problem.tsx';

export function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ComponentChildren }) {
  return (
    <div>
      <label for={id}>{label}</label>
      {children}
      <FieldError id={`${id}-error`} label={label} message={error} />
    </div>
  );
}
