import { describe, expect, it } from 'vitest';

import { LoginRequest, RegisterRequest } from './auth.js';
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
    expect(firstIssue(LoginRequest.safeParse({ username: '', password: 'x' }))).toBe(
      'username: is required',
    );
    expect(firstIssue(LoginRequest.safeParse({ username: 'alice', password: '' }))).toBe(
      'password: is required',
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

describe('heartbeats and clicks', () => {
  it('takes page paths only', () => {
    expect(HeartbeatRequest.safeParse({ currentPage: '/games' }).success).toBe(true);
    expect(firstIssue(HeartbeatRequest.safeParse({ currentPage: 'https://evil.example/' }))).toBe(
      'currentPage: must be a path starting with /',
    );
    expect(HeartbeatRequest.safeParse({ currentPage: `/${'x'.repeat(600)}` }).success).toBe(false);
    expect(HeartbeatRequest.safeParse({ currentPage: '/a\u0007b' }).success).toBe(false);
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
