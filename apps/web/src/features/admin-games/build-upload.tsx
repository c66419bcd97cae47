import type { AdminGame, GameBuildResponse } from '@portfolio/types/game-host';
import { useEffect, useId, useRef, useState } from 'react';

import { serverMessageOr } from '../../lib/server-message';
import { DropZone } from '../../ui/drop-zone';
import { FormField } from '../../ui/form-field';
import { uploadBuild } from './admin-games-api';
import { BuildFacts } from './build-facts';
import { formatBytes } from './game-labels';

export const UPLOAD_ERROR = 'The upload failed';
export const NOT_A_ZIP = 'Choose a .zip file: the web export of the game, zipped.';

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; sent: number; total: number }
  | { kind: 'done'; response: GameBuildResponse }
  | { kind: 'failed'; message: string };

function isZip(file: File): boolean {
  return /\.zip$/i.test(file.name);
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

interface BuildUploadProps {
  game: AdminGame;
  /** The server's answer: the game with its new version. */
  onUploaded: (response: GameBuildResponse) => void;
}

/**
 * Upload a build: a drop zone (drag and drop, or the file button) for the zip, a progress bar
 * while it goes out, then what the server found in it. A failed upload leaves the chosen file
 * and the choices in place, so sending it again is one click.
 */
export function BuildUpload({ game, onUploaded }: BuildUploadProps) {
  const prefix = useId();
  const abortRef = useRef<AbortController | null>(null);
  const progressRef = useRef<HTMLDivElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [activate, setActivate] = useState(true);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const isUploading = phase.kind === 'uploading';

  // leaving the page stops an upload on its way
  useEffect(() => () => abortRef.current?.abort(), []);

  // the progress bar sits under the drop zone, below the fold of a 1280×800 window: an upload
  // that starts brings it into view
  useEffect(() => {
    if (isUploading) {
      progressRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
    }
  }, [isUploading]);

  const choose = (chosen: File | undefined) => {
    if (!chosen || isUploading) {
      return;
    }
    if (!isZip(chosen)) {
      setPhase({ kind: 'failed', message: NOT_A_ZIP });
      return;
    }
    setFile(chosen);
    setPhase({ kind: 'idle' });
  };

  const handleUpload = async () => {
    if (!file) {
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setPhase({ kind: 'uploading', sent: 0, total: file.size });
    try {
      const response = await uploadBuild(game.id, file, activate, {
        signal: controller.signal,
        onProgress: (sent, total) => setPhase({ kind: 'uploading', sent, total }),
      });
      setPhase({ kind: 'done', response });
      setFile(null);
      onUploaded(response);
    } catch (error) {
      if (controller.signal.aborted && isAbort(error)) {
        setPhase({ kind: 'idle' });
        return;
      }
      console.warn(UPLOAD_ERROR, error);
      setPhase({ kind: 'failed', message: serverMessageOr(error, uploadErrorText(error)) });
    } finally {
      abortRef.current = null;
    }
  };

  const percent =
    phase.kind === 'uploading' && phase.total > 0
      ? Math.min(100, Math.round((phase.sent / phase.total) * 100))
      : 0;

  return (
    <div className="build-upload">
      <DropZone
        onFile={choose}
        hint={
          <>
            Drop the game&apos;s web export here as a <strong>.zip</strong>, or
          </>
        }
        buttonLabel="Choose a .zip file"
        inputLabel="Build .zip file"
        accept=".zip,application/zip"
        disabled={isUploading}
        testId="build-drop-zone"
      >
        {file ? (
          <p className="drop-zone__file">
            Selected: <strong>{file.name}</strong> ({formatBytes(file.size)})
          </p>
        ) : null}
      </DropZone>
      <div className="build-upload__options">
        <FormField
          id={`${prefix}-activate`}
          label="Make this version live as soon as it is uploaded"
          isInline
        >
          {(control) => (
            <input
              {...control}
              type="checkbox"
              checked={activate}
              onChange={(event) => setActivate(event.target.checked)}
              disabled={isUploading}
            />
          )}
        </FormField>
        <div className="form__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={() => void handleUpload()}
            disabled={!file || isUploading}
          >
            {isUploading ? 'Uploading...' : 'Upload Build'}
          </button>
          {isUploading ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => abortRef.current?.abort()}
            >
              Cancel Upload
            </button>
          ) : null}
        </div>
      </div>
      {phase.kind === 'uploading' ? (
        <div className="upload-progress" ref={progressRef}>
          <label htmlFor={`${prefix}-progress`}>
            {percent < 100
              ? `Uploading: ${percent}% of ${formatBytes(phase.total)}`
              : 'Uploaded; the server is checking the build...'}
          </label>
          <progress id={`${prefix}-progress`} max={100} value={percent}>
            {percent}%
          </progress>
        </div>
      ) : null}
      <div role="alert" className="build-upload__alert">
        {phase.kind === 'failed' ? <p className="alert alert--error">{phase.message}</p> : null}
      </div>
      {phase.kind === 'done' ? <UploadResult game={game} build={phase.response.build} /> : null}
    </div>
  );
}

function uploadErrorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : UPLOAD_ERROR;
}

/**
 * What the upload did, truthfully and as things are now (the game as the page holds it, not as
 * the upload's answer had it): a live version of an unpublished game is not on /games yet, and
 * says so until the game is published or another version goes live.
 */
export function uploadHeadline(
  game: Pick<AdminGame, 'published' | 'version'>,
  build: Pick<GameBuildResponse['build'], 'version'>,
): string {
  if (game.version !== build.version) {
    return `Version ${build.version} uploaded (not live yet)`;
  }
  return game.published
    ? `Version ${build.version} uploaded and live`
    : `Version ${build.version} uploaded; publish the game to show it`;
}

function UploadResult({ game, build }: { game: AdminGame; build: GameBuildResponse['build'] }) {
  return (
    <section className="upload-result" aria-labelledby="upload-result-title">
      <h3 id="upload-result-title" role="status">
        {uploadHeadline(game, build)}
      </h3>
      <p className="admin-muted">What the server found in the build:</p>
      <BuildFacts build={build} />
    </section>
  );
}
