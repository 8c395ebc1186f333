// The insight catalog: pick one, set its parameters, see its chart and rows, add it as a live widget.
import { InsightOptions } from '../components/InsightOptions.tsx';
import { InsightRunner } from '../components/InsightRunner.tsx';
import { Problem } from '../components/Problem.tsx';
import { useAsync } from '../components/useAsync.ts';
import { loadCatalog } from '../catalog.ts';
import { Link, navigate } from '../router.tsx';

export function InsightsPage({ code }: { code?: string }) {
  const catalog = useAsync(loadCatalog, []);
  const insight = catalog.data?.find((i) => i.code === code);
  return (
    <section>
      <h1 tabIndex={-1}>{insight ? insight.name : 'Insights'}</h1>
      <Problem error={catalog.error} />
      <div class="split">
        <nav aria-label="Insight catalog" class="catalog">
          <label for="pick-insight" class="sr-only">
            Insight
          </label>
          <select id="pick-insight" class="mobile-only" value={code ?? ''} onChange={(e) => navigate(`/insights/${e.currentTarget.value}`)}>
            <InsightOptions catalog={catalog.data ?? []} />
          </select>
          <ul class="desktop-only">
            {catalog.data?.map((i) => (
              <li key={i.code}>
                <Link href={`/insights/${i.code}`} aria-current={i.code === code ? 'page' : undefined}>
                  {i.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="detail">
          {insight ? (
            <>
              <p class="lead">{insight.description}</p>
              <InsightRunner key={insight.code} insight={insight} />
            </>
          ) : code && catalog.data ? (
            <p>There is no insight “{code}” in the catalog.</p>
          ) : (
            <p class="muted">Pick an insight from the catalog to see it.</p>
          )}
        </div>
      </div>
    </section>
  );
}
