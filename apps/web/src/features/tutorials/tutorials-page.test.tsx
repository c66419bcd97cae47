import { Tutorial } from '@portfolio/types';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, renderApp, stubApi } from '../../test/render-app';
import { tutorials } from './tutorials-data';

// Monaco needs a real browser (Playwright covers it); here a textarea stands in for it.
vi.mock('./cpp-editor', () => ({
  CppEditor: (props: {
    value: string;
    label: string;
    onChange: (value: string) => void;
    onRun: () => void;
  }) => (
    <textarea
      aria-label={props.label}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          props.onRun();
        }
      }}
    />
  ),
}));

describe('tutorials content', () => {
  it('matches the contract: a C++ code item, an Unreal iframe and an Unreal markdown item', () => {
    for (const tutorial of tutorials) {
      expect(Tutorial.parse(tutorial)).toEqual(tutorial);
    }
    expect(tutorials.map((t) => [t.section, t.type])).toEqual([
      ['cpp', 'code'],
      ['unreal', 'iframe'],
      ['unreal', 'code'],
    ]);
    expect(tutorials[0]?.content).toContain('Hello, World!');
  });
});

describe('TutorialsPage', () => {
  it('shows both sections, the blueprint frame and runs the code', async () => {
    let release: (() => void) | undefined;
    const { calls } = stubApi({
      'POST /run-code': () =>
        new Promise<Response>((resolve) => {
          release = () =>
            resolve(
              jsonResponse({
                output: 'Hello, World!\n',
                exitCode: 0,
                timedOut: false,
                truncated: false,
              }),
            );
        }),
    });
    const user = userEvent.setup();
    renderApp('/Tutorials');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tutorials' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'C++ Tutorials' })).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { level: 2, name: 'Unreal Engine Tutorials' }),
    ).toBeInTheDocument();
    expect(screen.getByTitle('Unreal Blueprint Example')).toHaveAttribute(
      'src',
      expect.stringMatching(/^https:\/\/blueprintue\.com\//),
    );

    const editor = await screen.findByLabelText('Hello, World! in C++: C++ source');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    // a visible running state while the server compiles
    expect(screen.getByRole('button', { name: 'Running...' })).toBeDisabled();
    expect(screen.getByRole('status', { name: 'Output' })).toHaveTextContent(
      'Compiling and running...',
    );
    expect(calls.filter((c) => c.url === '/run-code')).toEqual([
      { method: 'POST', url: '/run-code', body: { code: tutorials[0]?.content } },
    ]);
    release?.();
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Output' })).toHaveTextContent('Hello, World!'),
    );
    expect(screen.getByRole('button', { name: 'Run' })).toBeEnabled();

    // the edited source is what runs; Ctrl+Enter runs too
    fireEvent.change(editor, { target: { value: 'int main() { return 3; }' } });
    fireEvent.keyDown(editor, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(calls.filter((c) => c.url === '/run-code')).toHaveLength(2));
    expect(calls.at(-1)?.body).toEqual({ code: 'int main() { return 3; }' });
  });

  it("shows 'Error executing code.' with the server's message", async () => {
    stubApi({
      'POST /run-code': () =>
        apiError(503, 'Running code is not available on this server.', 'RUNNER_UNAVAILABLE'),
    });
    const user = userEvent.setup();
    renderApp('/Tutorials');
    await user.click(await screen.findByRole('button', { name: 'Run' }));
    const output = screen.getByRole('status', { name: 'Output' });
    await waitFor(() => expect(output).toHaveTextContent('Error executing code.'));
    expect(output).toHaveTextContent('Running code is not available on this server.');
  });
});
