import type { CompilerDiagnostic } from '@portfolio/types';

import { SOURCE_FILE } from './diagnostics.js';

/**
 * A preprocessor directive that reads a file, wherever it stands in a line (after a comment, a
 * digraph `%:` or a trigraph `??=`): matching more than the preprocessor would only refuses more.
 */
const FILE_DIRECTIVE =
  /(?:#|%:|\?\?=)[ \t]*(?:\/\*.*?\*\/[ \t]*)*(include_next|include|import|embed)\b[ \t]*(?:\/\*.*?\*\/[ \t]*)*(.?)/g;

/** The header or file name a directive names, when it is written out. */
function namedPath(rest: string, opener: string): string | undefined {
  const closer = opener === '<' ? '>' : opener === '"' ? '"' : undefined;
  if (!closer) {
    return undefined;
  }
  const end = rest.indexOf(closer, 1);
  return end < 0 ? undefined : rest.slice(1, end);
}

/** Absolute, climbing or backslashed paths reach outside the standard headers and the source. */
const isOutside = (file: string) =>
  file.startsWith('/') || file.includes('\\') || /(^|\/)\.\.(\/|$)/.test(file);

/**
 * Refuses, before anything compiles, a source that includes something other than a standard
 * header or a file beside it: an absolute or climbing path (`</dev/ptmx>`, `"../../etc"`) or a
 * computed `#include MACRO` (which could expand to one). Returns the compiler-style message
 * and diagnostic, or undefined when the source may compile.
 */
export function refuseUnsafeIncludes(
  source: string,
): { output: string; diagnostics: CompilerDiagnostic[] } | undefined {
  // join continued lines (a backslash or its trigraph before the newline), remembering lines
  const lineOf: number[] = [];
  let joined = '';
  let line = 1;
  for (let index = 0; index < source.length; index++) {
    const continuation = /^(?:\\|\?\?\/)[ \t]*\r?\n/.exec(source.slice(index, index + 8));
    if (continuation) {
      index += continuation[0].length - 1;
      line += 1;
      continue;
    }
    joined += source[index];
    lineOf.push(line);
    if (source[index] === '\n') {
      line += 1;
    }
  }
  for (const match of joined.matchAll(FILE_DIRECTIVE)) {
    const directive = match[1] ?? 'include';
    const opener = match[2] ?? '';
    const openerIndex = (match.index ?? 0) + match[0].length - opener.length;
    const rest = joined.slice(openerIndex, joined.indexOf('\n', openerIndex) >>> 0);
    const file = namedPath(rest, opener);
    let problem: string | undefined;
    if (file === undefined) {
      problem = `#${directive} must name a <header> or "file" here: computed file names are not allowed`;
    } else if (isOutside(file)) {
      problem = `#${directive} of ${opener}${file}${opener === '<' ? '>' : '"'} is not allowed: only the standard headers and this source can be read`;
    }
    if (problem) {
      const at = lineOf[openerIndex] ?? lineOf[match.index ?? 0] ?? 1;
      const lineStart = joined.lastIndexOf('\n', openerIndex - 1) + 1;
      const column = Math.max(1, openerIndex - lineStart + 1);
      return {
        output: `${SOURCE_FILE}:${at}:${column}: error: ${problem}\n`,
        diagnostics: [{ severity: 'error', line: at, column, message: problem }],
      };
    }
  }
  return undefined;
}
