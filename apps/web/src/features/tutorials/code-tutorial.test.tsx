import type { CompilerDiagnostic, RunCodeInfo, RunCodeResponse } from '@portfolio/types/run-code';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLayoutEffect } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { jsonResponse, stubApi } from '../../test/render-app';
import { useCodeBoxStore } from './code-box-store';
import { CodeTutorial } from './code-tutorial';
import type { EditorHandle, EditorHandoff } from './editor-handle';
import { forgetRunCodeInfo } from './run-code-api';

// Monaco needs a real browser (Playwright covers it). A text area stands in for it, held back
// until a test lets its chunk "arrive"; it records what the box hands it.
const editor = vi.hoisted(() => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    gate,
    release: () => release(),
    handoffs: [] as (EditorHandoff | null)[],
    diagnostics: [] as (readonly CompilerDiagnostic[])[],
    goTo: vi.fn<EditorHandle['goTo']>(),
  };
});

vi.mock('./cpp-editor', async () => {
  await editor.gate;
  return {
    CppEditor: (props: {
      value: string;
      label: string;
      onChange: (value: string) => void;
      diagnostics: readonly CompilerDiagnostic[];
      handoff: () => EditorHandoff | null;
      onReady: (handle: EditorHandle) => void;
    }) => {
      useLayoutEffect(() => {
        editor.handoffs.push(props.handoff());
        props.onReady({ goTo: editor.goTo });
        // the props are the ones the editor was made with
        // eslint-disable-next-line react-hooks/exhaustive-deps
      }, []);
      editor.diagnostics.push(props.diagnostics);
      return (
        <textarea
          data-testid="monaco"
          aria-label={props.label}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      );
    },
  };
});

const SAMPLE = '#include <iostream>\n\nint main() {\n    return 0;\n}\n';
const LABEL = 'Sample: C++ source';

const INFO: RunCodeInfo = {
  available: true,
  backend: 'native',
  reason: 'bubblewrap and g++ work here',
  compiler: 'g++ 12.2.0',
  limits: { cpuSeconds: 2, wallSeconds: 5, memoryMb: 256, outputKb: 64, compileSeconds: 10 },
  standards: ['c++11', 'c++14', 'c++17', 'c++20', 'c++23'],
  optimizations: ['O0', 'O1', 'O2', 'O3', 'Os'],
};

function result(overrides: Partial<RunCodeResponse> = {}): RunCodeResponse {
  return {
    output: 'Hello\n',
    exitCode: 0,
    signal: null,
    timedOut: false,
    truncated: false,
    compiled: true,
    diagnostics: [],
    durationMs: 12,
    cached: false,
    backend: 'native',
    ...overrides,
  };
}

function renderBox() {
  return render(<CodeTutorial id="sample" title="Sample" initialCode={SAMPLE} />);
}

beforeEach(() => {
  useCodeBoxStore.setState({ boxes: {} });
  forgetRunCodeInfo();
});

describe('CodeTutorial', () => {
  // first in the file: the stand-in editor's chunk has not "arrived" yet
  it('shows the highlighted sample at once, and hands typing over to the editor when it comes', async () => {
    stubApi({ 'GET /api/run-code/info': () => jsonResponse(INFO) });
    const { container } = renderBox();
    const preview = screen.getByLabelText(LABEL);
    expect(preview.tagName).toBe('TEXTAREA');
    expect(preview).toHaveValue(SAMPLE);
    // the sample is coloured at once, at the editor's size (5 lines and the empty sixth, 20 px each)
    expect(container.querySelector('.cpp-keyword')).toHaveTextContent('#include');
    expect(container.querySelector('.cpp-string')).toHaveTextContent('<iostream>');
    expect(container.querySelector('.cpp-editor')).toHaveStyle({ height: '120px' });
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();

    // focusing the code asks for the editor; typing meanwhile goes into the text shown
    act(() => preview.focus());
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    fireEvent.change(preview, { target: { value: `// mine\n${SAMPLE}` } });
    (preview as HTMLTextAreaElement).setSelectionRange(7, 7);
    expect(container.querySelector('.cpp-comment')).toHaveTextContent('// mine');

    await act(async () => {
      editor.release();
      await editor.gate;
    });
    const monaco = await screen.findByTestId('monaco');
    expect(monaco).toHaveValue(`// mine\n${SAMPLE}`);
    expect(editor.handoffs).toEqual([
      { selectionStart: 7, selectionEnd: 7, hasFocus: true, scrollTop: 0, scrollLeft: 0 },
    ]);
    // the preview is gone: one text box with the label
    expect(screen.getAllByLabelText(LABEL)).toEqual([monaco]);
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
    expect(await screen.findByText('Limits: 2 s CPU, 256 MB memory, 64 KB output')).toBeVisible();
  });

  it('runs the code with its standard input, standard and optimisation level', async () => {
    const { calls } = stubApi({
      'GET /api/run-code/info': () => jsonResponse(INFO),
      'POST /run-code': () => jsonResponse(result({ output: 'read 42\n', cached: true })),
    });
    const user = userEvent.setup();
    renderBox();
    await user.type(screen.getByLabelText('Standard input'), '42');
    await user.selectOptions(screen.getByLabelText('Standard'), 'C++20');
    await user.selectOptions(screen.getByLabelText('Optimisation'), '-O0');
    await user.click(screen.getByRole('button', { name: 'Run' }));

    const output = screen.getByRole('status', { name: 'Output' });
    await waitFor(() => expect(output).toHaveTextContent('read 42'));
    expect(output).toHaveTextContent('Exited with code 0 after 12 ms. (cached result)');
    expect(calls.filter((call) => call.url === '/run-code')).toEqual([
      {
        method: 'POST',
        url: '/run-code',
        body: { code: SAMPLE, stdin: '42', standard: 'c++20', optimization: 'O0' },
      },
    ]);

    // Ctrl+Enter in the input runs as well
    fireEvent.keyDown(screen.getByLabelText('Standard input'), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(calls.filter((call) => call.url === '/run-code')).toHaveLength(2));
  });

  it('lists the compiler messages, marks them in the editor and goes to one when chosen', async () => {
    const diagnostics: CompilerDiagnostic[] = [
      { severity: 'error', line: 4, column: 12, message: "expected ';' before '}' token" },
      { severity: 'warning', line: 2, column: 1, message: 'unused variable' },
    ];
    stubApi({
      'GET /api/run-code/info': () => jsonResponse(INFO),
      'POST /run-code': () =>
        jsonResponse(
          result({
            compiled: false,
            exitCode: null,
            durationMs: 0,
            output: "a.cpp:4:12: error: expected ';' before '}' token",
            diagnostics,
          }),
        ),
    });
    const user = userEvent.setup();
    renderBox();
    await user.click(screen.getByRole('button', { name: 'Run' }));
    const output = screen.getByRole('status', { name: 'Output' });
    await waitFor(() =>
      expect(output).toHaveTextContent(
        'Compilation failed with 1 error and 1 warning; the program did not run.',
      ),
    );
    const items = within(output).getAllByRole('button');
    expect(items.map((item) => item.textContent)).toEqual([
      "Line 4, column 12: error: expected ';' before '}' token",
      'Line 2, column 1: warning: unused variable',
    ]);
    expect(within(output).getByText('Full compiler output')).toBeInTheDocument();
    expect(output).not.toHaveTextContent('Error executing code.');
    await waitFor(() => expect(editor.diagnostics.at(-1)).toEqual(diagnostics));

    await user.click(items[0] as HTMLElement);
    expect(editor.goTo).toHaveBeenCalledWith(4, 12);
  });

  it("keeps the server's notices in sight beside the collapsed compiler output, and scrolls the answer into view", async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    stubApi({
      'GET /api/run-code/info': () => jsonResponse(INFO),
      'POST /run-code': () =>
        jsonResponse(
          result({
            compiled: false,
            exitCode: null,
            durationMs: 0,
            output:
              "a.cpp:3:3: error: cannot use 'throw' with exceptions disabled\n[The WebAssembly backend compiles without C++ exceptions: try, catch and throw are not available on this server.]\n",
            diagnostics: [
              {
                severity: 'error',
                line: 3,
                column: 3,
                message: "cannot use 'throw' with exceptions disabled",
              },
            ],
          }),
        ),
    });
    const user = userEvent.setup();
    renderBox();
    await user.click(screen.getByRole('button', { name: 'Run' }));
    const output = screen.getByRole('status', { name: 'Output' });
    const note = await within(output).findByText(
      '[The WebAssembly backend compiles without C++ exceptions: try, catch and throw are not available on this server.]',
      { selector: 'p' },
    );
    expect(note).toBeVisible();
    expect(scrolled).toHaveBeenCalled();
  });

  it("shows 'Error executing code.' with the server's message, and the reason runs are off", async () => {
    stubApi({
      'GET /api/run-code/info': () =>
        jsonResponse({ ...INFO, available: false, backend: null, reason: 'bwrap is missing' }),
      'POST /run-code': () =>
        jsonResponse(
          { error: { code: 'RUNNER_UNAVAILABLE', message: 'Running code is not available.' } },
          503,
        ),
    });
    const user = userEvent.setup();
    renderBox();
    expect(
      await screen.findByText('Running code is not available on this server: bwrap is missing'),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Run' }));
    const output = screen.getByRole('status', { name: 'Output' });
    await waitFor(() => expect(output).toHaveTextContent('Error executing code.'));
    expect(output).toHaveTextContent('Running code is not available.');
  });

  it('works without the runner info: the contract lists the choices', async () => {
    stubApi({ 'GET /api/run-code/info': () => jsonResponse({ nonsense: true }) });
    renderBox();
    const standard = screen.getByLabelText('Standard');
    expect(
      within(standard)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['C++11', 'C++14', 'C++17', 'C++20', 'C++23']);
    expect(standard).toHaveValue('c++17');
    expect(screen.getByLabelText('Optimisation')).toHaveValue('O2');
    await waitFor(() => expect(screen.queryByText(/^Limits:/)).not.toBeInTheDocument());
  });

  it('shares the code and its settings, and shows the link with a Copy button', async () => {
    const { calls } = stubApi({
      'GET /api/run-code/info': () => jsonResponse(INFO),
      'POST /api/snippets': (body) =>
        jsonResponse(
          {
            id: 'Ab3_-xyz0123',
            ...(body as object),
            url: '/Tutorials?snippet=Ab3_-xyz0123',
            createdAt: '2025-01-01T00:00:00.000Z',
          },
          201,
        ),
    });
    const user = userEvent.setup();
    vi.stubGlobal('isSecureContext', true);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderBox();
    await user.selectOptions(screen.getByLabelText('Standard'), 'C++23');
    await user.click(screen.getByRole('button', { name: 'Share' }));

    const link = await screen.findByLabelText('Share link');
    const address = `${window.location.origin}/Tutorials?snippet=Ab3_-xyz0123`;
    expect(link).toHaveValue(address);
    expect(calls.filter((call) => call.url === '/api/snippets')).toEqual([
      {
        method: 'POST',
        url: '/api/snippets',
        body: { code: SAMPLE, stdin: '', standard: 'c++23', optimization: 'O2' },
      },
    ]);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(address);
    expect(await screen.findByText('Copied.')).toBeVisible();

    // a change after sharing: the link is for the old code, and it says so
    await user.type(screen.getByLabelText('Standard input'), 'x');
    expect(screen.getByText(/The code has changed since this link was made/)).toBeVisible();
  });

  it("says why sharing failed, keeping the person's code", async () => {
    stubApi({
      'GET /api/run-code/info': () => jsonResponse(INFO),
      'POST /api/snippets': () =>
        jsonResponse({ error: { code: 'RATE_LIMITED', message: 'Too many shares.' } }, 429),
    });
    const user = userEvent.setup();
    renderBox();
    await user.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Could not share the code: Too many shares.')).toBeVisible();
    expect(screen.getByLabelText(LABEL)).toHaveValue(SAMPLE);
  });
});
