import type { DailyStat } from '@portfolio/types';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { MAX_BAR_WIDTH, VisitorsChart } from './visitors-chart';

function day(date: string, registered: number, anonymous: number): DailyStat {
  return {
    date,
    new_users: 0,
    total_users: registered + anonymous,
    peak_concurrent: 1,
    registered_visitors: registered,
    anonymous_visitors: anonymous,
    daily_total: registered + anonymous,
  };
}

const barsOf = (container: HTMLElement) =>
  Array.from(container.querySelectorAll('rect.chart__bar--registered'));

describe('VisitorsChart', () => {
  it('draws one day of data as one narrow bar at the end of a 30-day axis', () => {
    const { container } = render(<VisitorsChart days={[day('2026-11-27', 2, 3)]} />);
    const [bar] = barsOf(container);
    expect(bar).toBeDefined();
    const width = Number(bar?.getAttribute('width'));
    expect(width).toBeLessThanOrEqual(MAX_BAR_WIDTH);
    // the chart is 720 wide here: the only bar sits in the last of 30 slots, at the right
    const x = Number(bar?.getAttribute('x'));
    expect(x).toBeGreaterThan(600);
    // the axis still shows earlier days of the window
    const labels = Array.from(container.querySelectorAll('.chart__x-label')).map(
      (label) => label.textContent,
    );
    expect(labels.length).toBeGreaterThan(1);
    expect(labels.at(-1)).toBe('Nov 27');
  });

  it('places each day by its date, leaving gaps for days without data', () => {
    const { container } = render(
      <VisitorsChart days={[day('2026-11-20', 1, 1), day('2026-11-27', 2, 2)]} />,
    );
    const [earlier, later] = barsOf(container).map((bar) => Number(bar.getAttribute('x')));
    const slot = (720 - 16 - 48) / 30;
    expect((later ?? 0) - (earlier ?? 0)).toBeCloseTo(7 * slot, 5);
  });
});
