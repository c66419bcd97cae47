import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

/**
 * HMAC-SHA256 truncated to `bytes`, keyed by the site's secret for one `purpose` (so a MAC made
 * for one use never passes for another). The key is prepared once: a secret longer than
 * SHA-256's block would otherwise be hashed on every call.
 */
export function createTruncatedMac(secret: string, purpose: string, bytes: number) {
  const key = createSecretKey(Buffer.from(`${secret}:${purpose}`));
  const sign = (payload: string): Buffer =>
    createHmac('sha256', key).update(payload).digest().subarray(0, bytes);
  return {
    /** The MAC of `payload`, base64url. */
    sign: (payload: string): string => sign(payload).toString('base64url'),
    /** Whether `given` (base64url) is the MAC of `payload`, compared in constant time. */
    matches(payload: string, given: string): boolean {
      const received = Buffer.from(given, 'base64url');
      const expected = sign(payload);
      return received.length === expected.length && timingSafeEqual(received, expected);
    },
  };
}
