import { describe, expect, it } from 'vitest';

import {
  describeMarkdown,
  EXCERPT_LENGTH,
  renderMarkdownHtml,
  renderPostHtml,
} from './markdown.js';

const ORIGIN = 'https://portfolio.example';

describe('renderMarkdownHtml (the feed)', () => {
  it("keeps the spec's markdown: tables, task lists, strikethrough, footnotes, autolinks", () => {
    const html = renderMarkdownHtml(
      [
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
        '',
        '- [x] done',
        '- [ ] to do',
        '',
        '~~gone~~ and https://example.com and a note[^1]',
        '',
        '[^1]: The note.',
      ].join('\n'),
      ORIGIN,
    );
    expect(html).toContain('<table>');
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*checked/);
    expect(html).toContain('<del>gone</del>');
    expect(html).toContain('<a href="https://example.com">https://example.com</a>');
    expect(html).toContain('The note.');
  });

  it.each([
    ['<script>alert(1)</script>', /<script|alert/],
    ['<img src="x" onerror="alert(1)">', /onerror|<img/],
    ['[x](javascript:alert(1))', /javascript:/i],
    ['[x](JaVaScRiPt:alert(1))', /javascript:/i],
    ['[x](data:text/html,<script>alert(1)</script>)', /data:|<script/],
    ['![x](javascript:alert(1))', /javascript:/i],
    ['<a href="https://example.com" onclick="alert(1)">a</a>', /onclick/],
    ['<iframe src="https://evil.example"></iframe>', /<iframe/],
    ['<style>body{display:none}</style>', /<style/],
  ])('drops %s', (markdown, forbidden) => {
    expect(renderMarkdownHtml(markdown, ORIGIN)).not.toMatch(forbidden);
  });

  it.each(['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'])('keeps %s: links', (protocol) => {
    const html = renderMarkdownHtml(`[x](${protocol}:target)`, ORIGIN);
    expect(html).toContain(`href="${protocol}:target"`);
  });

  it('makes site paths absolute (a feed is read elsewhere)', () => {
    const html = renderMarkdownHtml('[games](/games) ![shot](/assets/a.png)', ORIGIN);
    expect(html).toContain(`href="${ORIGIN}/games"`);
    expect(html).toContain(`src="${ORIGIN}/assets/a.png"`);
  });
});

describe('renderPostHtml (the post page)', () => {
  it('drops raw HTML, scripts, event handlers and other protocols as the feed does', () => {
    const html = renderPostHtml(
      '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))',
    );
    expect(html).not.toMatch(/<script|onerror|javascript:|<img/i);
  });

  it("adds the web renderer's affordances: new tabs, a table's region, a task's state", () => {
    const html = renderPostHtml(
      '[site](https://example.com) [here](/games)\n\n| a |\n|---|\n| 1 |\n\n- [x] done\n- [ ] not',
    );
    expect(html).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a>',
    );
    expect(html).toContain('<a href="/games">here</a>');
    expect(html).toContain(
      '<div class="markdown__table-wrap" tabindex="0" role="region" aria-label="Table"><table>',
    );
    expect(html).toMatch(/<input[^>]*checked[^>]*aria-label="Done"/);
    expect(html).toMatch(/<input[^>]*aria-label="Not done"/);
  });
});

describe('describeMarkdown', () => {
  it('gives the text the page shows, without markup, code blocks or HTML tags, as the excerpt', () => {
    const { excerpt } = describeMarkdown(
      '# Big news\n\nThe **boss** is _harder_.\n\n```js\nconsole.log(1)\n```\n\n<b>raw</b>',
    );
    // the page shows a raw tag's text (never the tag): so does the excerpt
    expect(excerpt).toBe('Big news The boss is harder. raw');
  });

  it('cuts a long excerpt at a word', () => {
    const { excerpt } = describeMarkdown('word '.repeat(200));
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_LENGTH + 1);
    expect(excerpt).toMatch(/word…$/);
  });

  it('finds the first image a card may show, never another protocol', () => {
    expect(describeMarkdown('![a](javascript:x) ![b](/assets/b.png)').image).toBe('/assets/b.png');
    expect(describeMarkdown('![a](http://insecure.example/a.png)').image).toBeNull();
    expect(describeMarkdown('no image').image).toBeNull();
  });
});
