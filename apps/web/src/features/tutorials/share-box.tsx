import type { Snippet } from '@portfolio/types/run-code';
import { type ReactNode, type RefObject, useId, useRef, useState } from 'react';

import { type CodeBoxSource, isSameSource } from './code-box-store';
import { describeRunError } from './run-code-api';
import { shareSnippet, snippetAddress } from './snippets-api';

type ShareState =
  | { status: 'idle' }
  | { status: 'sharing' }
  | { status: 'shared'; snippet: Snippet; source: CodeBoxSource }
  | { status: 'failed'; detail: string };

/**
 * Share: stores the box's source, standard input and options as a snippet and shows the address
 * that opens them, with a Copy button, on a row of its own under the button's row. The link stays until the next share; when the code has
 * changed since, it says so.
 */
export function ShareBox({ source, children }: { source: CodeBoxSource; children?: ReactNode }) {
  const [state, setState] = useState<ShareState>({ status: 'idle' });
  const [copyNote, setCopyNote] = useState('');
  const linkRef = useRef<HTMLInputElement>(null);
  const linkId = useId();

  const handleShare = () => {
    const { code, stdin, standard, optimization } = source;
    const shared = { code, stdin, standard, optimization };
    setState({ status: 'sharing' });
    setCopyNote('');
    shareSnippet(shared).then(
      (snippet) => setState({ status: 'shared', snippet, source: shared }),
      (error: unknown) => setState({ status: 'failed', detail: describeRunError(error) }),
    );
  };

  const handleCopy = (address: string) => {
    const selectLink = () => {
      linkRef.current?.focus();
      linkRef.current?.select();
    };
    // navigator.clipboard exists only in secure contexts (https, localhost)
    if (!(window.isSecureContext && 'clipboard' in navigator)) {
      selectLink();
      setCopyNote('Selected: press Ctrl+C (⌘+C) to copy.');
      return;
    }
    navigator.clipboard.writeText(address).then(
      () => setCopyNote('Copied.'),
      () => {
        selectLink();
        setCopyNote('Could not copy: the link is selected, press Ctrl+C (⌘+C).');
      },
    );
  };

  return (
    <>
      <button
        type="button"
        className="button button--secondary"
        onClick={handleShare}
        disabled={state.status === 'sharing'}
      >
        {state.status === 'sharing' ? 'Sharing...' : 'Share'}
      </button>
      {/* what stands beside the button (the runner's limits), before the link's own row */}
      {children}
      <div className="share-box" role="status" aria-label="Share">
        {state.status === 'failed' ? (
          <p className="share-box__error">Could not share the code: {state.detail}</p>
        ) : null}
        {state.status === 'shared' ? (
          <SharedLink
            address={snippetAddress(state.snippet, window.location.origin)}
            isOutdated={!isSameSource(state.source, source)}
            linkId={linkId}
            linkRef={linkRef}
            copyNote={copyNote}
            onCopy={handleCopy}
          />
        ) : null}
      </div>
    </>
  );
}

interface SharedLinkProps {
  address: string;
  isOutdated: boolean;
  linkId: string;
  linkRef: RefObject<HTMLInputElement | null>;
  copyNote: string;
  onCopy: (address: string) => void;
}

function SharedLink({ address, isOutdated, linkId, linkRef, copyNote, onCopy }: SharedLinkProps) {
  return (
    <>
      <div className="share-box__link">
        <label htmlFor={linkId}>Share link</label>
        <input
          ref={linkRef}
          id={linkId}
          type="url"
          readOnly
          value={address}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button button--secondary" onClick={() => onCopy(address)}>
          Copy
        </button>
      </div>
      {copyNote ? <p className="share-box__note">{copyNote}</p> : null}
      {isOutdated ? (
        <p className="share-box__note">
          The code has changed since this link was made: Share again for a link to the new code.
        </p>
      ) : null}
    </>
  );
}
