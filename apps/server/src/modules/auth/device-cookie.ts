import { randomBytes } from 'node:crypto';

import { createTruncatedMac } from '../../lib/truncated-mac.js';

/**
 * Device cookies, as OWASP describes them for login throttling without lockouts
 * (https://owasp.org/www-community/Slow_Down_Online_Guessing_Attacks_with_Device_Cookies): a
 * successful login leaves a signed cookie naming the user and a random device id. A later login
 * for that user from that browser is counted per device, not against the username's lockout, so
 * an attacker guessing that username from elsewhere cannot keep its owner out.
 */
export const DEVICE_COOKIE = 'did';
/** How long a browser stays a known device of its last user. */
export const DEVICE_COOKIE_MAX_AGE_MS = 180 * 24 * 60 * 60 * 1000;

const MAC_BYTES = 16;

export interface DeviceCookieSigner {
  /** A new cookie value for this user (case of the name does not matter). */
  issue(username: string): string;
  /** The device id if the value is a valid, unexpired device cookie of this user; else undefined. */
  verify(value: string | undefined, username: string): string | undefined;
}

export function createDeviceCookieSigner(
  secret: string,
  now: () => number = Date.now,
): DeviceCookieSigner {
  const mac = createTruncatedMac(secret, 'device-cookie', MAC_BYTES);
  const payloadOf = (username: string, deviceId: string, issuedAt: number) =>
    `${username.toLowerCase()}|${deviceId}|${issuedAt}`;
  return {
    issue(username) {
      const deviceId = randomBytes(12).toString('base64url');
      const issuedAt = Math.floor(now() / 1000);
      return `${deviceId}.${issuedAt}.${mac.sign(payloadOf(username, deviceId, issuedAt))}`;
    },
    verify(value, username) {
      if (!value || value.length > 200) {
        return undefined;
      }
      const [deviceId, issuedText, macText, extra] = value.split('.');
      if (!deviceId || !issuedText || !macText || extra !== undefined) {
        return undefined;
      }
      const issuedAt = Number(issuedText);
      if (!/^\d{1,12}$/.test(issuedText) || issuedAt * 1000 + DEVICE_COOKIE_MAX_AGE_MS < now()) {
        return undefined;
      }
      return mac.matches(payloadOf(username, deviceId, issuedAt), macText) ? deviceId : undefined;
    },
  };
}
