// Schedule, time zone, time and day fields, or a cron expression with its next runs, shared by
// insight subscriptions and dashboard reports (docs/notifications.md "Time zones", "Cron").
import { cronPreview, DAYS, formatRun, timeZones, type ScheduleValue } from '../schedule.ts';
import { FieldError, fieldMessage } from './Problem.tsx';

export function ScheduleFields({
  value,
  onChange,
  idPrefix,
  error,
}: {
  value: ScheduleValue;
  onChange: (v: ScheduleValue) => void;
  idPrefix: string;
  /** The service's refusal, whose schedule fields are shown next to them. */
  error?: unknown;
}) {
  const cron = value.schedule === 'cron';
  const preview = cron ? cronPreview(value.cron, value.timezone) : undefined;
  // The service's word wins once it answered; until then, croner's in the browser.
  const cronProblem = fieldMessage(error, '/body/cron') ?? (value.cron.trim() ? preview?.problem : undefined);
  const zoneProblem = fieldMessage(error, '/body/timezone');
  const timeProblem = fieldMessage(error, '/body/schedule_time');
  const zoneList = timeZones().includes(value.timezone) ? timeZones() : [value.timezone, ...timeZones()];
  return (
    <div class="row wrap">
      <div>
        <label for={`${idPrefix}-schedule`}>Schedule</label>
        <select
          id={`${idPrefix}-schedule`}
          value={value.schedule}
          onChange={(e) => onChange({ ...value, schedule: e.currentTarget.value as ScheduleValue['schedule'] })}
        >
          <option value="daily">Daily</option>
          <option value="weekly">Weekly</option>
          <option value="monthly">Monthly</option>
          <option value="cron">Custom (cron)</option>
        </select>
      </div>
      <div>
        <label for={`${idPrefix}-tz`}>Time zone</label>
        <select
          id={`${idPrefix}-tz`}
          value={value.timezone}
          aria-invalid={zoneProblem ? 'true' : undefined}
          aria-describedby={zoneProblem ? `${idPrefix}-tz-error` : undefined}
          onChange={(e) => onChange({ ...value, timezone: e.currentTarget.value })}
        >
          {zoneList.map((z) => (
            <option key={z} value={z}>
              {z.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
        <FieldError id={`${idPrefix}-tz-error`} label="Time zone" message={zoneProblem} />
      </div>
      {cron ? (
        <div class="cron-field">
          <label for={`${idPrefix}-cron`}>Cron expression</label>
          <input
            id={`${idPrefix}-cron`}
            required
            autoComplete="off"
            spellcheck={false}
            placeholder="0 8 * * 1-5"
            value={value.cron}
            aria-invalid={cronProblem ? 'true' : undefined}
            aria-describedby={`${idPrefix}-cron-help${cronProblem ? ` ${idPrefix}-cron-error` : ''}`}
            onInput={(e) => onChange({ ...value, cron: e.currentTarget.value })}
          />
          <FieldError id={`${idPrefix}-cron-error`} label="Cron expression" message={cronProblem} />
          <div id={`${idPrefix}-cron-help`} class="muted small" aria-live="polite">
            {preview && preview.runs.length > 0 ? (
              <>
                Next runs:
                <ul class="cron-runs" aria-label="Next runs">
                  {preview.runs.map((d) => (
                    <li key={d.toISOString()}>{formatRun(d, value.timezone)}</li>
                  ))}
                </ul>
              </>
            ) : (
              'minute hour day-of-month month day-of-week, e.g. 0 8 * * 1-5 for 08:00 on weekdays'
            )}
          </div>
        </div>
      ) : (
        <div>
          <label for={`${idPrefix}-time`}>Time</label>
          <input
            id={`${idPrefix}-time`}
            type="time"
            value={value.time}
            aria-invalid={timeProblem ? 'true' : undefined}
            aria-describedby={timeProblem ? `${idPrefix}-time-error` : undefined}
            onInput={(e) => onChange({ ...value, time: e.currentTarget.value })}
          />
          <FieldError id={`${idPrefix}-time-error`} label="Time" message={timeProblem} />
        </div>
      )}
      {value.schedule === 'weekly' && (
        <div>
          <label for={`${idPrefix}-dow`}>Day of the week</label>
          <select id={`${idPrefix}-dow`} value={value.dayOfWeek} onChange={(e) => onChange({ ...value, dayOfWeek: e.currentTarget.value })}>
            {DAYS.map((d, i) => (
              <option key={d} value={String(i)}>
                {d}
              </option>
            ))}
          </select>
        </div>
      )}
      {value.schedule === 'monthly' && (
        <div>
          <label for={`${idPrefix}-dom`}>Day of the month</label>
          <input
            id={`${idPrefix}-dom`}
            type="number"
            min={1}
            max={31}
            required
            value={value.dayOfMonth}
            onInput={(e) => onChange({ ...value, dayOfMonth: e.currentTarget.value })}
          />
        </div>
      )}
    </div>
  );
}
