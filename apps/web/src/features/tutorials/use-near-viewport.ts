import { type RefObject, useEffect, useState } from 'react';

/**
 * Whether an element has come within `rootMargin` of the viewport; once true it stays true.
 * Without IntersectionObserver (old browsers, tests) it is true at once.
 */
export function useNearViewport(ref: RefObject<Element | null>, rootMargin = '50% 0px'): boolean {
  const [isNear, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (isNear || !element) {
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, rootMargin, isNear]);
  return isNear;
}
