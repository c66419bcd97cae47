import Bowser from 'bowser';

import type { DeviceInfo } from '@portfolio/types';

import type { StoredDeviceInfo } from '../../db/schema.js';

const UNKNOWN = 'Unknown';

/** Device type, OS and browser as bowser reads a user agent; 'Unknown' for what it cannot tell. */
function parseUserAgent(userAgent: string): Pick<StoredDeviceInfo, 'type' | 'os' | 'browser'> {
  if (userAgent.trim() === '') {
    return { type: UNKNOWN, os: UNKNOWN, browser: UNKNOWN };
  }
  let parsed: Bowser.Parser.ParsedResult;
  try {
    parsed = Bowser.parse(userAgent);
  } catch {
    // an agent it cannot read must not fail the login
    return { type: UNKNOWN, os: UNKNOWN, browser: UNKNOWN };
  }
  const os = parsed.os.name || UNKNOWN;
  return {
    // bowser names no platform for some desktops (Chrome OS): a known OS without one is a desktop
    type: parsed.platform.type || (os === UNKNOWN ? UNKNOWN : 'desktop'),
    os,
    browser: parsed.browser.name || UNKNOWN,
  };
}

/** Turns what the browser reports at login into the device fields the admin sees. */
export function describeDevice(
  info: DeviceInfo | undefined,
  headerUserAgent: string | undefined,
): StoredDeviceInfo {
  const match = /^(\d{1,5})\s*[x×]\s*(\d{1,5})$/.exec(info?.screenResolution ?? '');
  return {
    ...parseUserAgent(info?.userAgent ?? headerUserAgent ?? ''),
    screenWidth: match?.[1] ? Number(match[1]) : 0,
    screenHeight: match?.[2] ? Number(match[2]) : 0,
    ...(info?.timezone ? { timezone: info.timezone } : {}),
    ...(info?.language ? { language: info.language } : {}),
  };
}
