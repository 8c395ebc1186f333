// One insight of the catalog run with the parameters set here (granularity, period, filters): its
// chart and rows, and "Add to dashboard" as a live widget.
import { useEffect, useState } from 'preact/hooks';
import { api, bodyOf, rawQuery } from '../api.ts';
import { FILTER_FIELDS } from '../catalog.ts';
import type { ExecuteData, Granularity, Insight } from '../types.ts';
import { AddToDashboardToggle } from './AddToDashboard.tsx';
import { Problem } from './Problem.tsx';
import { Result } from './Result.tsx';
import { useAction } from './useAsync.ts';
import { ValuePicker } from './ValuePicker.tsx';

export function InsightRunner({ insight }: { insight: Insight }) {
  const [granularity, setGranularity] = useState(insight.default_granularity ?? '');
  const [dateFrom, setDateFrom] = useState('');
  const [dateTo, setDateTo] = useState('');
  const [limit, setLimit] = useState('');
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [data, setData] = useState<ExecuteData>();
  // Each run is a new result: the "Add to dashboard" toggle starts over.
  const [runs, setRuns] = useState(0);
  const run = useAction();
  const takes = (p: string) => insight.parameters.includes(p);

  const execute = async (e?: Event) => {
    e?.preventDefault();
    const q = new URLSearchParams();
    if (granularity && takes('granularity')) q.set('granularity', granularity);
    if (dateFrom && takes('date_from')) q.set('date_from', dateFrom);
    if (dateTo && takes('date_to')) q.set('date_to', dateTo);
    if (limit && takes('limit')) q.set('limit', limit);
    for (const [k, v] of Object.entries(filters)) if (v.trim() && insight.filters.includes(k)) q.set(k, v.trim());
    const ok = await run.run(async () => {
      const res = await bodyOf(api.GET('/api/v1/insights/{code}/execute', { params: { path: { code: insight.code } }, ...rawQuery(q) }));
      setData(res.data);
      setRuns((n) => n + 1);
    });
    // A refused run answers nothing: the last result, for other parameters, goes.
    if (!ok) setData(undefined);
  };

  useEffect(() => {
    void execute();
  }, [insight.code]);

  const liveFilters = Object.fromEntries(
    Object.entries(filters)
      .filter(([k, v]) => v.trim() && insight.filters.includes(k))
      .map(([k, v]) => [k, v.trim()]),
  );

  return (
    <div>
      <form class="params" onSubmit={execute} aria-label={`Parameters of ${insight.name}`}>
        {insight.granularities.length > 0 && takes('granularity') && (
          <div>
            <label for="p-gran">Granularity</label>
            <select id="p-gran" value={granularity} onChange={(e) => setGranularity(e.currentTarget.value)}>
              {insight.granularities.map((g) => (
                <option key={g}>{g}</option>
              ))}
            </select>
          </div>
        )}
        {takes('date_from') && (
          <div>
            <label for="p-from">From</label>
            <input id="p-from" type="date" value={dateFrom} onInput={(e) => setDateFrom(e.currentTarget.value)} />
          </div>
        )}
        {takes('date_to') && (
          <div>
            <label for="p-to">To</label>
            <input id="p-to" type="date" value={dateTo} onInput={(e) => setDateTo(e.currentTarget.value)} />
          </div>
        )}
        {FILTER_FIELDS.filter(([k]) => insight.filters.includes(k)).map(([k, label]) => (
          <div key={k}>
            <label for={`p-${k}`}>{label}</label>
            <ValuePicker id={`p-${k}`} name={k} value={filters[k] ?? ''} onChange={(v) => setFilters({ ...filters, [k]: v })} />
          </div>
        ))}
        {takes('limit') && (
          <div>
            <label for="p-limit">Rows (limit)</label>
            <input
              id="p-limit"
              type="number"
              min={1}
              max={1000}
              placeholder={insight.default_limit ? String(insight.default_limit) : ''}
              value={limit}
              onInput={(e) => setLimit(e.currentTarget.value)}
            />
          </div>
        )}
        <div class="params-go">
          <button type="submit" class="primary" disabled={run.busy}>
            Run
          </button>
        </div>
      </form>
      <Problem error={run.error} />
      {run.busy && !data && <p role="status">Running…</p>}
      {data && (
        <div aria-busy={run.busy}>
          <p class="muted small">
            {data.period ? `${data.period.from} – ${data.period.to}` : ''}
            {data.granularity ? ` · by ${data.granularity}` : ''} · {data.row_count} row{data.row_count === 1 ? '' : 's'}
            {data.cached ? ' · cached' : ''}
          </p>
          <Result hint={data.chart_hint} rows={data.rows} columns={data.columns} label={insight.name} />
          <AddToDashboardToggle
            key={runs}
            idPrefix="ins-add"
            source={{
              title: insight.name,
              live: {
                insight_code: insight.code,
                granularity: takes('granularity') ? (granularity as Granularity) : undefined,
                filters: liveFilters,
              },
              snapshot: undefined,
            }}
          />
        </div>
      )}
    </div>
  );
}
