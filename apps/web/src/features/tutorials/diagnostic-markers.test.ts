import { describe, expect, it } from 'vitest';

import { diagnosticsToMarkers } from './diagnostic-markers';

const SEVERITIES = { error: 8, warning: 4, note: 2 };
const SOURCE = '#include <cstdio>\nint main() {\n  std::puts(greeting);\n}\n';

describe('diagnosticsToMarkers', () => {
  it('underlines the word a message points at, on its line, with its severity', () => {
    expect(
      diagnosticsToMarkers(
        [{ severity: 'error', line: 3, column: 13, message: "'greeting' was not declared" }],
        SOURCE,
        SEVERITIES,
      ),
    ).toEqual([
      {
        severity: 8,
        message: "'greeting' was not declared",
        source: 'compiler',
        startLineNumber: 3,
        startColumn: 13,
        endLineNumber: 3,
        endColumn: 21,
      },
    ]);
  });

  it("keeps a message's own range, and maps warnings and notes", () => {
    const [warning, note] = diagnosticsToMarkers(
      [
        { severity: 'warning', line: 2, column: 1, endLine: 2, endColumn: 4, message: 'w' },
        { severity: 'note', line: 3, column: 3, endLine: 4, endColumn: 2, message: 'n' },
      ],
      SOURCE,
      SEVERITIES,
    );
    expect(warning).toMatchObject({ severity: 4, startColumn: 1, endLineNumber: 2, endColumn: 4 });
    expect(note).toMatchObject({
      severity: 2,
      startLineNumber: 3,
      startColumn: 3,
      endLineNumber: 4,
      endColumn: 2,
    });
  });

  it('marks one character where no word starts, and never an empty or reversed range', () => {
    const [brace, reversed] = diagnosticsToMarkers(
      [
        { severity: 'error', line: 2, column: 12, message: 'brace' },
        { severity: 'error', line: 3, column: 8, endLine: 3, endColumn: 2, message: 'reversed' },
      ],
      SOURCE,
      SEVERITIES,
    );
    expect(brace).toMatchObject({ startColumn: 12, endColumn: 13 });
    expect(reversed).toMatchObject({ startColumn: 8, endColumn: 9 });
  });

  it('pulls places beyond the source back inside it (the code changed since the compile)', () => {
    const [marker] = diagnosticsToMarkers(
      [{ severity: 'error', line: 40, column: 90, message: 'far away' }],
      'int x\n',
      SEVERITIES,
    );
    expect(marker).toMatchObject({
      startLineNumber: 2,
      startColumn: 1,
      endLineNumber: 2,
      endColumn: 1,
    });
    const [long] = diagnosticsToMarkers(
      [{ severity: 'error', line: 1, column: 80, message: 'past the end' }],
      'int x\n',
      SEVERITIES,
    );
    expect(long).toMatchObject({ startLineNumber: 1, startColumn: 6, endColumn: 6 });
  });
});
