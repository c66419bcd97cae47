import { useEffect, useState } from 'react';

export type DeviceClass = 'high-res' | 'standard' | 'tablet' | 'mobile' | 'mobile-landscape';

/** Spec section 9: device breakpoints. */
export const DEVICE_BREAKPOINTS = { tablet: 768, standard: 1200, highRes: 1920 } as const;

/**
 * The viewer's device class (spec section 2): high-res at a window width of 1920 or more with a
 * pixel ratio above 1; standard at 1200 or more; tablet at 768 or more; otherwise mobile. A device
 * turned to an orientation of 90 degrees is mobile-landscape, whatever its width.
 */
export function classifyDevice(input: {
  width: number;
  pixelRatio: number;
  orientation: number | undefined;
}): DeviceClass {
  if (input.orientation === 90) {
    return 'mobile-landscape';
  }
  if (input.width >= DEVICE_BREAKPOINTS.highRes && input.pixelRatio > 1) {
    return 'high-res';
  }
  if (input.width >= DEVICE_BREAKPOINTS.standard) {
    return 'standard';
  }
  if (input.width >= DEVICE_BREAKPOINTS.tablet) {
    return 'tablet';
  }
  return 'mobile';
}

/** The orientation mobile browsers report (window.orientation); desktops have none. */
function readOrientation(): number | undefined {
  const legacy = (window as Window & { orientation?: unknown }).orientation;
  return typeof legacy === 'number' ? legacy : undefined;
}

function readDeviceClass(): DeviceClass {
  return classifyDevice({
    width: window.innerWidth,
    pixelRatio: window.devicePixelRatio || 1,
    orientation: readOrientation(),
  });
}

/** The current device class, updated when the window is resized or the device turned. */
export function useDeviceClass(): DeviceClass {
  const [deviceClass, setDeviceClass] = useState(readDeviceClass);
  useEffect(() => {
    const update = () => setDeviceClass(readDeviceClass());
    window.addEventListener('resize', update);
    window.addEventListener('orientationchange', update);
    return () => {
      window.removeEventListener('resize', update);
      window.removeEventListener('orientationchange', update);
    };
  }, []);
  return deviceClass;
}
