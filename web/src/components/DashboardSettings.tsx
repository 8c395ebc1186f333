// A dashboard's name, description, sharing and filter presets, saved in one PATCH.
import { useState } from 'preact/hooks';
import { patch } from '../api.ts';
import type { Dashboard, FilterPreset, PresetFilters } from '../types.ts';
import { GRANULARITIES } from '../types.ts';
import { Problem } from './Problem.tsx';

// crypto.randomUUID exists only in secure contexts; a preset id needs only to be unique here.
const newId = () => 'p' + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
import { useAction } from './useAsync.ts';

const PRESET_FIELDS: [keyof PresetFilters, string][] = [
  ['country', 'Country'],
  ['channel', 'Channel'],
  ['category', 'Category'],
  ['date_from', 'From'],
  ['date_to', 'To'],
];

export function DashboardSettings({ dashboard, onSaved, onCancel }: { dashboard: Dashboard; onSaved: (d: Dashboard) => void; onCancel: () => void }) {
  const [name, setName] = useState(dashboard.name);
  const [description, setDescription] = useState(dashboard.description ?? '');
  const [shared, setShared] = useState(dashboard.is_shared);
  const [emails, setEmails] = useState((dashboard.shared_with_emails ?? []).join(', '));
  const [presets, setPresets] = useState<FilterPreset[]>(dashboard.global_filter_presets ?? []);
  const save = useAction();

  const setPreset = (i: number, p: FilterPreset) => setPresets(presets.map((x, j) => (j === i ? p : x)));
  const setFilter = (i: number, k: keyof PresetFilters, v: string) => {
    const filters = { ...presets[i].filters, [k]: v || undefined };
    if (!v) delete filters[k];
    setPreset(i, { ...presets[i], filters });
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const list = emails.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean);
    let saved: Dashboard | undefined;
    const ok = await save.run(async () => {
      saved = await patch<Dashboard>(`/dashboards/${dashboard.id}`, {
        name: name.trim(),
        description: description.trim() || null,
        is_shared: shared,
        shared_with_emails: list,
        global_filter_presets: presets,
        active_preset_id: presets.some((p) => p.id === dashboard.active_preset_id) ? dashboard.active_preset_id : null,
      });
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
        <legend>Filter presets</legend>
        {presets.map((p, i) => (
          <div class="preset" key={p.id} role="group" aria-label={`Preset ${p.name || i + 1}`}>
            <div class="row">
              <div>
                <label for={`pr-${i}-name`}>Preset name</label>
                <input id={`pr-${i}-name`} required value={p.name} onInput={(e) => setPreset(i, { ...p, name: e.currentTarget.value })} />
              </div>
              <div>
                <label for={`pr-${i}-gran`}>Granularity</label>
                <select id={`pr-${i}-gran`} value={p.filters.granularity ?? ''} onChange={(e) => setFilter(i, 'granularity', e.currentTarget.value)}>
                  <option value="">Any</option>
                  {GRANULARITIES.map((g) => (
                    <option key={g}>{g}</option>
                  ))}
                </select>
              </div>
            </div>
            <div class="row wrap">
              {PRESET_FIELDS.map(([k, label]) => (
                <div key={k}>
                  <label for={`pr-${i}-${k}`}>{label}</label>
                  {k.startsWith('date') ? (
                    <input id={`pr-${i}-${k}`} type="date" value={p.filters[k] ?? ''} onInput={(e) => setFilter(i, k, e.currentTarget.value)} />
                  ) : (
                    <input id={`pr-${i}-${k}`} type="text" value={p.filters[k] ?? ''} onInput={(e) => setFilter(i, k, k === 'country' ? e.currentTarget.value.toUpperCase() : e.currentTarget.value)} />
                  )}
                </div>
              ))}
            </div>
            <button type="button" class="link danger" onClick={() => setPresets(presets.filter((_, j) => j !== i))}>
              Remove preset {p.name}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setPresets([...presets, { id: newId(), name: `Preset ${presets.length + 1}`, filters: {} }])}>
          Add preset
        </button>
      </fieldset>
      <Problem error={save.error} />
      <div class="actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" class="primary" disabled={save.busy}>
          Save
        </button>
      </div>
    </form>
  );
}
