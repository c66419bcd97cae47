import { API_ERRORS } from '@portfolio/types/errors';
import { CHAT_MESSAGE_MAX_LENGTH, type ChatLine, type ChatStatus } from '@portfolio/types/rooms';
import { type FormEvent, useId, useState } from 'react';

import { isHttpError } from '../../lib/http';

export const CHAT_FAILED = 'The message could not be sent.';
export const REPORT_SENT = 'Reported. Thank you.';

/** The message for a chat refusal: the catalogue's for its code. */
function messageOf(error: unknown, fallback: string): string {
  if (isHttpError(error) && error.code === 'CHAT_MUTED') {
    return API_ERRORS.CHAT_MUTED.message;
  }
  return isHttpError(error) ? error.message : fallback;
}

/**
 * The room's chat in the viewer: lines as text (React escapes them; never HTML), a message field
 * with its length counter sent by Enter, a Report button on other players' lines. A muted or
 * banned player is told so (the service refuses their messages anyway).
 */
export function RoomChat(props: {
  lines: ChatLine[];
  playerId: string | null;
  status: ChatStatus;
  onSend: (text: string) => Promise<unknown>;
  onReport: (messageId: string) => Promise<unknown>;
}) {
  const { lines, playerId, status } = props;
  const [text, setText] = useState('');
  const [isSending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reported, setReported] = useState<string | null>(null);
  const titleId = useId();
  const fieldId = useId();
  const counterId = useId();
  const isBlocked = status !== 'allowed';

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const message = text.trim();
    if (!message || isSending) {
      return;
    }
    setSending(true);
    setError(null);
    props.onSend(message).then(
      () => {
        setText('');
        setSending(false);
      },
      (refusal: unknown) => {
        setError(messageOf(refusal, CHAT_FAILED));
        setSending(false);
      },
    );
  };

  const report = (line: ChatLine) => {
    setError(null);
    props.onReport(line.id).then(
      () => setReported(line.id),
      (refusal: unknown) => setError(messageOf(refusal, 'The report could not be sent.')),
    );
  };

  return (
    <section className="room-chat" aria-labelledby={titleId}>
      <h2 id={titleId} className="room-chat__title">
        Chat
      </h2>
      {status === 'banned' ? null : (
        <ol className="room-chat__lines" aria-live="polite" aria-label="Chat messages">
          {lines.length === 0 && <li className="muted">No messages yet.</li>}
          {lines.map((line) => (
            <li key={line.id} className="room-chat__line">
              <span className="room-chat__name">{line.from.name}</span>{' '}
              <span className="room-chat__text">{line.text}</span>
              {line.from.id !== playerId &&
                (reported === line.id ? (
                  <span className="room-chat__reported" role="status">
                    {REPORT_SENT}
                  </span>
                ) : (
                  <button
                    type="button"
                    className="button button--ghost button--small room-chat__report"
                    aria-label={`Report message from ${line.from.name}`}
                    onClick={() => report(line)}
                  >
                    Report
                  </button>
                ))}
            </li>
          ))}
        </ol>
      )}
      {isBlocked && (
        <p className="room-chat__blocked" role="status">
          {API_ERRORS.CHAT_MUTED.message}
        </p>
      )}
      <form className="room-chat__form" onSubmit={handleSubmit}>
        <label htmlFor={fieldId} className="room-chat__label">
          Message
        </label>
        <input
          id={fieldId}
          className="room-chat__input"
          type="text"
          value={text}
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          autoComplete="off"
          disabled={isBlocked}
          aria-describedby={counterId}
          onChange={(event) => setText(event.target.value)}
        />
        <span id={counterId} className="room-chat__counter">
          {`${text.length}/${CHAT_MESSAGE_MAX_LENGTH}`}
        </span>
        <button
          type="submit"
          className="button button--primary button--small"
          disabled={isBlocked || isSending || text.trim() === ''}
        >
          Send
        </button>
      </form>
      {error && (
        <p className="room-chat__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
