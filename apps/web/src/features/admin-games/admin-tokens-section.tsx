import type { AdminToken, CreateAdminTokenResponse } from '@portfolio/types/game-host';
import { CreateAdminTokenRequest } from '@portfolio/types/game-host';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';

import { formatDateTime } from '../../lib/format';
import { serverMessageOr } from '../../lib/server-message';
import { AdminSection } from '../../ui/admin-section';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { createToken, listTokens, revokeToken } from './admin-games-api';
import { ErrorAlert } from '../../ui/error-alert';

export const TOKENS_LOAD_ERROR = 'Failed to fetch API tokens';
export const TOKEN_CREATE_ERROR = 'Failed to create the token';
export const TOKEN_REVOKE_ERROR = 'Failed to revoke the token';

/** The two ways a build script publishes, as shown beside the tokens. */
export function publishCommands(origin: string, gameId: string) {
  return {
    curl: [
      'curl -X PUT --data-binary @build.zip \\',
      "  -H 'Content-Type: application/zip' \\",
      '  -H "Authorization: Bearer $GAMES_PUBLISH_TOKEN" \\',
      `  ${origin}/api/admin/games/${gameId}/build`,
    ].join('\n'),
    npm: [
      '# the token from GAMES_PUBLISH_TOKEN (a CI secret), else asked for, not shown',
      `npm run games:publish -- ${gameId} build.zip --site ${origin}`,
    ].join('\n'),
  };
}

/**
 * A terminal command: kept on its lines (a flag such as `--site` never breaks), scrolled sideways
 * with a scrollbar that stays visible when it is wider than the box, and a Copy button.
 */
export function CommandBlock({ label, command }: { label: string; command: string }) {
  const [note, setNote] = useState('');
  const preRef = useRef<HTMLPreElement>(null);

  const selectCommand = () => {
    const pre = preRef.current;
    const selection = window.getSelection();
    if (pre && selection) {
      selection.selectAllChildren(pre);
    }
  };

  const handleCopy = () => {
    // navigator.clipboard exists only in secure contexts (https, localhost)
    if (!(window.isSecureContext && 'clipboard' in navigator)) {
      selectCommand();
      setNote('Selected: press Ctrl+C (⌘+C) to copy.');
      return;
    }
    navigator.clipboard.writeText(command).then(
      () => setNote('Copied'),
      () => {
        selectCommand();
        setNote('Could not copy: the command is selected, press Ctrl+C (⌘+C).');
      },
    );
  };

  return (
    <div className="command-block">
      <pre ref={preRef} tabIndex={0} aria-label={label}>
        <code>{command}</code>
      </pre>
      <div className="command-block__actions">
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={handleCopy}
          aria-label={`Copy ${label}`}
        >
          Copy
        </button>
        <span role="status" className="admin-muted">
          {note}
        </span>
      </div>
    </div>
  );
}

/** The curl and npm commands that publish a build from a terminal. */
export function PublishCommands({ gameId }: { gameId: string }) {
  const { curl, npm } = publishCommands(window.location.origin, gameId);
  return (
    <div className="publish-commands">
      <p>
        With curl, an admin API token in the environment variable <code>GAMES_PUBLISH_TOKEN</code>;
        it answers with the new version and what was detected:
      </p>
      <CommandBlock label="curl command" command={curl} />
      <p>
        Or from this repository, the npm script that wraps it and prints the same. It takes the
        token from <code>GAMES_PUBLISH_TOKEN</code> (in CI, a secret variable), or asks for it in
        the terminal without showing it; a token written on the command line lands in shell history
        and CI logs. Add <code>--no-activate</code> to keep the live version; <code>SITE_URL</code>{' '}
        works instead of <code>--site</code>:
      </p>
      <CommandBlock label="npm command" command={npm} />
    </div>
  );
}

type TokensState =
  | { kind: 'loading' }
  | { kind: 'loaded'; tokens: AdminToken[] }
  | { kind: 'failed'; message: string };

/** Admin API tokens for build scripts: list, create (shown once, with Copy), revoke. */
export function AdminTokensSection() {
  const nameId = useId();
  const [state, setState] = useState<TokensState>({ kind: 'loading' });
  const [name, setName] = useState('');
  const [isCreating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreateAdminTokenResponse | null>(null);
  const [copyStatus, setCopyStatus] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<AdminToken | null>(null);
  const [isRevoking, setIsRevoking] = useState(false);

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      const tokens = await listTokens(signal);
      setState({ kind: 'loaded', tokens });
    } catch (failure) {
      if (signal?.aborted) {
        return;
      }
      console.warn(TOKENS_LOAD_ERROR, failure);
      setState({ kind: 'failed', message: serverMessageOr(failure, TOKENS_LOAD_ERROR) });
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state is set after the answer
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const handleCreate = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setCopyStatus(null);
    const checked = CreateAdminTokenRequest.safeParse({ name });
    if (!checked.success) {
      setError(`Name ${checked.error.issues[0]?.message ?? 'is not valid'}`);
      return;
    }
    setCreating(true);
    try {
      const token = await createToken(checked.data.name);
      setCreated(token);
      setName('');
      await load();
    } catch (failure) {
      console.warn(TOKEN_CREATE_ERROR, failure);
      setError(serverMessageOr(failure, TOKEN_CREATE_ERROR));
    } finally {
      setCreating(false);
    }
  };

  const handleCopy = async (token: string) => {
    try {
      await navigator.clipboard.writeText(token);
      setCopyStatus('Copied');
    } catch {
      setCopyStatus('Copying was refused: select the token and copy it');
    }
  };

  const handleRevoke = async () => {
    if (!revoking) {
      return;
    }
    setIsRevoking(true);
    setError(null);
    try {
      await revokeToken(revoking.id);
      if (created?.id === revoking.id) {
        setCreated(null);
      }
      setRevoking(null);
      await load();
    } catch (failure) {
      console.warn(TOKEN_REVOKE_ERROR, failure);
      setRevoking(null);
      setError(serverMessageOr(failure, TOKEN_REVOKE_ERROR));
    } finally {
      setIsRevoking(false);
    }
  };

  return (
    <AdminSection titleId="api-tokens-title" title="API Tokens">
      <p className="admin-muted">
        A build script publishes with a token instead of a session:{' '}
        <code>Authorization: Bearer &lt;token&gt;</code>. A token acts as an admin on the admin API
        only; revoke it when the script no longer needs it.
      </p>
      <div className="admin-games__columns">
        <div className="admin-panel">
          <h3>Your tokens</h3>
          {state.kind === 'loading' ? <p className="admin-muted">Loading...</p> : null}
          {state.kind === 'failed' ? <ErrorAlert message={state.message} /> : null}
          {state.kind === 'loaded' && state.tokens.length === 0 ? (
            <p className="admin-muted">No tokens yet.</p>
          ) : null}
          {state.kind === 'loaded' && state.tokens.length > 0 ? (
            <ul className="record-list token-list">
              {state.tokens.map((token) => (
                <li key={token.id} className="record-list__item token-list__item">
                  <div>
                    <p className="record-list__title">{token.name}</p>
                    <p className="admin-muted">
                      Created {formatDateTime(token.createdAt)} · Last used{' '}
                      {token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Never'}
                    </p>
                  </div>
                  <button
                    type="button"
                    className="button button--danger button--small"
                    onClick={() => setRevoking(token)}
                    aria-label={`Revoke ${token.name}`}
                  >
                    Revoke
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <form className="form token-form" onSubmit={(event) => void handleCreate(event)}>
            <div className="form__field">
              <label htmlFor={nameId}>Token name</label>
              <input
                id={nameId}
                value={name}
                onChange={(event) => setName(event.target.value)}
                maxLength={60}
                placeholder="e.g. build server"
                autoComplete="off"
              />
            </div>
            <div role="alert">{error ? <p className="alert alert--error">{error}</p> : null}</div>
            <div className="form__actions">
              <button type="submit" className="button button--primary" disabled={isCreating}>
                {isCreating ? 'Creating...' : 'Create Token'}
              </button>
            </div>
          </form>
          {created ? (
            <div className="new-token" role="region" aria-label="New token">
              <p>
                <strong>{created.name}</strong>: copy the token now; it is shown only once.
              </p>
              <div className="new-token__value">
                <code data-testid="new-token">{created.token}</code>
                <button
                  type="button"
                  className="button button--secondary button--small"
                  onClick={() => void handleCopy(created.token)}
                >
                  Copy
                </button>
              </div>
              <p role="status" className="form__hint form__hint--ok">
                {copyStatus}
              </p>
            </div>
          ) : null}
        </div>
        <div className="admin-panel">
          <h3>Publishing from a terminal</h3>
          <PublishCommands gameId="<game-id>" />
        </div>
      </div>
      <ConfirmDialog
        isOpen={revoking !== null}
        title="Revoke Token"
        message={`Revoke "${revoking?.name ?? ''}"? Scripts using it stop working at once.`}
        confirmLabel="Revoke"
        isBusy={isRevoking}
        onConfirm={() => void handleRevoke()}
        onCancel={() => setRevoking(null)}
      />
    </AdminSection>
  );
}
