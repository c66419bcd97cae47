import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '@portfolio/types/analytics';
import { useId, useState, type FormEvent } from 'react';

import {
  customRangeError,
  PERIOD_LABELS,
  withCustomRange,
  withPeriod,
  type AnalyticsState,
} from './analytics-query';

interface PeriodPickerProps {
  state: AnalyticsState;
  onChange: (state: AnalyticsState) => void;
}

function isPeriod(value: string): value is AnalyticsPeriod {
  return (ANALYTICS_PERIODS as readonly string[]).includes(value);
}

/** Today's UTC day, YYYY-MM-DD (the periods are UTC days). */
function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * The period: a preset applies at once; 'Custom range' shows start and end dates applied
 * together (a half-typed range never reaches the address).
 */
export function PeriodPicker({ state, onChange }: PeriodPickerProps) {
  const selectId = useId();
  const errorId = useId();
  const [isCustomOpen, setCustomOpen] = useState(state.period === 'custom');
  const [from, setFrom] = useState(state.from ?? '');
  const [to, setTo] = useState(state.to ?? '');
  const [error, setError] = useState<string | null>(null);
  const selected = isCustomOpen ? 'custom' : state.period;

  function handleSelect(value: string) {
    if (!isPeriod(value)) {
      return;
    }
    if (value === 'custom') {
      setCustomOpen(true);
      return;
    }
    setCustomOpen(false);
    setError(null);
    onChange(withPeriod(state, value));
  }

  function handleApply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = customRangeError(from, to);
    setError(problem);
    if (!problem) {
      onChange(withCustomRange(state, from, to));
    }
  }

  return (
    <form className="period-picker" onSubmit={handleApply} noValidate>
      <div className="period-picker__field">
        <label htmlFor={selectId}>Period</label>
        <select
          id={selectId}
          value={selected}
          onChange={(event) => handleSelect(event.target.value)}
        >
          {ANALYTICS_PERIODS.map((period) => (
            <option key={period} value={period}>
              {PERIOD_LABELS[period]}
            </option>
          ))}
        </select>
      </div>
      {isCustomOpen ? (
        <>
          <div className="period-picker__field">
            <label htmlFor={`${selectId}-from`}>From</label>
            <input
              id={`${selectId}-from`}
              type="date"
              value={from}
              max={todayUtc()}
              onChange={(event) => setFrom(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
          </div>
          <div className="period-picker__field">
            <label htmlFor={`${selectId}-to`}>To</label>
            <input
              id={`${selectId}-to`}
              type="date"
              value={to}
              max={todayUtc()}
              onChange={(event) => setTo(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
          </div>
          <button type="submit" className="button button--primary button--small">
            Apply
          </button>
          {error ? (
            <p id={errorId} className="period-picker__error" role="alert">
              {error}
            </p>
          ) : null}
        </>
      ) : null}
    </form>
  );
}
