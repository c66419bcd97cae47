import { useLayoutEffect, useRef, useState } from 'react';

/** Pieces the site's SVG charts share: the admin dashboard's visitors and analytics' trend. */

/** The width drawn before the figure is measured (and where it cannot be, as in tests). */
const DEFAULT_WIDTH = 720;
const MIN_WIDTH = 240;
/** Room one date label needs on the axis (at the chart's 12 px), so labels never overlap. */
export const X_LABEL_SLOT = 64;

/**
 * The figure's width in CSS pixels, followed as it changes. The chart is drawn at that width
 * (one unit of the SVG per pixel), so its text keeps its size on a phone instead of shrinking
 * with a wide drawing scaled down.
 */
export function useMeasuredWidth() {
  const ref = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') {
      return;
    }
    const measure = () => {
      const measured = Math.round(element.getBoundingClientRect().width);
      if (measured > 0) {
        setWidth(Math.max(MIN_WIDTH, measured));
      }
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** A round axis maximum (1, 2 or 5 times a power of ten) at or above the largest value. */
export function niceMax(value: number): number {
  if (value <= 0) {
    return 1;
  }
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((factor) => factor * magnitude >= value) ?? 10;
  return step * magnitude;
}
