import type { AdminGame } from '@portfolio/types/game-host';
import { useState } from 'react';

import { formatDateTime } from '../../lib/format';
import { serverMessageOr } from '../../lib/server-message';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { activateBuild, deleteBuild } from './admin-games-api';
import { BuildFacts } from './build-facts';
import { formatBytes } from './game-labels';

export const ACTIVATE_ERROR = 'Failed to make the version live';
export const DELETE_BUILD_ERROR = 'Failed to delete the version';

interface BuildVersionsProps {
  game: AdminGame;
  /** Called after a version went live or was deleted (the page reloads the game). */
  onChanged: () => Promise<void>;
}

/**
 * Every uploaded version, newest first, with the live one marked, a one-click "Make live" and,
 * after confirmation, Delete for the others (their files take disk space until then).
 */
export function BuildVersions({ game, onChanged }: BuildVersionsProps) {
  const [busyVersion, setBusyVersion] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<AdminGame['builds'][number] | null>(null);
  const builds = [...game.builds].sort((a, b) => b.version - a.version);

  /** Runs one change of a version: one at a time, its outcome in the status or the alert. */
  const change = async (
    version: number,
    action: () => Promise<void>,
    done: string,
    failed: string,
  ) => {
    setBusyVersion(version);
    setError(null);
    setStatus(null);
    try {
      await action();
      await onChanged();
      setStatus(done);
    } catch (failure) {
      console.warn(failed, failure);
      setError(serverMessageOr(failure, failed));
    } finally {
      setBusyVersion(null);
    }
  };

  const handleActivate = (version: number) =>
    change(
      version,
      () => activateBuild(game.id, version),
      `Version ${version} is live`,
      ACTIVATE_ERROR,
    );

  const handleDelete = async () => {
    if (!deleteTarget) {
      return;
    }
    const { version } = deleteTarget;
    await change(
      version,
      () => deleteBuild(game.id, version),
      `Version ${version} deleted`,
      DELETE_BUILD_ERROR,
    );
    setDeleteTarget(null);
  };

  return (
    <>
      <div role="alert">{error ? <p className="alert alert--error">{error}</p> : null}</div>
      <p role="status" className="form__hint form__hint--ok">
        {status}
      </p>
      {builds.length === 0 ? (
        <p className="admin-muted">No build uploaded yet.</p>
      ) : (
        <ol className="version-list" reversed>
          {builds.map((build) => (
            <li key={build.version} className="version-list__item">
              <div className="version-list__header">
                <h3>Version {build.version}</h3>
                {build.isLive ? (
                  <span className="status-badge status-badge--green">Live</span>
                ) : (
                  <span className="version-list__actions">
                    <button
                      type="button"
                      className="button button--secondary button--small"
                      onClick={() => void handleActivate(build.version)}
                      disabled={busyVersion !== null}
                      aria-label={`Make version ${build.version} live`}
                    >
                      {busyVersion === build.version && !deleteTarget
                        ? 'Making live...'
                        : 'Make live'}
                    </button>
                    <button
                      type="button"
                      className="button button--danger button--small"
                      onClick={() => setDeleteTarget(build)}
                      disabled={busyVersion !== null}
                      aria-label={`Delete version ${build.version}`}
                    >
                      Delete
                    </button>
                  </span>
                )}
              </div>
              <p className="admin-muted version-list__meta">
                Uploaded <time dateTime={build.uploadedAt}>{formatDateTime(build.uploadedAt)}</time>{' '}
                by {build.uploadedBy}
              </p>
              <details className="version-list__facts">
                <summary>Details</summary>
                <BuildFacts build={build} />
              </details>
            </li>
          ))}
        </ol>
      )}
      <ConfirmDialog
        isOpen={deleteTarget !== null}
        title="Delete Version"
        message={
          deleteTarget
            ? `Delete version ${deleteTarget.version} of ${game.title} and its files (${formatBytes(deleteTarget.bytes)})? A player still on it loses it. This action cannot be undone.`
            : ''
        }
        confirmLabel="Delete"
        isBusy={deleteTarget !== null && busyVersion === deleteTarget.version}
        onConfirm={() => void handleDelete()}
        onCancel={() => setDeleteTarget(null)}
      />
    </>
  );
}
