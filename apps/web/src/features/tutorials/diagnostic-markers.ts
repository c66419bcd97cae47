import type { CompilerDiagnostic } from '@portfolio/types/run-code';

/** Monaco's `IMarkerData`, without importing Monaco (this file is tested on its own). */
export interface EditorMarker {
  severity: number;
  message: string;
  source: string;
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

/** Monaco's `MarkerSeverity` values, passed in by the editor. */
export interface MarkerSeverities {
  error: number;
  warning: number;
  note: number;
}

const WORD = /[A-Za-z0-9_]+/y;

/**
 * The editor markers for a compile's diagnostics, on the source they were made for. A message
 * without an end underlines the word at its column (or one character), as compilers point at
 * the start of what they mean; places beyond the source are pulled back inside it so a marker is
 * never lost.
 */
export function diagnosticsToMarkers(
  diagnostics: readonly CompilerDiagnostic[],
  source: string,
  severities: MarkerSeverities,
): EditorMarker[] {
  const lines = source.split('\n');
  const clampLine = (line: number) => Math.min(Math.max(line, 1), lines.length);
  const clampColumn = (line: number, column: number) =>
    Math.min(Math.max(column, 1), (lines[line - 1]?.length ?? 0) + 1);

  return diagnostics.map((diagnostic) => {
    const startLine = clampLine(diagnostic.line);
    const startColumn = clampColumn(startLine, diagnostic.column);
    let endLine = startLine;
    let endColumn: number;
    if (diagnostic.endLine !== undefined || diagnostic.endColumn !== undefined) {
      endLine = clampLine(Math.max(diagnostic.endLine ?? startLine, startLine));
      endColumn = clampColumn(endLine, diagnostic.endColumn ?? startColumn + 1);
      if (endLine === startLine && endColumn <= startColumn) {
        endColumn = clampColumn(startLine, startColumn + 1);
      }
    } else {
      const text = lines[startLine - 1] ?? '';
      WORD.lastIndex = startColumn - 1;
      const word = WORD.exec(text)?.[0];
      endColumn = clampColumn(startLine, startColumn + Math.max(word?.length ?? 1, 1));
    }
    return {
      severity: severities[diagnostic.severity],
      message: diagnostic.message,
      source: 'compiler',
      startLineNumber: startLine,
      startColumn,
      endLineNumber: endLine,
      endColumn,
    };
  });
}
