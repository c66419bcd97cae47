import { describe, expect, it } from 'vitest';

import { DeviceInfo, Email, LoginRequest, RegisterRequest } from './auth.js';
import { ForgotPasswordRequest } from './mail.js';
import { AnonymousHeartbeatRequest, HeartbeatRequest, TrackGameClickRequest } from './presence.js';

const firstIssue = (result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) => {
  const issue = result.error?.issues[0];
  return issue ? `${issue.path.join('.')}: ${issue.message}` : undefined;
};

describe('RegisterRequest', () => {
  it('accepts a username and password with an optional or empty email', () => {
    expect(RegisterRequest.safeParse({ username: 'alice', password: 'password1' }).success).toBe(
      true,
    );
    expect(
      RegisterRequest.safeParse({ username: 'alice', email: '', password: 'password1' }).success,
    ).toBe(true);
    expect(RegisterRequest.parse({ username: '  bob_1 ', password: 'password1' }).username).toBe(
      'bob_1',
    );
  });

  it('explains what is wrong, field first', () => {
    expect(firstIssue(RegisterRequest.safeParse({ username: 'al', password: 'password1' }))).toBe(
      'username: must be at least 3 characters',
    );
    expect(firstIssue(RegisterRequest.safeParse({ username: 'alice', password: 'short' }))).toBe(
      'password: must be at least 8 characters',
    );
    expect(
      firstIssue(
        RegisterRequest.safeParse({ username: 'alice', email: 'a b@c.d', password: 'password1' }),
      ),
    ).toBe('email: Please enter a valid email address');
    expect(
      firstIssue(RegisterRequest.safeParse({ username: 'al ice', password: 'password1' })),
    ).toMatch(/^username: /);
  });
});

describe('LoginRequest', () => {
  it('requires both fields', () => {
    // whole sentences, also for a name of only spaces (trimmed to nothing)
    expect(firstIssue(LoginRequest.safeParse({ username: '   ', password: 'x' }))).toBe(
      'username: Please enter your username',
    );
    expect(firstIssue(LoginRequest.safeParse({ username: 'alice', password: '' }))).toBe(
      'password: Please enter your password',
    );
    expect(
      LoginRequest.safeParse({
        username: 'alice',
        password: 'x',
        deviceInfo: { screenResolution: '1920x1080' },
      }).success,
    ).toBe(true);
  });
});

describe('text that is stored', () => {
  it('refuses control characters and lone surrogates in device info, naming the field', () => {
    for (const [field, value] of [
      ['timezone', 'a\u0000b'],
      ['language', '\ud800'],
      ['language', 'en\udc00'],
      ['userAgent', 'Mozilla\u001b[31m'],
      ['screenResolution', '1920x1080\n'],
      ['timezone', 'Europe/Berlin\u0085'],
    ] as const) {
      expect(firstIssue(DeviceInfo.safeParse({ [field]: value })), JSON.stringify(value)).toBe(
        `${field}: must not contain control characters or invalid Unicode`,
      );
    }
  });

  it('accepts what browsers report, emoji and other scripts included', () => {
    expect(
      DeviceInfo.safeParse({
        screenResolution: '1920×1080',
        timezone: 'America/Argentina/Buenos_Aires',
        language: 'zh-Hant-TW',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Ünïcödé 😀',
      }).success,
    ).toBe(true);
  });

  it('refuses control characters and lone surrogates in an email', () => {
    for (const email of ['a\u0000@b.co', 'a@b\u0000.co', 'a@b.c\u007f', 'a\ud800@b.co']) {
      expect(Email.safeParse(email).success, JSON.stringify(email)).toBe(false);
    }
    expect(
      firstIssue(
        RegisterRequest.safeParse({
          username: 'alice',
          email: 'a\u0000@b.co',
          password: 'password1',
        }),
      ),
    ).toBe('email: Please enter a valid email address');
    expect(Email.safeParse('jürgen@bücher.example').success).toBe(true);
  });

  it('takes a bare address only: no display name, quotes, encoded word or list', () => {
    for (const email of [
      'victim.example.com<evil@attacker.test>',
      'Someone <evil@attacker.test>',
      '=?utf-8?b?ZXZpbEBhdHRhY2tlci50ZXN0?=@example.com',
      '"evil"@example.com',
      'me,evil@attacker.test',
      'me;evil@attacker.test',
      'evil@attacker.test (comment)',
      'a@[192.0.2.1]',
    ]) {
      expect(Email.safeParse(email).success, email).toBe(false);
      expect(ForgotPasswordRequest.safeParse({ login: email }).success, email).toBe(false);
    }
    for (const email of ['someone@example.com', "o'brien+tag@mail.example.co.uk", 'x=y@z.io']) {
      expect(Email.safeParse(email).success, email).toBe(true);
      expect(ForgotPasswordRequest.safeParse({ login: email }).success, email).toBe(true);
    }
    // a username has no '@' and is still a login
    expect(ForgotPasswordRequest.safeParse({ login: 'alice' }).success).toBe(true);
  });

  it('refuses control characters in a username', () => {
    expect(
      RegisterRequest.safeParse({ username: 'ab\u0000c', password: 'password1' }).success,
    ).toBe(false);
  });
});

describe('heartbeats and clicks', () => {
  it('takes page paths only', () => {
    expect(HeartbeatRequest.safeParse({ currentPage: '/games' }).success).toBe(true);
    expect(firstIssue(HeartbeatRequest.safeParse({ currentPage: 'https://evil.example/' }))).toBe(
      'currentPage: must be a path starting with /',
    );
    expect(HeartbeatRequest.safeParse({ currentPage: `/${'x'.repeat(600)}` }).success).toBe(false);
    expect(HeartbeatRequest.safeParse({ currentPage: '/a\u0007b' }).success).toBe(false);
  });

  it('takes printable page paths only: no bidirectional controls, lone surrogates or invisible characters', () => {
    for (const page of [
      '/games/\u202Eevil',
      '/a\u2066b\u2069',
      '/a\u200Fb',
      '/a\uD800',
      '/a\uDC00b',
      '/a\u200Bb',
      '/a\u2028b',
      '/a\u00A0b',
      '/a\uE000',
    ]) {
      expect(HeartbeatRequest.safeParse({ currentPage: page }).success, JSON.stringify(page)).toBe(
        false,
      );
    }
    for (const page of ['/games/wolfscape', '/tutorials/c++?step=2#top', '/galería/日本', '/😀']) {
      expect(HeartbeatRequest.safeParse({ currentPage: page }).success, page).toBe(true);
    }
  });

  it('takes a visitor id of 16 to 64 URL-safe characters', () => {
    expect(
      AnonymousHeartbeatRequest.safeParse({ currentPage: '/', visitorId: 'abcdefghijklmnop' })
        .success,
    ).toBe(true);
    expect(
      AnonymousHeartbeatRequest.safeParse({ currentPage: '/', visitorId: 'short' }).success,
    ).toBe(false);
    expect(
      AnonymousHeartbeatRequest.safeParse({ currentPage: '/', visitorId: 'has spaces in it ok?' })
        .success,
    ).toBe(false);
  });

  it('requires a game id', () => {
    expect(firstIssue(TrackGameClickRequest.safeParse({ gameId: '' }))).toBe('gameId: is required');
  });
});
