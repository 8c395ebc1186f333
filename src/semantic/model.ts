// The semantic model: read from INSIGHTS_MODEL (a file or a directory) or the built-in demo,
// validated whole, resolved into the insight catalog. An invalid model is a ModelError listing
// every problem; it never becomes a half-working catalog.
import { indexCubes, type CubeInfo } from './cubes.ts';
import { DEMO_MODEL_PATH, ModelError, parseModelText, readModelSources, type Damage, type ModelIssue, type ModelSource } from './load.ts';
import { resolveInsights } from './resolve.ts';
import { resolveRollups } from './rollups.ts';
import type { InsightDefinition, RollupDefinition } from './types.ts';

export { ModelError, formatIssue, DEMO_MODEL_PATH, type ModelIssue } from './load.ts';

export interface SemanticModel {
  /** Where it was read from (a file or a directory). */
  location: string;
  cubes: Map<string, CubeInfo>;
  insights: InsightDefinition[];
  /** The cubes' pre_aggregations (docs/rollups.md). */
  rollups: RollupDefinition[];
}

function build(
  location: string,
  sources: ModelSource[],
  shapeIssues: ModelIssue[],
  damage: Damage[],
): { model?: SemanticModel; issues: ModelIssue[] } {
  const cross: ModelIssue[] = [];
  const cubes = indexCubes(sources, cross);
  const insights = resolveInsights(sources, cubes, cross);
  const rollups = resolveRollups(cubes, cross);
  // What a shape problem left out is already reported: references to it, and checks of what
  // stood in for it, would only repeat that.
  const refs = new Set(damage.flatMap((d) => [...d.refs]));
  const paths = new Set(sources.flatMap((s) => [...(s.damage?.paths ?? [])].map((p) => `${s.file}\u0000${p}`)));
  const echo = (i: ModelIssue) => {
    if (i.ref !== undefined) {
      const cube = i.ref.split('.')[0];
      if (refs.has('*') || refs.has(i.ref) || refs.has(cube) || refs.has(`${cube}.*`)) return true;
    }
    if (paths.has(`${i.file}\u0000${i.path}=`)) return true;
    for (let p = i.path; p; p = p.replace(/(\.[^.[]*|\[\d+\])$/, '')) {
      if (paths.has(`${i.file}\u0000${p}`)) return true;
      if (!/[.[]/.test(p)) break;
    }
    return false;
  };
  // In reading order: file by file (as given), line by line.
  const files = [...new Set([...shapeIssues, ...cross].map((i) => i.file))];
  const issues = [...shapeIssues, ...cross.filter((i) => !echo(i))]
    .map(({ ref: _ref, ...i }) => i)
    .sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file) || (a.line ?? 0) - (b.line ?? 0));
  if (issues.some((i) => i.severity === 'error')) return { issues };
  return { model: { location, cubes, insights, rollups }, issues };
}

/** Every problem of the model at `target`, and the model when there is none. */
export function checkModel(target: string = DEMO_MODEL_PATH): { model?: SemanticModel; issues: ModelIssue[] } {
  try {
    const { sources, issues, damage } = readModelSources(target);
    return build(target, sources, issues, damage);
  } catch (err) {
    if (err instanceof ModelError) return { issues: err.issues };
    throw err;
  }
}

/** The model at `target` (the demo shop when undefined); throws ModelError when invalid. */
export function loadModel(target?: string): SemanticModel {
  const { model, issues } = checkModel(target ?? DEMO_MODEL_PATH);
  if (!model) throw new ModelError(issues);
  return model;
}

/** A model from YAML text (tests, and models assembled in code). */
export function modelFromText(text: string, file = 'model.yml'): SemanticModel {
  const { source, issues, damage } = parseModelText(file, text);
  const { model, issues: all } = build(file, source ? [source] : [], issues, [
    ...(damage ? [damage] : []),
    ...(source?.damage ? [source.damage] : []),
  ]);
  if (!model) throw new ModelError(all);
  return model;
}

let demo: SemanticModel | undefined;
/** The built-in demo shop model, read once. */
export function demoModel(): SemanticModel {
  demo ??= loadModel(DEMO_MODEL_PATH);
  return demo;
}
