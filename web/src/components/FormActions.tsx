// The end of a form: Cancel (where the form can be left) and its submit button, off while the form
// is being sent or cannot be sent yet.
import type { ComponentChildren } from 'preact';

interface Props {
  submitLabel: ComponentChildren;
  /** True while it is being sent, or while it cannot be sent yet. */
  disabled?: boolean;
  onCancel?: () => void;
}

export function FormActions({ submitLabel, disabled, onCancel }: Props) {
  return (
    <div class="actions">
      {onCancel && (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      )}
      <button type="submit" class="primary" disabled={disabled}>
        {submitLabel}
      </button>
    </div>
  );
}
