// A dashboard's name, description, sharing and saved views (filter presets: names, the default), saved in one PATCH.
import { useState } from 'preact/hooks';
import { api, bodyOf } from '../api.ts';
import type { Dashboard, FilterPreset } from '../types.ts';
import { Problem } from './Problem.tsx';
import { useAction } from './useAsync.ts';
import { FormActions } from './FormActions.tsx';

export function DashboardSettings({
  dashboard,
  onSaved,
  onCancel,
}: {
  dashboard: Dashboard;
  onSaved: (d: Dashboard) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(dashboard.name);
  const [description, setDescription] = useState(dashboard.description ?? '');
  const [shared, setShared] = useState(dashboard.is_shared);
  const [emails, setEmails] = useState((dashboard.shared_with_emails ?? []).join(', '));
  const [presets, setPresets] = useState<FilterPreset[]>(dashboard.global_filter_presets ?? []);
  const save = useAction();

  const [activeId, setActiveId] = useState<string | null>(dashboard.active_preset_id ?? null);

  const submit = async (e: Event) => {
    e.preventDefault();
    const list = emails
      .split(/[\s,;]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    let saved: Dashboard | undefined;
    const ok = await save.run(async () => {
      saved = await bodyOf(
        api.PATCH('/api/v1/dashboards/{id}', {
          params: { path: { id: dashboard.id } },
          body: {
            name: name.trim(),
            description: description.trim() || null,
            is_shared: shared,
            shared_with_emails: list,
            global_filter_presets: presets,
            active_preset_id: presets.some((p) => p.id === activeId) ? activeId : null,
          },
        }),
      );
    });
    if (ok && saved) onSaved(saved);
  };

  return (
    <form class="form" onSubmit={submit}>
      <label for="ds-name">Name</label>
      <input id="ds-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="ds-desc">Description</label>
      <textarea id="ds-desc" rows={2} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      <label class="check">
        <input type="checkbox" checked={shared} onChange={(e) => setShared(e.currentTarget.checked)} /> Shared with everyone in the tenant
      </label>
      <label for="ds-emails">Also shared with (e-mail addresses, comma-separated)</label>
      <input id="ds-emails" value={emails} onInput={(e) => setEmails(e.currentTarget.value)} />
      <fieldset>
        <legend>Saved views</legend>
        <p class="muted small">
          Views are saved from the filter bar. The default view is what the dashboard opens with and what its scheduled reports send.
        </p>
        {presets.map((p, i) => (
          <div class="row preset" key={p.id} role="group" aria-label={`View ${p.name || i + 1}`}>
            <div>
              <label for={`pr-${i}-name`}>View name</label>
              <input
                id={`pr-${i}-name`}
                required
                maxLength={200}
                value={p.name}
                onInput={(e) => setPresets(presets.map((x, j) => (j === i ? { ...x, name: e.currentTarget.value } : x)))}
              />
            </div>
            <label class="check">
              <input type="radio" name="default-view" checked={activeId === p.id} onChange={() => setActiveId(p.id)} /> Default
            </label>
            <button type="button" class="link danger" onClick={() => setPresets(presets.filter((_, j) => j !== i))}>
              Remove view {p.name}
            </button>
          </div>
        ))}
        {presets.length > 0 && (
          <label class="check">
            <input type="radio" name="default-view" checked={!activeId} onChange={() => setActiveId(null)} /> No default view
          </label>
        )}
      </fieldset>
      <Problem error={save.error} />
      <FormActions submitLabel="Save" onCancel={onCancel} disabled={save.busy} />
    </form>
  );
}
