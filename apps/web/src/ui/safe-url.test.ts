import { describe, expect, it } from 'vitest';

import { safeUrl } from './safe-url';

describe('safeUrl', () => {
  it('keeps the allowed protocols, in any case', () => {
    for (const url of [
      'http://example.com',
      'https://example.com/a?b#c',
      'HTTPS://EXAMPLE.COM',
      'irc://irc.libera.chat/unrealengine',
      'ircs://irc.libera.chat:6697/cpp',
      'mailto:owner@example.com',
      'xmpp:someone@example.com',
    ]) {
      expect(safeUrl(url)).toBe(url);
    }
  });

  it('drops every other protocol', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      'file:///etc/passwd',
      'ftp://example.com/file',
      'com.epicgames.launcher://apps',
      'tel:+123',
    ]) {
      expect(safeUrl(url)).toBe('');
    }
  });

  it('keeps relative links, fragments and paths with a colon after a slash', () => {
    for (const url of ['/Gallery', '#user-content-fn-1', 'docs/page', '?q=1', './a:b', '/a:b']) {
      expect(safeUrl(url)).toBe(url);
    }
  });
});
