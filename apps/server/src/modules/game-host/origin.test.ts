import { describe, expect, it } from 'vitest';

import { gamesOriginFor, hostNameOf, siteOriginsFor } from './origin.js';

const base = {
  host: '127.0.0.1',
  port: 3000,
  publicOrigin: undefined,
  gamesHost: { origin: undefined, port: 3001 },
} as const;
const config = (overrides: object = {}) =>
  ({ ...base, ...overrides, gamesHost: { ...base.gamesHost } }) as Parameters<
    typeof gamesOriginFor
  >[1] &
    Parameters<typeof siteOriginsFor>[0];

describe('the games origin and the site origins', () => {
  it('uses GAMES_ORIGIN when set', () => {
    const c = config();
    c.gamesHost.origin = 'https://games.example.com';
    expect(gamesOriginFor({ headers: { host: 'localhost:3000' } }, c)).toBe(
      'https://games.example.com',
    );
  });

  it('is the other loopback name than the one the browser used for the site on the embedded default', () => {
    // cookies are per host name, not per port: a game on the site's own name shares its jar
    expect(gamesOriginFor({ headers: { host: 'localhost:3000' } }, config())).toBe(
      'http://127.0.0.1:3001',
    );
    expect(gamesOriginFor({ headers: { host: '127.0.0.1:3000' } }, config())).toBe(
      'http://localhost:3001',
    );
    expect(gamesOriginFor({ headers: { host: '[::1]:3000' } }, config())).toBe(
      'http://localhost:3001',
    );
    expect(
      gamesOriginFor(
        { headers: { host: 'forged.example' } },
        config({ publicOrigin: 'http://localhost:8080' }),
      ),
    ).toBe('http://127.0.0.1:3001');
  });

  it('never copies a malformed Host header into an origin', () => {
    for (const host of ['a;b', 'evil.com/x', 'x y', '', 'a:b:c']) {
      expect(gamesOriginFor({ headers: { host } }, config())).toBe('http://localhost:3001');
    }
    expect(hostNameOf('Example.COM:80')).toBe('example.com');
  });

  it('takes the host name from PUBLIC_ORIGIN when set', () => {
    const c = config({ publicOrigin: 'http://play.lan:8080' });
    expect(gamesOriginFor({ headers: { host: 'forged.example' } }, c)).toBe('http://play.lan:3001');
    expect(siteOriginsFor(c)).toEqual(['http://play.lan:8080']);
  });

  it('lists the loopback names on PORT as the site without PUBLIC_ORIGIN, none CSP rejects', () => {
    expect(siteOriginsFor(config())).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000']);
  });
});
