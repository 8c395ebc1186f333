// The answer of the query in the URL: a line saying what it covers, the chart its shape calls for
// (as a query widget draws it) with the table of its rows, and "Add to dashboard" as a live widget.
import { queryChartHint } from '../../../../src/lib/charts/query-hint.ts';
import { AddToDashboardToggle } from '../AddToDashboard.tsx';
import { Result } from '../Result.tsx';
import type { Query, QueryResult } from './model.ts';

interface Props {
  result: QueryResult;
  /** The query as asked (relative windows stay relative when saved). */
  asked: Query;
  title: string;
  busy: boolean;
}

export function QueryAnswer({ result, asked, title, busy }: Props) {
  const ran = result.query;
  const hint = queryChartHint(ran, title);
  const span = ran.time?.date_from || ran.time?.date_to ? `${ran.time.date_from ?? '…'} – ${ran.time.date_to ?? '…'}` : 'all of the data';
  const shown = result.rows.length;
  return (
    <section class="explore-answer" aria-labelledby="ex-answer-h" aria-busy={busy}>
      <h2 id="ex-answer-h" tabIndex={-1}>
        {title}
      </h2>
      <p class="muted small" data-testid="answer-summary">
        {span}
        {ran.time?.granularity ? ` · by ${ran.time.granularity}` : ''} · {shown === result.total_rows ? '' : `${shown} of `}
        {result.total_rows} row{result.total_rows === 1 ? '' : 's'}
      </p>
      {shown ? (
        <Result hint={hint} rows={result.rows} columns={result.columns} label={title} />
      ) : (
        <p class="muted">No rows answer this question.</p>
      )}
      <AddToDashboardToggle key={JSON.stringify(asked)} idPrefix="ex-add" source={{ title, query: asked }} />
    </section>
  );
}
