import { describe, expect, it } from 'vitest';

import { rateLimitAddress } from './client-address.js';

describe('rateLimitAddress', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(rateLimitAddress('203.0.113.7')).toBe('203.0.113.7');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    // what a dual-stack listener reports for IPv4 clients: they must not share one /64
    expect(rateLimitAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitAddress('::FFFF:203.0.113.8')).toBe('203.0.113.8');
    expect(rateLimitAddress('::ffff:cb00:7109')).toBe('203.0.113.9');
  });

  it('buckets an IPv6 address by its /64, however it is written', () => {
    const bucket = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:0000:0000:0000:0001',
      '2001:DB8:1:2:aaaa:bbbb:cccc:dddd',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:db8:1:2::10.0.0.1',
      '2001:db8:1:2::9%eth0',
    ]) {
      expect(rateLimitAddress(address), address).toBe(bucket);
    }
    expect(rateLimitAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitAddress('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('leaves anything that is not an IP address unchanged', () => {
    expect(rateLimitAddress('')).toBe('');
    expect(rateLimitAddress('not an address')).toBe('not an address');
    expect(rateLimitAddress(undefined)).toBe('unknown');
  });
});
