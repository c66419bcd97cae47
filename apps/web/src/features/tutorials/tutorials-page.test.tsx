import { type Snippet, Tutorial } from '@portfolio/types';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, renderApp, stubApi } from '../../test/render-app';
import { useCodeBoxStore } from './code-box-store';
import { forgetRunCodeInfo } from './run-code-api';
import { tutorials } from '../../test/content-fixtures';

// Monaco needs a real browser (Playwright covers it): here its chunk arrives empty, and the
// highlighted text with its text area stays the editor.
vi.mock('./cpp-editor', () => ({ CppEditor: () => null }));

const CPP_LABEL = 'Hello, World! in C++: C++ source';
const SAMPLE = tutorials[0]?.content ?? '';

const SNIPPET: Snippet = {
  id: 'Ab3_-xyz0123',
  code: '#include <iostream>\nint main() { int n; std::cin >> n; std::cout << n * 2; }\n',
  stdin: '21\n',
  standard: 'c++20',
  optimization: 'O3',
  url: '/Tutorials?snippet=Ab3_-xyz0123',
  createdAt: '2025-01-01T00:00:00.000Z',
};

function runResult(output: string) {
  return {
    output,
    exitCode: 0,
    signal: null,
    timedOut: false,
    truncated: false,
    compiled: true,
    diagnostics: [],
    durationMs: 3,
    cached: false,
    backend: 'native',
  };
}

beforeEach(() => {
  useCodeBoxStore.setState({ boxes: {} });
  forgetRunCodeInfo();
});

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
          release = () => resolve(jsonResponse(runResult('Hello, World!\n')));
        }),
    });
    const user = userEvent.setup();
    renderApp('/Tutorials');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tutorials' })).toBeInTheDocument();
    // the tutorials come from GET /api/tutorials (the page's HTML carries them in production)
    expect(
      await screen.findByRole('heading', { level: 2, name: 'C++ Tutorials' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { level: 2, name: 'Unreal Engine Tutorials' }),
    ).toBeInTheDocument();
    expect(screen.getByTitle('Unreal Blueprint Example')).toHaveAttribute(
      'src',
      expect.stringMatching(/^https:\/\/blueprintue\.com\//),
    );

    const editor = await screen.findByLabelText(CPP_LABEL);
    expect(editor).toHaveValue(SAMPLE);
    await user.click(screen.getByRole('button', { name: 'Run' }));
    // a visible running state while the server compiles
    expect(screen.getByRole('button', { name: 'Running...' })).toBeDisabled();
    expect(screen.getByRole('status', { name: 'Output' })).toHaveTextContent(
      'Compiling and running...',
    );
    expect(calls.filter((c) => c.url === '/run-code')).toEqual([
      {
        method: 'POST',
        url: '/run-code',
        body: { code: SAMPLE, stdin: '', standard: 'c++17', optimization: 'O2' },
      },
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
    expect(calls.at(-1)?.body).toMatchObject({ code: 'int main() { return 3; }' });
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

  it("keeps a box's edits when the person leaves the page and comes back", async () => {
    stubApi();
    const { router } = renderApp('/Tutorials');
    fireEvent.change(await screen.findByLabelText(CPP_LABEL), { target: { value: 'int x;' } });
    await router.navigate('/games');
    await router.navigate('/Tutorials');
    expect(await screen.findByLabelText(CPP_LABEL)).toHaveValue('int x;');
  });
});

describe("the owner's tutorials", () => {
  it('renders a markdown item as markdown in either section, and frames only https: pages', async () => {
    stubApi({
      'GET /api/tutorials': () =>
        jsonResponse({
          tutorials: [
            {
              id: 'lambdas',
              title: 'Lambdas',
              section: 'cpp',
              type: 'markdown',
              content: '**Capture** by value <script>alert(1)</script>',
            },
            {
              id: 'old-frame',
              title: 'Old frame',
              section: 'unreal',
              type: 'iframe',
              content: 'A page over plain http.',
              iframeSrc: 'http://blueprintue.com/render/x/',
            },
          ],
        }),
    });
    const { container } = renderApp('/Tutorials');
    expect(await screen.findByText('Capture')).toHaveProperty('tagName', 'STRONG');
    expect(screen.getByText(/<script>alert\(1\)<\/script>/)).toBeInTheDocument();
    expect(container.querySelector('script')).toBeNull();
    // a markdown item in the C++ section has no code box
    expect(screen.queryByRole('button', { name: 'Run' })).toBeNull();
    expect(screen.getByText('A page over plain http.')).toBeInTheDocument();
    expect(screen.queryByTitle('Old frame')).toBeNull();
  });

  it('says when the tutorials could not be loaded, and tries again', async () => {
    let isDown = true;
    stubApi({
      'GET /api/tutorials': () => (isDown ? apiError(503, 'Down') : jsonResponse({ tutorials })),
    });
    const user = userEvent.setup();
    renderApp('/Tutorials');
    expect(await screen.findByText('The tutorials could not be loaded.')).toBeInTheDocument();
    isDown = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('heading', { level: 3, name: 'Hello, World! in C++' }),
    ).toBeInTheDocument();
  });
});

describe('a share link (/Tutorials?snippet=<id>)', () => {
  it('opens the snippet with its standard input, standard and optimisation', async () => {
    const { calls } = stubApi({
      [`GET /api/snippets/${SNIPPET.id}`]: () => jsonResponse(SNIPPET),
    });
    renderApp(`/Tutorials?snippet=${SNIPPET.id}`);
    expect(
      await screen.findByText(
        `Showing the shared snippet ${SNIPPET.id} (C++20, -O3, with standard input).`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(CPP_LABEL)).toHaveValue(SNIPPET.code);
    expect(screen.getByLabelText('Standard input')).toHaveValue('21\n');
    expect(screen.getByLabelText('Standard')).toHaveValue('c++20');
    expect(screen.getByLabelText('Optimisation')).toHaveValue('O3');
    expect(calls.filter((c) => c.url.startsWith('/api/snippets'))).toHaveLength(1);
  });

  it('says an unknown snippet was not found and keeps the sample', async () => {
    stubApi({
      'GET /api/snippets/Zz9_-unknown1': () => apiError(404, 'No such snippet.', 'NOT_FOUND'),
    });
    renderApp('/Tutorials?snippet=Zz9_-unknown1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There is no shared snippet "Zz9_-unknown1": the link may be incomplete or mistyped. ' +
        "The tutorial's own code is shown instead.",
    );
    expect(screen.getByLabelText(CPP_LABEL)).toHaveValue(SAMPLE);
  });

  it('refuses a malformed id without asking the server', async () => {
    const { calls } = stubApi();
    renderApp('/Tutorials?snippet=%3Cscript%3E');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This share link is broken: "<script>" is not a snippet id.',
    );
    expect(screen.getByLabelText(CPP_LABEL)).toHaveValue(SAMPLE);
    expect(calls.some((c) => c.url.startsWith('/api/snippets'))).toBe(false);
  });

  it('says when the snippet could not be loaded for another reason', async () => {
    stubApi({
      [`GET /api/snippets/${SNIPPET.id}`]: () => apiError(500, 'Database unavailable.'),
    });
    renderApp(`/Tutorials?snippet=${SNIPPET.id}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `The shared snippet "${SNIPPET.id}" could not be loaded: Database unavailable.`,
    );
  });

  it("never replaces the person's edits without asking", async () => {
    stubApi({ [`GET /api/snippets/${SNIPPET.id}`]: () => jsonResponse(SNIPPET) });
    const user = userEvent.setup();
    const { router } = renderApp('/Tutorials');
    fireEvent.change(await screen.findByLabelText(CPP_LABEL), { target: { value: 'mine' } });
    await router.navigate(`/Tutorials?snippet=${SNIPPET.id}`);
    expect(
      await screen.findByText(
        `You have edited this code, so the shared snippet ${SNIPPET.id} did not replace it.`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(CPP_LABEL)).toHaveValue('mine');
    await user.click(
      screen.getByRole('button', { name: 'Replace my code with the shared snippet' }),
    );
    expect(screen.getByLabelText(CPP_LABEL)).toHaveValue(SNIPPET.code);
    expect(screen.getByText(/Showing the shared snippet/)).toBeInTheDocument();
  });
});
