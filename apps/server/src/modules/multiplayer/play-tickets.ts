import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

import { PLAY_TICKET_TTL_SECONDS } from '@portfolio/types';

/*
 * Play tickets: how a game on the games origin, which has no session cookie, joins a
 * multiplayer namespace on the site. The viewer asks the site for a ticket for the open game
 * (POST /api/play-tickets, with the player's session) and hands it to the game's frame through
 * the SDK; the game passes it in Socket.IO's `auth`, and the hub takes the player from it.
 *
 * A ticket is sealed (AES-256-GCM under a key derived from the site's secret): it names the
 * player, the game, the session it was issued from (so a logout ends the game, as it does for a
 * cookie socket) and its expiry, and the frame that holds it can neither read nor change any of
 * them. It lives PLAY_TICKET_TTL_SECONDS: enough to connect; every reconnection asks for a new one.
 */

export interface PlayTicketClaims {
  userId: string;
  gameId: string;
  /** The id hash of the session that asked for the ticket (SessionService.resolveIdHash). */
  sessionIdHash: string;
  /** Unix time in milliseconds after which the ticket is refused. */
  expiresAt: number;
}

export interface PlayTickets {
  issue(
    claims: Omit<PlayTicketClaims, 'expiresAt'>,
    now?: number,
  ): {
    ticket: string;
    expiresAt: number;
  };
  /** The ticket's claims when it is genuine, unexpired and for `gameId`; otherwise null. */
  verify(ticket: unknown, gameId: string, now?: number): PlayTicketClaims | null;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Far above any real ticket (ids of at most a few dozen characters): refused unread. */
const MAX_TICKET_LENGTH = 1024;

interface SealedClaims {
  u: string;
  g: string;
  s: string;
  e: number;
}

function isSealedClaims(value: unknown): value is SealedClaims {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const claims = value as Record<string, unknown>;
  return (
    typeof claims.u === 'string' &&
    typeof claims.g === 'string' &&
    typeof claims.s === 'string' &&
    typeof claims.e === 'number'
  );
}

export function createPlayTickets(
  secret: string,
  ttlSeconds: number = PLAY_TICKET_TTL_SECONDS,
): PlayTickets {
  const key = createHash('sha256').update(`${secret}:play-ticket`).digest();
  return {
    issue({ userId, gameId, sessionIdHash }, now = Date.now()) {
      const expiresAt = now + ttlSeconds * 1000;
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed: SealedClaims = { u: userId, g: gameId, s: sessionIdHash, e: expiresAt };
      const body = Buffer.concat([cipher.update(JSON.stringify(sealed), 'utf8'), cipher.final()]);
      const ticket = Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
      return { ticket, expiresAt };
    },
    verify(ticket, gameId, now = Date.now()) {
      if (typeof ticket !== 'string' || ticket.length > MAX_TICKET_LENGTH) {
        return null;
      }
      const bytes = Buffer.from(ticket, 'base64url');
      if (bytes.length <= IV_BYTES + TAG_BYTES) {
        return null;
      }
      let claims: unknown;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
          decipher.final(),
        ]);
        claims = JSON.parse(plain.toString('utf8'));
      } catch {
        // not sealed with our key (forged, altered or truncated)
        return null;
      }
      if (!isSealedClaims(claims) || claims.g !== gameId || claims.e <= now) {
        return null;
      }
      return { userId: claims.u, gameId: claims.g, sessionIdHash: claims.s, expiresAt: claims.e };
    },
  };
}
