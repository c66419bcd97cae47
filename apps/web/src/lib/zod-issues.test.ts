import { describe, expect, it } from 'vitest';

import { fieldErrorsOf, issueSentence } from './zod-issues';

describe('issueSentence', () => {
  it("names the field by its label, a nested part after it ('Frame width')", () => {
    const labels = { title: 'Title', frame: 'Frame' };
    expect(
      issueSentence([{ path: ['title'], message: 'is required' }], { labels, fallback: '' }),
    ).toBe('Title is required');
    expect(
      issueSentence([{ path: ['frame', 'width'], message: 'must be 1 or more' }], {
        labels,
        fallback: '',
      }),
    ).toBe('Frame width must be 1 or more');
  });

  it('writes an unlabelled field as it is, with the separator asked for', () => {
    expect(
      issueSentence([{ path: ['name'], message: 'Too long' }], { separator: ': ', fallback: '' }),
    ).toBe('name: Too long');
  });

  it('gives a whole-sentence message or one without a field alone, and the fallback for none', () => {
    const wholeMessages = new Set(['Passwords do not match']);
    expect(
      issueSentence([{ path: ['confirm'], message: 'Passwords do not match' }], {
        labels: { confirm: 'Confirm' },
        wholeMessages,
        fallback: '',
      }),
    ).toBe('Passwords do not match');
    expect(issueSentence([{ path: [], message: 'Bad' }], { fallback: '' })).toBe('Bad');
    expect(issueSentence([], { fallback: 'Check the form' })).toBe('Check the form');
  });
});

describe('fieldErrorsOf', () => {
  it("keeps each field's first message by its path", () => {
    expect(
      fieldErrorsOf([
        { path: ['media', 0, 'source'], message: 'is required' },
        { path: ['media', 0, 'source'], message: 'second' },
        { path: [], message: 'whole form' },
      ]),
    ).toEqual({ 'media.0.source': 'is required', form: 'whole form' });
  });
});
