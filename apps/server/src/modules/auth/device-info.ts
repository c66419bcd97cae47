import type { DeviceInfo } from '@portfolio/types';

import type { StoredDeviceInfo } from '../../db/schema.js';

function detectOs(ua: string): string {
  if (/windows/i.test(ua)) {
    return 'Windows';
  }
  if (/android/i.test(ua)) {
    return 'Android';
  }
  if (/iphone|ipad|ipod/i.test(ua)) {
    return 'iOS';
  }
  if (/mac os x|macintosh/i.test(ua)) {
    return 'macOS';
  }
  if (/cros/i.test(ua)) {
    return 'ChromeOS';
  }
  if (/linux/i.test(ua)) {
    return 'Linux';
  }
  return 'Unknown';
}

function detectBrowser(ua: string): string {
  if (/edg\//i.test(ua)) {
    return 'Edge';
  }
  if (/opr\/|opera/i.test(ua)) {
    return 'Opera';
  }
  // on iOS every browser is WebKit and says Safari; Chrome and Firefox add CriOS/FxiOS
  if (/firefox\/|fxios\//i.test(ua)) {
    return 'Firefox';
  }
  if (/chrome\/|chromium\/|crios\//i.test(ua)) {
    return 'Chrome';
  }
  if (/safari\//i.test(ua)) {
    return 'Safari';
  }
  return 'Unknown';
}

function detectType(ua: string, width: number): string {
  if (/ipad|tablet/i.test(ua) || (/android/i.test(ua) && !/mobile/i.test(ua))) {
    return 'tablet';
  }
  if (/mobi|iphone|ipod/i.test(ua)) {
    return 'mobile';
  }
  if (!ua && width === 0) {
    return 'Unknown';
  }
  return 'desktop';
}

/** Turns what the browser reports at login into the device fields the admin sees. */
export function describeDevice(
  info: DeviceInfo | undefined,
  headerUserAgent: string | undefined,
): StoredDeviceInfo {
  const ua = info?.userAgent ?? headerUserAgent ?? '';
  const match = /^(\d{1,5})\s*[x×]\s*(\d{1,5})$/.exec(info?.screenResolution ?? '');
  const screenWidth = match?.[1] ? Number(match[1]) : 0;
  const screenHeight = match?.[2] ? Number(match[2]) : 0;
  return {
    type: detectType(ua, screenWidth),
    os: detectOs(ua),
    browser: detectBrowser(ua),
    screenWidth,
    screenHeight,
    ...(info?.timezone ? { timezone: info.timezone } : {}),
    ...(info?.language ? { language: info.language } : {}),
  };
}
