import type { DailyStat } from '@portfolio/types';
import { useId } from 'react';

import { niceMax, useMeasuredWidth, X_LABEL_SLOT } from '../../ui/chart';
import { dayKey, formatShortDay } from './dashboard-format';

const HEIGHT = 280;
const MARGIN = { top: 16, right: 16, bottom: 56, left: 48 };
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;
/** The dashboard's window (spec: analytics window 30 days): the axis spans it however few days have data. */
export const WINDOW_DAYS = 30;
/** A bar never grows wider than this, so one day of data is not one huge bar. */
export const MAX_BAR_WIDTH = 32;

const DAY_MS = 86_400_000;

/** A calendar day as a number of days (NaN when it is not a date). */
function dayNumber(date: string): number {
  return Math.round(Date.parse(`${dayKey(date)}T00:00:00Z`) / DAY_MS);
}

/**
 * Daily visitors over the window as stacked bars (registered below, anonymous above), drawn as
 * inline SVG. Days come oldest first, left to right; the axis is the whole window, each day in
 * its own slot counted back from the latest, so a few days of data stay a few narrow bars.
 */
export function VisitorsChart({ days }: { days: readonly DailyStat[] }) {
  const titleId = useId();
  const descId = useId();
  const { ref, width } = useMeasuredWidth();
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const maxXLabels = Math.max(2, Math.floor(plotWidth / X_LABEL_SLOT));
  const highest = Math.max(
    0,
    ...days.map((day) =>
      Math.max(day.daily_total, day.registered_visitors + day.anonymous_visitors),
    ),
  );
  const max = niceMax(highest);
  const slots = Math.max(days.length, WINDOW_DAYS);
  const slot = plotWidth / slots;
  const barWidth = Math.min(Math.max(slot * 0.7, 1), MAX_BAR_WIDTH);
  const labelEvery = Math.max(Math.ceil(slots / maxXLabels), 1);
  const y = (value: number) => MARGIN.top + PLOT_HEIGHT - (value / max) * PLOT_HEIGHT;
  const ticks = [0, max / 2, max];
  const first = days[0];
  const last = days[days.length - 1];
  const lastDay = last ? dayNumber(last.date) : 0;
  /** The day's slot: counted back from the latest day, or by order if its date is not one. */
  const slotOf = (day: DailyStat, index: number) => {
    const back = lastDay - dayNumber(day.date);
    return Number.isFinite(back) && back >= 0 ? slots - 1 - back : slots - days.length + index;
  };

  return (
    <figure className="chart" ref={ref}>
      <svg
        className="chart__svg"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
      >
        <title
          id={titleId}
        >{`Daily visitors, last ${days.length} ${days.length === 1 ? 'day' : 'days'}`}</title>
        <desc id={descId}>
          {first && last
            ? `Registered and anonymous visitors per day from ${dayKey(first.date)} to ${dayKey(last.date)}; highest day ${highest}.`
            : 'No visitor data.'}
        </desc>
        {ticks.map((tick) => (
          <g key={tick} className="chart__tick">
            <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} />
            <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end">
              {Number.isInteger(tick) ? tick : tick.toFixed(1)}
            </text>
          </g>
        ))}
        {days.map((day, index) => {
          const at = slotOf(day, index);
          if (at < 0) {
            return null;
          }
          const x = MARGIN.left + at * slot + (slot - barWidth) / 2;
          const registeredTop = y(day.registered_visitors);
          const totalTop = y(day.registered_visitors + day.anonymous_visitors);
          return (
            <g key={day.date}>
              <title>
                {`${dayKey(day.date)}: ${day.daily_total} visitors (${day.registered_visitors} registered, ${day.anonymous_visitors} anonymous)`}
              </title>
              <rect
                className="chart__bar chart__bar--registered"
                x={x}
                y={registeredTop}
                width={barWidth}
                height={MARGIN.top + PLOT_HEIGHT - registeredTop}
              />
              <rect
                className="chart__bar chart__bar--anonymous"
                x={x}
                y={totalTop}
                width={barWidth}
                height={registeredTop - totalTop}
              />
            </g>
          );
        })}
        {last && Number.isFinite(lastDay)
          ? Array.from({ length: slots }, (_, at) => at)
              .filter((at) => (slots - 1 - at) % labelEvery === 0)
              .map((at) => {
                const date = new Date((lastDay - (slots - 1 - at)) * DAY_MS)
                  .toISOString()
                  .slice(0, 10);
                return (
                  <text
                    key={date}
                    className="chart__x-label"
                    x={MARGIN.left + at * slot + slot / 2}
                    y={MARGIN.top + PLOT_HEIGHT + 18}
                    textAnchor="middle"
                  >
                    {formatShortDay(date)}
                  </text>
                );
              })
          : null}
        <line
          className="chart__axis"
          x1={MARGIN.left}
          x2={width - MARGIN.right}
          y1={MARGIN.top + PLOT_HEIGHT}
          y2={MARGIN.top + PLOT_HEIGHT}
        />
        <text className="chart__axis-title" x={MARGIN.left + plotWidth / 2} y={HEIGHT - 8}>
          Date
        </text>
        <text
          className="chart__axis-title"
          transform={`translate(14 ${MARGIN.top + PLOT_HEIGHT / 2}) rotate(-90)`}
        >
          Visitors
        </text>
      </svg>
      <figcaption className="chart__legend">
        <span className="chart__key chart__key--registered">Registered</span>
        <span className="chart__key chart__key--anonymous">Anonymous</span>
      </figcaption>
    </figure>
  );
}
