import { describe, expect, it } from 'vitest';

import { CurrentUserResponseGuard, isApiError, isCurrentUserResponse } from './client.js';
import { ApiError, CurrentUserResponse } from './session.js';
import { isSiteConfig } from './site.js';

const user = { id: 'u1', username: 'ann', role: 'subscriber' };

const currentUserSamples: unknown[] = [
  { user },
  { user: null },
  { user: { ...user, extra: 1 } },
  { user: { ...user, role: 'owner' } },
  { user: { ...user, id: 7 } },
  { user: { id: 'u1', role: 'user' } },
  user,
  {},
  { user: undefined },
  null,
  'ann',
  [user],
];

const errorSamples: unknown[] = [
  { error: { code: 'NOT_FOUND', message: 'Not found' } },
  { error: { code: 'BAD_REQUEST', message: 'Bad', details: 'more' } },
  { error: { code: 'BAD_REQUEST', message: 'Bad', details: 3 } },
  { error: { code: 'X' } },
  { error: 'boom' },
  { message: 'boom' },
  null,
];

describe('the zod-free guards agree with the zod schemas', () => {
  it.each(currentUserSamples.map((sample) => [JSON.stringify(sample), sample]))(
    'current user %s',
    (_label, sample) => {
      expect(isCurrentUserResponse(sample)).toBe(CurrentUserResponse.safeParse(sample).success);
    },
  );

  it.each(errorSamples.map((sample) => [JSON.stringify(sample), sample]))(
    'error body %s',
    (_label, sample) => {
      expect(isApiError(sample)).toBe(ApiError.safeParse(sample).success);
    },
  );

  it('parses like the schema: only the named fields, and throws on a wrong shape', () => {
    const answer = { user: { ...user, extra: 1 } };
    expect(CurrentUserResponseGuard.parse(answer)).toEqual(CurrentUserResponse.parse(answer));
    expect(() => CurrentUserResponseGuard.parse({ user: { ...user, role: 'owner' } })).toThrow(
      'The answer is not a valid current user',
    );
  });
});

describe('isSiteConfig', () => {
  it('takes two https links and nothing else', () => {
    expect(
      isSiteConfig({ githubUrl: 'https://github.com/a', linkedinUrl: 'https://linkedin.com/in/a' }),
    ).toBe(true);
    expect(
      isSiteConfig({ githubUrl: 'javascript:alert(1)', linkedinUrl: 'https://linkedin.com' }),
    ).toBe(false);
    expect(isSiteConfig({ githubUrl: 'https://github.com/a' })).toBe(false);
    expect(isSiteConfig(null)).toBe(false);
  });

  it("takes the owner's site name and home texts only in their shape", () => {
    const links = { githubUrl: 'https://github.com/a', linkedinUrl: 'https://linkedin.com/in/a' };
    const card = { title: 'Games', text: 'Play.' };
    const home = { title: 'Hi', lead: 'I make games.', cards: [card, card, card] };
    expect(isSiteConfig({ ...links, siteName: 'Ada', home })).toBe(true);
    expect(isSiteConfig({ ...links, siteName: '' })).toBe(false);
    expect(isSiteConfig({ ...links, home: { ...home, cards: [card, card] } })).toBe(false);
    expect(isSiteConfig({ ...links, home: { ...home, title: 7 } })).toBe(false);
  });
});
