import type { CompilerDiagnostic } from '@portfolio/types';

/** The name the source has inside both sandboxes; diagnostics about other files are dropped. */
export const SOURCE_FILE = 'main.cpp';

/**
 * GCC's and Clang's one-line diagnostics (`main.cpp:3:7: error: …`, the format editors and
 * Compiler Explorer parse), with byte columns (GCC: `-fdiagnostics-column-unit=byte`; Clang's
 * default) and Clang's source ranges (`-fdiagnostics-print-source-range-info`:
 * `main.cpp:3:7:{3:7-3:12}: error: …`).
 */
const DIAGNOSTIC_LINE =
  /^main\.cpp:(\d+):(\d+):(?:((?:\{\d+:\d+-\d+:\d+\})+):)? (fatal error|error|warning|note): (.*)$/;

const MAX_DIAGNOSTICS = 200;

/** A byte column (1-based) of a line as a UTF-16 column (1-based), as editors count. */
function toEditorColumn(line: string | undefined, byteColumn: number): number {
  if (line === undefined) {
    return byteColumn;
  }
  const bytes = Buffer.from(line, 'utf8');
  const prefix = bytes.subarray(0, Math.max(0, byteColumn - 1)).toString('utf8');
  return prefix.length + 1 + Math.max(0, byteColumn - 1 - bytes.length);
}

/** The compiler's messages at their places in the source, in the order it gave them. */
export function parseDiagnostics(compilerOutput: string, source: string): CompilerDiagnostic[] {
  const lines = source.split('\n').map((line) => line.replace(/\r$/, ''));
  const diagnostics: CompilerDiagnostic[] = [];
  for (const text of compilerOutput.split('\n')) {
    const match = DIAGNOSTIC_LINE.exec(text);
    if (!match) {
      continue;
    }
    const line = Math.max(1, Number(match[1]));
    const column = Math.max(1, toEditorColumn(lines[line - 1], Number(match[2])));
    const severity =
      match[4] === 'fatal error' ? 'error' : (match[4] as CompilerDiagnostic['severity']);
    const diagnostic: CompilerDiagnostic = { severity, line, column, message: match[5] ?? '' };
    const range = /^\{(\d+):(\d+)-(\d+):(\d+)\}/.exec(match[3] ?? '');
    if (range) {
      const endLine = Math.max(line, Number(range[3]));
      diagnostic.endLine = endLine;
      diagnostic.endColumn = Math.max(1, toEditorColumn(lines[endLine - 1], Number(range[4])));
    }
    diagnostics.push(diagnostic);
    if (diagnostics.length >= MAX_DIAGNOSTICS) {
      break;
    }
  }
  return diagnostics;
}
