// `insights model check`: the whole model's problems (errors), then what the warehouse lacks
// (warnings) or has wrong (a table without its cube's tenant column: an error). Exit status 1 only
// for errors: a valid model with no data loaded yet is fine.
import { checkModel, formatIssue, type ModelIssue } from './model.ts';
import { probeModel, type ProbeTarget } from './probe.ts';
import { insightReferenceWarnings } from './references.ts';

/** The system of record, when there is one to read (undefined: none yet, nothing to check). */
export type OpenRecords = () => Promise<{ db: Parameters<typeof insightReferenceWarnings>[0]; close(): Promise<void> } | undefined>;

export interface CheckOutput {
  out(line: string): void;
  err(line: string): void;
}

export async function runModelCheck(
  target: string | undefined,
  openWarehouse: () => Promise<ProbeTarget & { close(): Promise<void> }>,
  io: CheckOutput,
  openRecords?: OpenRecords,
): Promise<number> {
  const { model, issues } = checkModel(target);
  const where = target ?? 'the built-in demo model';
  if (!model) {
    const errors = issues.filter((i) => i.severity === 'error');
    io.err(`${where}: ${errors.length} problem${errors.length === 1 ? '' : 's'}:`);
    for (const i of errors) io.err(formatIssue(i));
    return 1;
  }
  let warnings: ModelIssue[] = [];
  try {
    const wh = await openWarehouse();
    try {
      warnings = await probeModel(model, wh);
    } finally {
      await wh.close();
    }
  } catch (err) {
    io.err(`warning: the warehouse could not be opened to check tables and columns: ${err instanceof Error ? err.message : String(err)}`);
  }
  const wrong = warnings.filter((w) => w.severity === 'error');
  warnings = warnings.filter((w) => w.severity !== 'error');
  for (const w of warnings) io.err(`warning:${formatIssue(w).replace(/^ +/, ' ')}`);
  // Widgets and subscriptions saved under another model: they answer 409 INSIGHT_NOT_IN_MODEL.
  let references: string[] = [];
  if (openRecords) {
    try {
      const records = await openRecords();
      if (records) {
        try {
          references = await insightReferenceWarnings(records.db, new Set(model.insights.map((d) => d.code)));
        } finally {
          await records.close();
        }
      }
    } catch (err) {
      io.err(`warning: widgets and subscriptions were not checked: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  for (const r of references) io.err(`warning: ${r}`);
  const count = warnings.length + references.length;
  if (wrong.length) {
    io.err(`${where}: ${wrong.length} problem${wrong.length === 1 ? '' : 's'} with the warehouse's tables:`);
    for (const w of wrong) io.err(formatIssue(w));
    return 1;
  }
  io.out(
    `${where}: valid — ${model.cubes.size} cubes, ${model.insights.length} ` +
      `insights${count ? `, ${count} warning${count === 1 ? '' : 's'}` : ''}.`,
  );
  return 0;
}
