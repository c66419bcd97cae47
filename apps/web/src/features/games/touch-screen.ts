import { useEffect, useState } from 'react';

/** A screen whose main pointer is a finger (phones, tablets): no keyboard to count on. */
const TOUCH_QUERY = '(pointer: coarse)';

function readIsTouchScreen(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(TOUCH_QUERY).matches;
}

/**
 * Whether the main pointer is a finger: keyboard-only games say they cannot be played
 * here, the F10 hint is not shown, fullscreen is offered in the game's orientation.
 */
export function useIsTouchScreen(): boolean {
  const [isTouchScreen, setTouchScreen] = useState(readIsTouchScreen);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') {
      return undefined;
    }
    const query = window.matchMedia(TOUCH_QUERY);
    const update = () => setTouchScreen(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return isTouchScreen;
}
