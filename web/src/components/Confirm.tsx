// A modal question on the native <dialog>: it traps focus, closes on Escape and gives focus back.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Props {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ComponentChildren;
}

export function Modal({ title, open, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current!;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-label={title} onClose={onClose} onCancel={onClose}>
      <h2>{title}</h2>
      {open ? children : null}
    </dialog>
  );
}

export function Confirm({
  title,
  message,
  confirmLabel,
  open,
  onConfirm,
  onClose,
}: {
  title: string;
  message: string;
  confirmLabel: string;
  open: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal title={title} open={open} onClose={onClose}>
      <p>{message}</p>
      <div class="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          class="danger"
          onClick={() => {
            onClose();
            onConfirm();
          }}
        >
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
