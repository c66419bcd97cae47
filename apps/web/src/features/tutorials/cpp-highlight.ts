/**
 * A small C++ highlighter for the code shown before the editor arrives: it tells comments,
 * strings, character literals, numbers, keywords and preprocessor directives apart, in the colours
 * Monaco's light theme gives them, so the sample looks the same before and after. It never
 * fails: anything it does not recognise stays plain text, and the tokens always join back into
 * the source exactly.
 */
export type CppTokenKind = 'plain' | 'comment' | 'string' | 'number' | 'keyword';

export interface CppToken {
  kind: CppTokenKind;
  text: string;
}

// C++23's keywords and alternative operator names, and the identifiers with a special meaning
// Monaco colours the same (override, final)
const KEYWORDS = new Set(
  (
    'alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t ' +
    'char16_t char32_t class compl concept const consteval constexpr constinit const_cast ' +
    'continue co_await co_return co_yield decltype default delete do double dynamic_cast else ' +
    'enum explicit export extern false final float for friend goto if import inline int long ' +
    'module mutable namespace new noexcept not not_eq nullptr operator or or_eq override ' +
    'private protected public register reinterpret_cast requires return short signed sizeof ' +
    'static static_assert static_cast struct switch template this thread_local throw true try ' +
    'typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq'
  ).split(' '),
);

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;
// digits with separators (1'000), hex, binary, exponents with signs, suffixes
const NUMBER = /(?:\d|\.\d)(?:[eEpP][+-]|[\w.'])*/y;
const STRING_PREFIX = /(?:u8|u|U|L)?R?(?=["'])/y;
const RAW_STRING_OPEN = /(?:u8|u|U|L)?R"([^()\\\s"]{0,16})\(/y;
const DIRECTIVE = /#[ \t]*[A-Za-z_]\w*/y;
const INCLUDE_TARGET = /[ \t]*<[^>\n]*>/y;

function execAt(pattern: RegExp, source: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(source);
}

function matchAt(pattern: RegExp, source: string, at: number): string | undefined {
  return execAt(pattern, source, at)?.[0];
}

/** The end of a quoted literal starting at `at` (its quote), stopping at a line end. */
function quotedEnd(source: string, at: number): number {
  const quote = source[at];
  let index = at + 1;
  while (index < source.length) {
    const char = source[index];
    if (char === '\\') {
      index += 2;
      continue;
    }
    if (char === '\n') {
      return index;
    }
    index += 1;
    if (char === quote) {
      return index;
    }
  }
  return source.length;
}

/** Whether only blanks stand between the last line break before `at` and `at`. */
function startsLine(source: string, at: number): boolean {
  for (let index = at - 1; index >= 0; index -= 1) {
    const char = source[index];
    if (char === '\n') {
      return true;
    }
    if (char !== ' ' && char !== '\t') {
      return false;
    }
  }
  return true;
}

/** Splits C++ source into coloured tokens; adjacent plain text is merged into one token. */
export function tokenizeCpp(source: string): CppToken[] {
  const tokens: CppToken[] = [];
  const push = (kind: CppTokenKind, text: string) => {
    const last = tokens.at(-1);
    if (last && last.kind === kind) {
      last.text += text;
    } else {
      tokens.push({ kind, text });
    }
  };

  let index = 0;
  while (index < source.length) {
    const char = source[index] ?? '';
    const next = source[index + 1] ?? '';

    if (char === '/' && next === '/') {
      const end = source.indexOf('\n', index);
      const stop = end === -1 ? source.length : end;
      push('comment', source.slice(index, stop));
      index = stop;
      continue;
    }
    if (char === '/' && next === '*') {
      const end = source.indexOf('*/', index + 2);
      const stop = end === -1 ? source.length : end + 2;
      push('comment', source.slice(index, stop));
      index = stop;
      continue;
    }
    if (char === '#' && startsLine(source, index)) {
      const directive = matchAt(DIRECTIVE, source, index) ?? '#';
      push('keyword', directive);
      index += directive.length;
      if (/include$/.test(directive)) {
        const target = matchAt(INCLUDE_TARGET, source, index);
        if (target) {
          const blanks = target.length - target.trimStart().length;
          push('plain', target.slice(0, blanks));
          push('string', target.slice(blanks));
          index += target.length;
        }
      }
      continue;
    }

    const rawOpen = /[uULR]/.test(char) ? execAt(RAW_STRING_OPEN, source, index) : null;
    if (rawOpen) {
      const close = `)${rawOpen[1] ?? ''}"`;
      const end = source.indexOf(close, index + rawOpen[0].length);
      const stop = end === -1 ? source.length : end + close.length;
      push('string', source.slice(index, stop));
      index = stop;
      continue;
    }
    const prefix = /[uUL]/.test(char) ? matchAt(STRING_PREFIX, source, index) : '';
    const quoteAt = index + (prefix?.length ?? 0);
    if (prefix !== undefined && !prefix.endsWith('R') && /["']/.test(source[quoteAt] ?? '')) {
      const stop = quotedEnd(source, quoteAt);
      push('string', source.slice(index, stop));
      index = stop;
      continue;
    }

    if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(next))) {
      const number = matchAt(NUMBER, source, index) ?? char;
      push('number', number);
      index += number.length;
      continue;
    }
    if (/[A-Za-z_]/.test(char)) {
      const word = matchAt(IDENTIFIER, source, index) ?? char;
      push(KEYWORDS.has(word) ? 'keyword' : 'plain', word);
      index += word.length;
      continue;
    }
    push('plain', char);
    index += 1;
  }
  return tokens;
}
