import { describe, expect, it } from 'vitest';

import { checkMarkdownLimits, MARKDOWN_DEPTH_MAX, markdownDepth } from './markdown-limits';

describe('markdownDepth', () => {
  it('counts the list and quote levels a line opens', () => {
    expect(markdownDepth('plain text\nmore')).toBe(0);
    expect(markdownDepth('- item\n- item')).toBe(1);
    expect(markdownDepth('- a\n  - b\n    - c')).toBe(3);
    expect(markdownDepth('> quote\n> > nested')).toBe(2);
    expect(markdownDepth('1. one\n2) two\n   1. nested')).toBe(2);
    expect(markdownDepth('> - 1. x')).toBe(3);
    expect(markdownDepth(`${'- '.repeat(4000)}x`)).toBe(4000);
    expect(markdownDepth('>'.repeat(50000))).toBe(50000);
  });

  it('does not count what is no marker', () => {
    expect(markdownDepth('-not a bullet\n**bold**\n2024.5 percent\n+1')).toBe(0);
    expect(markdownDepth('---\n***')).toBe(0);
  });
});

describe('checkMarkdownLimits', () => {
  it('passes real posts and refuses deep nesting or a long text, naming the limit', () => {
    expect(checkMarkdownLimits('# Title\n\n- a\n  - b\n\n> quote').ok).toBe(true);
    expect(checkMarkdownLimits(`${'- '.repeat(MARKDOWN_DEPTH_MAX)}x`).ok).toBe(true);
    const deep = checkMarkdownLimits(`${'- '.repeat(MARKDOWN_DEPTH_MAX + 1)}x`);
    expect(deep).toEqual({
      ok: false,
      limit: 'depth',
      message: 'Markdown may nest lists and quotes at most 32 levels deep (this nests 33).',
    });
    const long = checkMarkdownLimits('x'.repeat(11), 10);
    expect(long).toMatchObject({ ok: false, limit: 'size' });
    expect(long.ok ? '' : long.message).toBe(
      'Markdown must be at most 10 characters (this is 11).',
    );
  });
});
