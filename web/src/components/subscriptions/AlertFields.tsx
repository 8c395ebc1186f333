// The alert condition of an insight subscription: send every time, or when a threshold or an
// anomaly holds, for which measure, and whether every time or only when it starts to hold.
import { useState } from 'preact/hooks';
import type { Insight, InsightSubscription } from '../../types.ts';
import { FieldError, fieldMessage } from '../Problem.tsx';
import { OPS, type Op } from './conditions.ts';

/** The condition's fields, filled from a subscription being edited. */
export function useAlertCondition(initial: InsightSubscription | undefined, insight: Insight | undefined) {
  const initialCondition = initial?.condition ?? undefined;
  const [op, setOp] = useState<Op | ''>(initialCondition ? ('kind' in initialCondition ? 'anomaly' : initialCondition.op) : '');
  const [measure, setMeasure] = useState(initial?.condition?.measure ?? '');
  const [threshold, setThreshold] = useState(initialCondition && 'op' in initialCondition ? String(initialCondition.value) : '');
  const [notify, setNotify] = useState<InsightSubscription['notify']>(initial?.notify ?? 'every_time');
  // Every insight takes a threshold (a breakdown's holds per row); an anomaly needs a history a KPI has not.
  const ops = OPS.filter(([v]) => v !== 'anomaly' || insight?.kind !== 'kpi');
  const measures = insight && insight.kind !== 'kpi' ? insight.measures : [];
  /** The condition to send, or undefined for none. */
  const condition = () =>
    op && ops.some(([v]) => v === op)
      ? {
          ...(op === 'anomaly' ? { kind: 'anomaly' as const, sensitivity: 'medium' as const } : { op, value: Number(threshold) }),
          ...(measure && measures.some((m) => m.name === measure) ? { measure } : {}),
        }
      : undefined;
  const reset = () => {
    setOp('');
    setMeasure('');
    setThreshold('');
    setNotify('every_time');
  };
  return { op, setOp, measure, setMeasure, threshold, setThreshold, notify, setNotify, ops, measures, condition, reset };
}

export type AlertCondition = ReturnType<typeof useAlertCondition>;

export function AlertFields({ idPrefix, alert, error }: { idPrefix: string; alert: AlertCondition; error: unknown }) {
  const { op, setOp, measure, setMeasure, threshold, setThreshold, notify, setNotify, ops, measures } = alert;
  const id = (x: string) => `${idPrefix}-${x}`;
  const thresholdProblem = fieldMessage(error, '/body/condition/value');
  const conditionProblem = fieldMessage(error, '/body/condition') ?? fieldMessage(error, '/body/notify');
  return (
    <fieldset>
      <legend>Alert condition</legend>
      <div class="row wrap">
        <div>
          <label for={id('op')}>Send</label>
          <select
            id={id('op')}
            value={op}
            aria-invalid={conditionProblem ? 'true' : undefined}
            aria-describedby={conditionProblem ? id('op-error') : undefined}
            onChange={(e) => setOp(e.currentTarget.value as Op | '')}
          >
            <option value="">Every time (no condition)</option>
            {ops.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
          <FieldError id={id('op-error')} label="Alert condition" message={conditionProblem} />
        </div>
        {op && measures.length > 0 && (
          <div>
            <label for={id('measure')}>Measure</label>
            <select id={id('measure')} value={measure || measures[0].name} onChange={(e) => setMeasure(e.currentTarget.value)}>
              {measures.map((m) => (
                <option key={m.name} value={m.name}>
                  {m.label}
                </option>
              ))}
            </select>
          </div>
        )}
        {op && op !== 'anomaly' && (
          <div>
            <label for={id('threshold')}>{op.startsWith('change_') ? 'Threshold (%)' : 'Threshold'}</label>
            <input
              id={id('threshold')}
              type="number"
              step="any"
              required
              value={threshold}
              aria-invalid={thresholdProblem ? 'true' : undefined}
              aria-describedby={thresholdProblem ? id('threshold-error') : undefined}
              onInput={(e) => setThreshold(e.currentTarget.value)}
            />
            <FieldError id={id('threshold-error')} label="Threshold" message={thresholdProblem} />
          </div>
        )}
        {op && (
          <div>
            <label for={id('notify')}>Notify</label>
            <select id={id('notify')} value={notify} onChange={(e) => setNotify(e.currentTarget.value as InsightSubscription['notify'])}>
              <option value="every_time">Every time it holds</option>
              <option value="on_change">Only when it starts to hold</option>
            </select>
          </div>
        )}
      </div>
    </fieldset>
  );
}
