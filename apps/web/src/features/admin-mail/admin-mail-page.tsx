import { MAIL_STATUS_LABELS, type MailOutboxEntry } from '@portfolio/types';
import { useCallback, useState } from 'react';
import { Link, useParams } from 'react-router';

import { formatDateTime } from '../../lib/format';
import { hasErrorCode } from '../../lib/http';
import { serverMessageOr } from '../../lib/server-message';
import { AdminNav } from '../../ui/admin-nav';
import { AdminSection } from '../../ui/admin-section';
import { ErrorAlert } from '../../ui/error-alert';
import { Cell, ResponsiveTable } from '../../ui/responsive-table';
import { useResource } from '../../ui/use-resource';
import { getMail, listMail, resendMail } from './mail-api';
import { MailText } from './mail-text';

import './admin-mail.css';

export const MAIL_LOAD_ERROR = 'Failed to load the mail';
export const RESEND_ERROR = 'Failed to resend the message';
export const NO_SUCH_MESSAGE = 'No message with that id';
export const EMPTY_OUTBOX = 'No mail yet.';

const mailPath = (id: string) => `/admin/mail/${encodeURIComponent(id)}`;

function MailHeader({ title }: { title: string }) {
  return (
    <>
      <header className="admin-dashboard__header">
        <h1 id="admin-mail-title">{title}</h1>
      </header>
      <AdminNav />
    </>
  );
}

/** /admin/mail: the outbox, newest first; a message's subject opens it. */
export function AdminMailPage() {
  const { data: messages, error } = useResource(listMail, MAIL_LOAD_ERROR);
  return (
    <section className="page admin-mail" aria-labelledby="admin-mail-title">
      <MailHeader title="Mail" />
      <AdminSection titleId="mail-list-title" title="Outbox">
        <p className="admin-muted">
          The newest 100 messages the site sent or, without an SMTP server (SMTP_URL), kept here
          instead of sending.
        </p>
        {error ? <ErrorAlert message={error} /> : null}
        {messages === undefined && !error ? <p className="admin-muted">Loading...</p> : null}
        {messages?.length === 0 ? <p className="admin-muted">{EMPTY_OUTBOX}</p> : null}
        {messages && messages.length > 0 ? <MailTable messages={messages} /> : null}
      </AdminSection>
    </section>
  );
}

function MailTable({ messages }: { messages: readonly MailOutboxEntry[] }) {
  return (
    <ResponsiveTable labelledBy="mail-list-title" caption="Messages, newest first">
      <thead>
        <tr>
          <th scope="col">Subject</th>
          <th scope="col">To</th>
          <th scope="col">Status</th>
          <th scope="col">Queued</th>
        </tr>
      </thead>
      <tbody>
        {messages.map((message) => (
          <tr key={message.id}>
            <th scope="row">
              <Link to={mailPath(message.id)}>{message.subject}</Link>
            </th>
            <Cell label="To" className="admin-mail__address">
              {message.to}
            </Cell>
            <Cell label="Status">{MAIL_STATUS_LABELS[message.status]}</Cell>
            <Cell label="Queued">
              <time dateTime={message.created_at}>{formatDateTime(message.created_at)}</time>
            </Cell>
          </tr>
        ))}
      </tbody>
    </ResponsiveTable>
  );
}

/** /admin/mail/{id}: one message as it was written, and Resend. */
export function AdminMailMessagePage() {
  const { messageId = '' } = useParams();
  const load = useCallback((signal: AbortSignal) => getMail(messageId, signal), [messageId]);
  const { data: message, error } = useResource(load, MAIL_LOAD_ERROR);
  return (
    <section className="page admin-mail" aria-labelledby="admin-mail-title">
      <MailHeader title={message?.subject ?? 'Message'} />
      <p>
        <Link to="/admin/mail" className="button button--secondary">
          All Mail
        </Link>
      </p>
      {error ? <ErrorAlert message={error} /> : null}
      {message === undefined && !error ? <p className="admin-muted">Loading...</p> : null}
      {message ? <MailMessage key={message.id} message={message} /> : null}
    </section>
  );
}

function MailMessage({ message }: { message: MailOutboxEntry }) {
  const [resent, setResent] = useState<MailOutboxEntry | null>(null);
  const [resendError, setResendError] = useState<string | null>(null);
  const [isResending, setResending] = useState(false);

  const handleResend = async () => {
    setResending(true);
    setResendError(null);
    try {
      setResent(await resendMail(message.id));
    } catch (failure) {
      console.warn(RESEND_ERROR, failure);
      setResendError(
        hasErrorCode(failure, 'MAIL_NOT_FOUND')
          ? NO_SUCH_MESSAGE
          : serverMessageOr(failure, RESEND_ERROR),
      );
    } finally {
      setResending(false);
    }
  };

  return (
    <>
      <AdminSection titleId="mail-facts-title" title="Message">
        <dl className="admin-mail__facts">
          <dt>To</dt>
          <dd className="admin-mail__address">{message.to}</dd>
          <dt>Kind</dt>
          <dd>{message.kind}</dd>
          <dt>Status</dt>
          <dd>{MAIL_STATUS_LABELS[message.status]}</dd>
          <dt>Queued</dt>
          <dd>
            <time dateTime={message.created_at}>{formatDateTime(message.created_at)}</time>
          </dd>
          <dt>Sent or kept</dt>
          <dd>{message.sent_at ? formatDateTime(message.sent_at) : 'Not yet'}</dd>
          <dt>Attempts</dt>
          <dd>{message.attempts}</dd>
          {message.last_error ? (
            <>
              <dt>Last error</dt>
              <dd>{message.last_error}</dd>
            </>
          ) : null}
        </dl>
        <div className="form__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={() => void handleResend()}
            disabled={isResending}
          >
            {isResending ? 'Resending...' : 'Resend'}
          </button>
        </div>
        <div role="status">
          {resent ? (
            <p className="notice notice--success">
              Queued again as a new message. <Link to={mailPath(resent.id)}>Open the copy</Link>
            </p>
          ) : null}
        </div>
        <div role="alert">
          {resendError ? <p className="alert alert--error">{resendError}</p> : null}
        </div>
      </AdminSection>
      <AdminSection titleId="mail-text-title" title="Text">
        <MailText text={message.text} />
      </AdminSection>
    </>
  );
}
