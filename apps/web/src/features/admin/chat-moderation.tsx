import type { UserDetail } from '@portfolio/types';
import {
  ChatReportsResponse,
  type ChatStatus,
  ChatStatus as ChatStatusSchema,
  SetChatStatusRequest,
} from '@portfolio/types/rooms';
import { type FormEvent, useCallback, useId, useState } from 'react';
import { Link } from 'react-router';

import { formatDateTime } from '../../lib/format';
import { http, request } from '../../lib/http';
import { serverMessageOr } from '../../lib/server-message';
import { FormField, SelectField } from '../../ui/form-field';
import { Cell, ResponsiveTable } from '../../ui/responsive-table';
import { useResource } from '../../ui/use-resource';

/*
 * Rooms' chat moderation for the admin: a player's chat status on their page (Allowed, Muted,
 * Banned, with a reason; site-wide and audited by the server) and the players' reports on the
 * dashboard.
 */

const STATUSES = ChatStatusSchema.options;
export const CHAT_STATUS_LABELS: Record<ChatStatus, string> = {
  allowed: 'Allowed',
  muted: 'Muted (reads chat, cannot send)',
  banned: 'Banned (no chat at all)',
};

const SetChatStatusResponse = SetChatStatusRequest.pick({ status: true });

function setChatStatus(userId: string, body: SetChatStatusRequest) {
  return request('PUT', `/api/admin/users/${encodeURIComponent(userId)}/chat`, {
    body,
    schema: SetChatStatusResponse,
  });
}

/** The chat status card of the admin's user page. */
export function ChatStatusCard({ user, onChanged }: { user: UserDetail; onChanged: () => void }) {
  const formId = useId();
  const current = user.chat_status ?? 'allowed';
  const [status, setStatus] = useState<ChatStatus>(current);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(null);
    const body = SetChatStatusRequest.safeParse({ status, reason: reason.trim() || undefined });
    if (!body.success) {
      setError('Reason: must be at most 500 characters');
      return;
    }
    setBusy(true);
    try {
      const answer = await setChatStatus(user.id, body.data);
      setSaved(`Chat: ${CHAT_STATUS_LABELS[answer.status]}`);
      setReason('');
      onChanged();
    } catch (failure) {
      setError(serverMessageOr(failure, 'Failed to change the chat status'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="user-chat-title">
      <h2 id="user-chat-title">Chat</h2>
      <p>
        Now: <strong>{CHAT_STATUS_LABELS[current]}</strong>
      </p>
      <form className="form" onSubmit={(event) => void handleSubmit(event)} noValidate>
        <SelectField
          id={`${formId}-status`}
          label="Chat status"
          value={status}
          options={STATUSES}
          labels={CHAT_STATUS_LABELS}
          onValueChange={setStatus}
        />
        <FormField
          id={`${formId}-reason`}
          label="Reason"
          hint="Kept in the audit log."
          maxLength={500}
          value={reason}
          onValueChange={setReason}
        />
        {error ? (
          <p role="alert" className="alert alert--error">
            {error}
          </p>
        ) : null}
        <p role="status" className="form__hint form__hint--ok">
          {saved}
        </p>
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={isBusy}>
            {isBusy ? 'Saving...' : 'Save Chat Status'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The players' chat reports on the dashboard, newest first as the server lists them. */
export function ChatReportsSection() {
  const load = useCallback(
    (signal: AbortSignal) => http.get('/api/admin/chat-reports', ChatReportsResponse, signal),
    [],
  );
  const { data, error } = useResource(load, 'Failed to load the chat reports');
  const reports = data?.reports ?? [];
  return (
    <section className="admin-section" aria-labelledby="chat-reports-title">
      <h2 id="chat-reports-title">Chat Reports</h2>
      {error && <p className="alert alert--error">{error}</p>}
      {data && reports.length === 0 ? (
        <p className="admin-muted">No chat reports.</p>
      ) : (
        <ResponsiveTable labelledBy="chat-reports-title">
          <thead>
            <tr>
              <th scope="col">Message</th>
              <th scope="col">Author</th>
              <th scope="col">Reported by</th>
              <th scope="col">Game and room</th>
              <th scope="col">Reported</th>
            </tr>
          </thead>
          <tbody>
            {reports.map((report) => (
              <tr key={report.id}>
                <th scope="row">{report.message.text}</th>
                <Cell label="Author">
                  {report.author.userId ? (
                    <Link to={`/admin/users/${encodeURIComponent(report.author.userId)}`}>
                      {report.author.name}
                    </Link>
                  ) : (
                    `${report.author.name} (guest)`
                  )}
                </Cell>
                <Cell label="Reported by">{report.reporter.name}</Cell>
                <Cell label="Game and room">{`${report.gameId} · ${report.roomCode}`}</Cell>
                <Cell label="Reported">{formatDateTime(report.createdAt)}</Cell>
              </tr>
            ))}
          </tbody>
        </ResponsiveTable>
      )}
    </section>
  );
}
