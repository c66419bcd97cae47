import {
  type CompilerDiagnostic,
  CPP_STANDARDS,
  CppStandard,
  OPTIMIZATION_LEVELS,
  OptimizationLevel,
  type RunCodeInfo,
  type RunCodeResponse,
} from '@portfolio/types/run-code';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';

import { useResource } from '../../ui/use-resource';
import { CodeEditorBox } from './code-editor-box';
import { isRunShortcut } from './code-preview';
import { type CodeBoxSource, useCodeBox, useCodeBoxStore } from './code-box-store';
import type { EditorHandle } from './editor-handle';
import {
  describeDiagnostic,
  describeLimits,
  describeRunError,
  describeRunResult,
  getRunCodeInfo,
  optimizationLabel,
  runCode,
  standardLabel,
} from './run-code-api';
import { ShareBox } from './share-box';

type RunState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; result: RunCodeResponse }
  | { status: 'failed'; detail: string };

const NO_DIAGNOSTICS: readonly CompilerDiagnostic[] = [];

/** The runner's limits and choices, asked without holding up the page (null until known). */
function useRunCodeInfo(): RunCodeInfo | null {
  // the page works without it: Run answers with the reason if running is not possible
  return useResource(getRunCodeInfo, 'Failed to load the runner').data ?? null;
}

/** The server's choices, keeping the box's own choice listed even if the server lacks it. */
function choices<T extends string>(all: readonly T[], offered: readonly T[] | undefined, own: T) {
  const list = offered && offered.length > 0 ? offered : all;
  return list.includes(own) ? list : [...list, own];
}

interface CodeTutorialProps {
  /** The tutorial's id: the box's edits are kept under it while the app runs. */
  id: string;
  title: string;
  initialCode: string;
}

/**
 * A C++ tutorial's code box: the editor, standard input, the C++ standard and optimisation level,
 * Run (with the runner's limits beside it), Share, and the output with the compiler's messages.
 */
export function CodeTutorial({ id, title, initialCode }: CodeTutorialProps) {
  const source = useCodeBox(id, initialCode);
  const edit = useCodeBoxStore((state) => state.edit);
  const [state, setState] = useState<RunState>({ status: 'idle' });
  const [isEditorWanted, setEditorWanted] = useState(false);
  const info = useRunCodeInfo();
  const isRunning = state.status === 'running';
  const runningRef = useRef(false);
  const sourceRef = useRef<CodeBoxSource>(source);
  useLayoutEffect(() => {
    sourceRef.current = source;
  });
  const editorHandle = useRef<EditorHandle | null>(null);
  const hintId = useId();
  const outputId = useId();
  const outputLabelId = useId();
  const stdinId = useId();

  useAnswerInView(state, outputId);

  const change = useCallback(
    (patch: Partial<CodeBoxSource>) => edit(id, initialCode, patch),
    [edit, id, initialCode],
  );
  const handleCodeChange = useCallback((code: string) => change({ code }), [change]);
  const wantEditor = useCallback(() => setEditorWanted(true), []);

  const handleRun = useCallback(() => {
    // Ctrl/Cmd+Enter while a run is going starts no second one
    if (runningRef.current) {
      return;
    }
    runningRef.current = true;
    // the markers need the editor: it loads while the program compiles
    setEditorWanted(true);
    setState({ status: 'running' });
    const { code, stdin, standard, optimization } = sourceRef.current;
    runCode({ code, stdin, standard, optimization })
      .then((result) => setState({ status: 'done', result }))
      .catch((error: unknown) => setState({ status: 'failed', detail: describeRunError(error) }))
      .finally(() => {
        runningRef.current = false;
      });
  }, []);

  const diagnostics = state.status === 'done' ? state.result.diagnostics : NO_DIAGNOSTICS;
  const standards = choices(CPP_STANDARDS, info?.standards, source.standard);
  const optimizations = choices(OPTIMIZATION_LEVELS, info?.optimizations, source.optimization);

  return (
    <div className="code-tutorial">
      <CodeEditorBox
        value={source.code}
        label={`${title}: C++ source`}
        onChange={handleCodeChange}
        onRun={handleRun}
        diagnostics={diagnostics}
        isEditorWanted={isEditorWanted}
        onWantEditor={wantEditor}
        handleRef={editorHandle}
      />
      <div className="code-tutorial__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={handleRun}
          disabled={isRunning}
          aria-describedby={hintId}
          aria-controls={outputId}
        >
          {isRunning ? 'Running...' : 'Run'}
        </button>
        <CodeOption
          label="Standard"
          value={source.standard}
          options={standards}
          labelOf={standardLabel}
          parse={(value) => CppStandard.safeParse(value)}
          onChange={(standard) => change({ standard })}
        />
        <CodeOption
          label="Optimisation"
          value={source.optimization}
          options={optimizations}
          labelOf={optimizationLabel}
          parse={(value) => OptimizationLevel.safeParse(value)}
          onChange={(optimization) => change({ optimization })}
        />
        <ShareBox source={source}>
          {info ? (
            <span className="code-tutorial__limits">
              {info.available
                ? describeLimits(info.limits)
                : `Running code is not available on this server: ${info.reason}`}
            </span>
          ) : null}
        </ShareBox>
      </div>
      <p id={hintId} className="code-tutorial__hint">
        Ctrl+Enter (⌘+Enter) in the editor or the input runs the code. Ctrl+M lets Tab leave the
        editor; F8 goes to the next compiler message.
      </p>
      <div className="code-tutorial__io">
        <div className="code-tutorial__stdin">
          <label htmlFor={stdinId} className="code-tutorial__io-label">
            Standard input
          </label>
          <textarea
            id={stdinId}
            value={source.stdin}
            rows={4}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            placeholder="What the program reads from std::cin"
            onChange={(event) => change({ stdin: event.target.value })}
            onKeyDown={(event) => {
              if (isRunShortcut(event)) {
                event.preventDefault();
                handleRun();
              }
            }}
          />
        </div>
        <div className="code-tutorial__output">
          <span id={outputLabelId} className="code-tutorial__io-label">
            Output
          </span>
          <div
            id={outputId}
            className={`code-output${state.status === 'failed' ? ' code-output--error' : ''}`}
            role="status"
            aria-labelledby={outputLabelId}
            aria-busy={isRunning}
          >
            <RunOutput
              state={state}
              onGoTo={(diagnostic) =>
                editorHandle.current?.goTo(diagnostic.line, diagnostic.column)
              }
            />
          </div>
        </div>
      </div>
    </div>
  );
}

/** A finished run's answer is brought into view when it landed out of it (a phone's one column). */
function useAnswerInView(state: RunState, outputId: string) {
  const hasAnswer = state.status === 'done' || state.status === 'failed';
  useEffect(() => {
    if (hasAnswer) {
      document.getElementById(outputId)?.scrollIntoView?.({ block: 'nearest' });
    }
  }, [hasAnswer, state, outputId]);
}

interface CodeOptionProps<T extends string> {
  label: string;
  value: T;
  options: readonly T[];
  labelOf: (option: T) => string;
  /** Checks a chosen value against the option's schema. */
  parse: (value: string) => { success: true; data: T } | { success: false };
  onChange: (value: T) => void;
}

/** One of the run's options (the C++ standard, the optimisation level) as a labelled select. */
function CodeOption<T extends string>({
  label,
  value,
  options,
  labelOf,
  parse,
  onChange,
}: CodeOptionProps<T>) {
  const id = useId();
  return (
    <div className="code-tutorial__option">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const parsed = parse(event.target.value);
          if (parsed.success) {
            onChange(parsed.data);
          }
        }}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {labelOf(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The lines the server adds to an output in square brackets: its notices, not the compiler's. */
export function serverNotices(output: string): string[] {
  return output.split('\n').filter((line) => /^\[.+\]$/.test(line));
}

function RunOutput({
  state,
  onGoTo,
}: {
  state: RunState;
  onGoTo: (diagnostic: CompilerDiagnostic) => void;
}) {
  switch (state.status) {
    case 'idle':
      return <p className="code-output__placeholder">Press Run to compile and run the program.</p>;
    case 'running':
      return (
        <p className="code-output__running">
          <span className="code-output__spinner" aria-hidden="true" />
          Compiling and running...
        </p>
      );
    case 'failed':
      return <pre>{`Error executing code.\n${state.detail}`}</pre>;
    case 'done': {
      const { result } = state;
      const hasList = result.diagnostics.length > 0;
      return (
        <>
          {result.compiled ? (
            <pre>{result.output.length > 0 ? result.output : '(no output)'}</pre>
          ) : null}
          {hasList ? (
            <>
              <p className="code-output__heading">
                {result.compiled ? 'Compiler warnings:' : 'Compiler messages:'}
              </p>
              <ul className="code-output__diagnostics">
                {result.diagnostics.map((diagnostic, index) => (
                  <li key={index}>
                    <button
                      type="button"
                      className={`code-output__diagnostic code-output__diagnostic--${diagnostic.severity}`}
                      onClick={() => onGoTo(diagnostic)}
                    >
                      {describeDiagnostic(diagnostic)}
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {!result.compiled && hasList ? (
            <>
              {/* the server's own notices (exceptions unavailable, output cut) stay in sight */}
              {serverNotices(result.output).map((notice) => (
                <p key={notice} className="code-output__note">
                  {notice}
                </p>
              ))}
              <details className="code-output__details">
                <summary>Full compiler output</summary>
                <pre>{result.output}</pre>
              </details>
            </>
          ) : null}
          {!result.compiled && !hasList ? <pre>{result.output}</pre> : null}
          <p className="code-output__note">{describeRunResult(result)}</p>
        </>
      );
    }
  }
}
