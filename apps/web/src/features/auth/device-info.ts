import type { DeviceInfo } from '@portfolio/types';

/** What the login call reports about this browser (spec: login device info). */
export function getDeviceInfo(): DeviceInfo {
  return {
    screenResolution: `${window.screen.width}x${window.screen.height}`,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    language: navigator.language,
    userAgent: navigator.userAgent.slice(0, 512),
  };
}
