// What the insight subscription and dashboard report forms share: the titled form, the schedule
// (time zone, cron), the service's problem, and Cancel / submit. Each form brings its own fields.
import type { ComponentChildren } from 'preact';
import { Problem } from '../Problem.tsx';
import type { ScheduleValue } from '../../schedule.ts';
import { ScheduleFields } from '../ScheduleFields.tsx';
import type { useAction } from '../useAsync.ts';
import { FormActions } from '../FormActions.tsx';

interface Props {
  idPrefix: string;
  heading: string;
  save: ReturnType<typeof useAction>;
  schedule: ScheduleValue;
  setSchedule: (v: ScheduleValue) => void;
  onSubmit: (e: Event) => void;
  onCancel?: () => void;
  submitLabel: string;
  /** False while the form cannot be sent (besides while it is being sent). */
  ready?: boolean;
  /** The fields above the schedule. */
  children: ComponentChildren;
  /** The fields below it. */
  after?: ComponentChildren;
}

export function SubscriptionForm({
  idPrefix,
  heading,
  save,
  schedule,
  setSchedule,
  onSubmit,
  onCancel,
  submitLabel,
  ready = true,
  children,
  after,
}: Props) {
  const id = (x: string) => `${idPrefix}-${x}`;
  return (
    <form class="form card" onSubmit={onSubmit} aria-labelledby={id('h')}>
      <h3 id={id('h')}>{heading}</h3>
      {children}
      <ScheduleFields
        idPrefix={idPrefix}
        value={schedule}
        onChange={(v) => {
          // A changed field is no longer what the service refused.
          save.clear();
          setSchedule(v);
        }}
        error={save.error}
      />
      {after}
      <Problem error={save.error} />
      <FormActions submitLabel={submitLabel} onCancel={onCancel} disabled={save.busy || !ready} />
    </form>
  );
}
