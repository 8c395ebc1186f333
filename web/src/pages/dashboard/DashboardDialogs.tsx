// The dashboard's dialogs: add or edit a widget or a text, the dashboard's settings, and the
// confirmations before removing a widget or a text and before deleting the dashboard.
import { useState } from 'preact/hooks';
import { api, bodyOf } from '../../api.ts';
import { Confirm, Modal } from '../../components/Confirm.tsx';
import { DashboardSettings } from '../../components/DashboardSettings.tsx';
import { TextBlockForm, textName } from '../../components/TextBlock.tsx';
import type { useAction } from '../../components/useAsync.ts';
import { WidgetForm } from '../../components/WidgetForm.tsx';
import { navigate } from '../../router.tsx';
import type { Dashboard, Widget } from '../../types.ts';
import type { useTextBlocks } from './useTextBlocks.ts';
import type { useWidgetOrder } from './useWidgetOrder.ts';

/** Which dialog is open: the header and the grid open them, DashboardDialogs shows them. */
export function useDialogs() {
  const [editing, setEditing] = useState<Widget | 'new' | null>(null);
  const [settings, setSettings] = useState(false);
  const [removing, setRemoving] = useState<Widget | null>(null);
  const [deleting, setDeleting] = useState(false);
  return { editing, setEditing, settings, setSettings, removing, setRemoving, deleting, setDeleting };
}

interface Props {
  dash: Dashboard;
  setDash: (d: Dashboard) => void;
  dialogs: ReturnType<typeof useDialogs>;
  order: ReturnType<typeof useWidgetOrder>;
  text: ReturnType<typeof useTextBlocks>;
  action: ReturnType<typeof useAction>;
}

export function DashboardDialogs({ dash, setDash, dialogs, order, text, action }: Props) {
  const { editing, setEditing, settings, setSettings, removing, setRemoving, deleting, setDeleting } = dialogs;
  const { widgets, setWidgets, removeWidget } = order;
  const { editingText, setEditingText, saveText, removingText, setRemovingText, removeText } = text;
  const deleteDashboard = async () => {
    const ok = await action.run(() => bodyOf(api.DELETE('/api/v1/dashboards/{id}', { params: { path: { id: dash.id } } })));
    if (ok) navigate('/dashboards');
  };
  return (
    <>
      <Modal
        title={editing === 'new' ? 'Add widget' : `Edit ${editing?.title ?? ''}`}
        open={editing !== null}
        onClose={() => setEditing(null)}
      >
        <WidgetForm
          dashboardId={dash.id}
          widget={editing && editing !== 'new' ? editing : undefined}
          onCancel={() => setEditing(null)}
          onSaved={(w) => {
            setWidgets(editing === 'new' ? [...widgets, w] : widgets.map((x) => (x.id === w.id ? w : x)));
            setEditing(null);
          }}
        />
      </Modal>
      <Modal title={editingText === 'new' ? 'Add text' : 'Edit text'} open={editingText !== null} onClose={() => setEditingText(null)}>
        <TextBlockForm
          block={editingText && editingText !== 'new' ? editingText : undefined}
          busy={action.busy}
          onCancel={() => setEditingText(null)}
          onSave={(body) => void saveText(body)}
        />
      </Modal>
      <Confirm
        title="Remove text"
        message={`Remove the text “${removingText ? textName(removingText.body) : ''}” from this dashboard?`}
        confirmLabel="Remove"
        open={removingText !== null}
        onClose={() => setRemovingText(null)}
        onConfirm={() => removingText && removeText(removingText)}
      />
      <Modal title="Edit dashboard" open={settings} onClose={() => setSettings(false)}>
        <DashboardSettings
          dashboard={dash}
          onCancel={() => setSettings(false)}
          onSaved={(d) => {
            setDash({ ...dash, ...d });
            setSettings(false);
          }}
        />
      </Modal>
      <Confirm
        title="Remove widget"
        message={`Remove “${removing?.title ?? ''}” from this dashboard?`}
        confirmLabel="Remove"
        open={removing !== null}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && removeWidget(removing)}
      />
      <Confirm
        title="Delete dashboard"
        message={`Delete “${dash.name}” with its ${widgets.length} widget(s) and its scheduled reports? This cannot be undone.`}
        confirmLabel="Delete"
        open={deleting}
        onClose={() => setDeleting(false)}
        onConfirm={deleteDashboard}
      />
    </>
  );
}
