import { describe, expect, it } from 'vitest';

import { tokenizeCpp, type CppToken } from './cpp-highlight';

function coloured(source: string): [CppToken['kind'], string][] {
  return tokenizeCpp(source)
    .filter((token) => token.kind !== 'plain')
    .map((token) => [token.kind, token.text]);
}

describe('tokenizeCpp', () => {
  it('colours the hello-world sample as the light editor theme does', () => {
    const source =
      '#include <iostream>\n\nint main() {\n    std::cout << "Hello, World!" << std::endl;\n    return 0;\n}\n';
    expect(coloured(source)).toEqual([
      ['keyword', '#include'],
      ['string', '<iostream>'],
      ['keyword', 'int'],
      ['string', '"Hello, World!"'],
      ['keyword', 'return'],
      ['number', '0'],
    ]);
  });

  it('always joins back into the source, whatever it is given', () => {
    const sources = [
      '',
      'int x = 1\'000\'000; // "not a string"\n/* unterminated',
      'auto s = R"raw(a "quoted" )" string)raw"; char c = \'\\\'\';',
      '"unterminated string\nnext line',
      '#define MAX(a, b) ((a) > (b) ? (a) : (b))\n  # pragma once',
      'u8"utf" L\'x\' U"wide" uR"(raw)" 0x1Fu 1.5e-3f .5 0b1010',
      '\u00e9\u{1F600} @ $ ` \\',
    ];
    for (const source of sources) {
      expect(
        tokenizeCpp(source)
          .map((token) => token.text)
          .join(''),
      ).toBe(source);
    }
  });

  it('tells comments, strings, character literals and numbers apart', () => {
    expect(coloured('x = 3; // three\n/* a\nblock */ y = 0x1F;')).toEqual([
      ['number', '3'],
      ['comment', '// three'],
      ['comment', '/* a\nblock */'],
      ['number', '0x1F'],
    ]);
    expect(coloured('char c = \'\\\'\'; auto s = "a\\"b";')).toEqual([
      ['keyword', 'char'],
      ['string', "'\\''"],
      ['keyword', 'auto'],
      ['string', '"a\\"b"'],
    ]);
    // a digit separator is part of the number, not a character literal
    expect(coloured("long n = 1'000'000;")).toEqual([
      ['keyword', 'long'],
      ['number', "1'000'000"],
    ]);
    expect(coloured('double d = 1.5e-3;')).toEqual([
      ['keyword', 'double'],
      ['number', '1.5e-3'],
    ]);
  });

  it('keeps raw strings whole, quotes and parentheses inside included', () => {
    expect(coloured('auto s = R"x(say "hi" :) )"  )x"; int y;')).toEqual([
      ['keyword', 'auto'],
      ['string', 'R"x(say "hi" :) )"  )x"'],
      ['keyword', 'int'],
    ]);
    expect(coloured('auto p = u8R"(a)";')).toEqual([
      ['keyword', 'auto'],
      ['string', 'u8R"(a)"'],
    ]);
  });

  it('knows directives only at the start of a line, and C++20 keywords', () => {
    expect(coloured('  #pragma once\nint a = b # c;')).toEqual([
      ['keyword', '#pragma'],
      ['keyword', 'int'],
    ]);
    expect(coloured('template <typename T> concept C = requires(T t) { t; };')).toEqual([
      ['keyword', 'template'],
      ['keyword', 'typename'],
      ['keyword', 'concept'],
      ['keyword', 'requires'],
    ]);
    // identifiers that start like a keyword or a string prefix stay plain
    expect(coloured('int internal; using Lx = u; Return(uR);')).toEqual([
      ['keyword', 'int'],
      ['keyword', 'using'],
    ]);
  });

  it('leaves an unterminated string at the end of its line', () => {
    expect(tokenizeCpp('"open\nint x;')).toEqual([
      { kind: 'string', text: '"open' },
      { kind: 'plain', text: '\n' },
      { kind: 'keyword', text: 'int' },
      { kind: 'plain', text: ' x;' },
    ]);
  });
});
