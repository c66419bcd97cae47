import type { AdminToken, CreateAdminTokenResponse } from '@portfolio/types/game-host';
import { CreateAdminTokenRequest } from '@portfolio/types/game-host';
import { useId, useRef, useState, type FormEvent } from 'react';

import { formatDateTime } from '../../lib/format';
import { serverMessageOr } from '../../lib/server-message';
import { AdminSection } from '../../ui/admin-section';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { createToken, listTokens, revokeToken } from './admin-games-api';
import { ErrorAlert } from '../../ui/error-alert';
import { FormField } from '../../ui/form-field';
import { useResource } from '../../ui/use-resource';
import { issueSentence } from '../../lib/zod-issues';

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

/** Admin API tokens for build scripts: list, create (shown once, with Copy), revoke. */
export function AdminTokensSection() {
  const nameId = useId();
  const tokens = useResource(listTokens, TOKENS_LOAD_ERROR);
  const [name, setName] = useState('');
  const [isCreating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreateAdminTokenResponse | null>(null);
  const [revoking, setRevoking] = useState<AdminToken | null>(null);
  const [isRevoking, setIsRevoking] = useState(false);

  const handleCreate = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const checked = CreateAdminTokenRequest.safeParse({ name });
    if (!checked.success) {
      setError(
        issueSentence(checked.error.issues, {
          labels: { name: 'Name' },
          fallback: 'Name is not valid',
        }),
      );
      return;
    }
    setCreating(true);
    try {
      const token = await createToken(checked.data.name);
      setCreated(token);
      setName('');
      await tokens.reload();
    } catch (failure) {
      console.warn(TOKEN_CREATE_ERROR, failure);
      setError(serverMessageOr(failure, TOKEN_CREATE_ERROR));
    } finally {
      setCreating(false);
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
      await tokens.reload();
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
          {tokens.isLoading ? <p className="admin-muted">Loading...</p> : null}
          {tokens.error ? <ErrorAlert message={tokens.error} /> : null}
          {tokens.data ? <TokenList tokens={tokens.data} onRevoke={setRevoking} /> : null}
          <form className="form token-form" onSubmit={(event) => void handleCreate(event)}>
            <FormField
              id={nameId}
              label="Token name"
              value={name}
              onValueChange={setName}
              maxLength={60}
              placeholder="e.g. build server"
              autoComplete="off"
            />
            <div role="alert">{error ? <p className="alert alert--error">{error}</p> : null}</div>
            <div className="form__actions">
              <button type="submit" className="button button--primary" disabled={isCreating}>
                {isCreating ? 'Creating...' : 'Create Token'}
              </button>
            </div>
          </form>
          {/* a new token's copy status starts empty */}
          {created ? <NewToken key={created.id} created={created} /> : null}
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

/** The admin's tokens with when each was made and last used, each with Revoke. */
function TokenList({
  tokens,
  onRevoke,
}: {
  tokens: readonly AdminToken[];
  onRevoke: (token: AdminToken) => void;
}) {
  if (tokens.length === 0) {
    return <p className="admin-muted">No tokens yet.</p>;
  }
  return (
    <ul className="record-list token-list">
      {tokens.map((token) => (
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
            onClick={() => onRevoke(token)}
            aria-label={`Revoke ${token.name}`}
          >
            Revoke
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The token just made, shown this once, with Copy. */
function NewToken({ created }: { created: CreateAdminTokenResponse }) {
  const [copyStatus, setCopyStatus] = useState<string | null>(null);
  const handleCopy = async (token: string) => {
    try {
      await navigator.clipboard.writeText(token);
      setCopyStatus('Copied');
    } catch {
      setCopyStatus('Copying was refused: select the token and copy it');
    }
  };
  return (
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
  );
}
