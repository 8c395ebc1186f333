// Explore: ask any question the model can answer (docs/query.md) — measures by the dimensions they
// reach, filtered, over a window — and see its chart and rows. The question lives in the URL (`q`,
// the query as JSON): Run puts it there, and the URL runs it, so a link or a reload asks it again.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, bodyOf } from '../api.ts';
import { errorsOf } from '../components/explore/fields.ts';
import {
  cleanQuery,
  exploreUrl,
  membersOf,
  type Query,
  type QueryResult,
  queryOfSearch,
  reachableCubes,
  titleOf,
} from '../components/explore/model.ts';
import { QueryAnswer } from '../components/explore/QueryAnswer.tsx';
import { QueryForm } from '../components/explore/QueryForm.tsx';
import { Problem } from '../components/Problem.tsx';
import { useAction, useAsync } from '../components/useAsync.ts';
import { navigate, useSearch } from '../router.tsx';

const EMPTY: Query = { measures: [] };

function useAnswer(asked: Query | undefined, tick: number) {
  const run = useAction();
  const [result, setResult] = useState<QueryResult>();
  useEffect(() => {
    if (!asked) {
      setResult(undefined);
      run.clear();
      return;
    }
    let gone = false;
    void run
      .run(async () => {
        const r = await bodyOf(api.POST('/api/v1/query', { body: asked }));
        if (!gone) setResult(r.data);
      })
      .then((ok) => !ok && !gone && setResult(undefined));
    return () => void (gone = true);
  }, [JSON.stringify(asked), tick]);
  return { result, error: run.error, busy: run.busy };
}

export function ExplorePage() {
  const model = useAsync(() => bodyOf(api.GET('/api/v1/model')).then((r) => r.data), []);
  const members = useMemo(() => (model.data ? membersOf(model.data) : new Map()), [model.data]);
  const search = useSearch();
  const asked = useMemo(() => queryOfSearch(search), [search]);
  const [draft, setDraft] = useState<Query>(asked ?? EMPTY);
  // Back, forward and shared links: the form shows the URL's question.
  useEffect(() => setDraft(asked ?? EMPTY), [asked]);
  const [tick, setTick] = useState(0);
  const answer = useAnswer(asked, tick);
  const cubes = useMemo(() => (model.data ? reachableCubes(model.data, draft.measures) : new Set<string>()), [model.data, draft.measures]);
  // After Run, the answer's heading takes focus (and comes into view under the form on a phone).
  const ranByUser = useRef(false);
  useEffect(() => {
    if (!answer.result || !ranByUser.current) return;
    ranByUser.current = false;
    document.getElementById('ex-answer-h')?.focus();
  }, [answer.result]);
  const onRun = () => {
    ranByUser.current = true;
    const url = exploreUrl(cleanQuery(draft, members));
    if (url === location.pathname + location.search) setTick((t) => t + 1);
    else navigate(url);
  };
  return (
    <section class="explore">
      <h1 tabIndex={-1}>Explore</h1>
      <p class="muted">
        Ask any question the model can answer: pick measures, group them by the dimensions they reach, filter, and run. The URL keeps the
        question, so a link to this page asks it again.
      </p>
      <Problem error={model.error} />
      {model.loading && !model.data && <p role="status">Loading the model…</p>}
      {model.data && (
        <div class="explore-split">
          <QueryForm
            model={model.data}
            members={members}
            cubes={cubes}
            draft={draft}
            onChange={setDraft}
            ran={asked}
            errorAt={errorsOf(answer.error)}
            busy={answer.busy}
            onRun={onRun}
          />
          <div class="explore-out">
            <Problem error={answer.error} />
            {answer.busy && <p role="status">Running…</p>}
            {!asked && <p class="muted">Pick at least one measure and run: the chart and the rows of the answer show here.</p>}
            {answer.result && asked && (
              <QueryAnswer result={answer.result} asked={asked} title={titleOf(members, asked)} busy={answer.busy} />
            )}
          </div>
        </div>
      )}
    </section>
  );
}
