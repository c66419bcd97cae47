import type { PublicRoomSummary, RoomPlayer } from '@portfolio/types/rooms';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';

import { isHttpError } from '../../lib/http';
import { withRedirect } from '../../lib/safe-redirect';
import { useAuthStore } from '../auth';
import type { RoomClient } from './room-client';
import { RoomChat } from './room-chat';
import { useRoomSnapshot } from './use-room-client';
import './rooms.css';

export const INVITE_COPIED = 'Invite link copied.';

function describePlayer(player: RoomPlayer, playerId: string | null): string {
  const notes = [
    player.id === playerId ? 'you' : null,
    player.isHost ? 'host' : null,
    player.isSpectator ? 'watching' : null,
    player.away ? 'reconnecting' : null,
  ].filter(Boolean);
  return notes.length > 0 ? `${player.name} (${notes.join(', ')})` : player.name;
}

function failureOf(error: unknown): string {
  return isHttpError(error) ? error.message : 'Something went wrong. Please try again.';
}

/**
 * The viewer's room bar, shown once the game uses rooms (or an invite link was opened): the
 * room's code and players, "Copy invite link" (with a confirmation), Share where the browser has
 * Web Share, Leave, the lobby ("Rooms") and the room's chat when the game keeps it on.
 */
export function RoomBar({ client, gameTitle }: { client: RoomClient; gameTitle: string }) {
  const snapshot = useRoomSnapshot(client);
  const user = useAuthStore((state) => state.user);
  const [status, setStatus] = useState<string | null>(null);
  const [isLobbyOpen, setLobbyOpen] = useState(false);
  const lobbyId = useId();
  const { room, playerId, notice } = snapshot;

  if (!snapshot.isActive) {
    return null;
  }
  const inviteUrl = room ? client.inviteUrl(room.code) : '';
  const canShare = typeof navigator.share === 'function';

  const copyInvite = () => {
    navigator.clipboard.writeText(inviteUrl).then(
      () => setStatus(INVITE_COPIED),
      () => setStatus(`Copy this link: ${inviteUrl}`),
    );
  };
  const share = () => {
    navigator
      .share({ title: gameTitle, text: `Play ${gameTitle} with me`, url: inviteUrl })
      .catch(() => undefined);
  };
  const leave = () => {
    setStatus(null);
    client.leave().catch((error: unknown) => setStatus(failureOf(error)));
  };
  const here = `${window.location.pathname}${window.location.search}`;

  return (
    <>
      <section className="room-bar" aria-label="Room">
        {room ? (
          <>
            <p className="room-bar__code">
              {room.private ? 'Private room' : 'Room'} <strong>{room.code}</strong>
            </p>
            <ul className="room-bar__players" aria-label="Players in the room">
              {room.players.map((player) => (
                <li key={player.id}>{describePlayer(player, playerId)}</li>
              ))}
            </ul>
          </>
        ) : (
          <p className="room-bar__code">Not in a room</p>
        )}
        <div className="room-bar__actions">
          {room && (
            <button type="button" className="button button--secondary" onClick={copyInvite}>
              Copy invite link
            </button>
          )}
          {room && canShare && (
            <button type="button" className="button button--secondary" onClick={share}>
              Share
            </button>
          )}
          <button
            type="button"
            className="button button--ghost"
            aria-expanded={isLobbyOpen}
            aria-controls={lobbyId}
            onClick={() => setLobbyOpen((open) => !open)}
          >
            Rooms
          </button>
          {room && (
            <button type="button" className="button button--ghost" onClick={leave}>
              Leave
            </button>
          )}
        </div>
        <p className="room-bar__status" role="status">
          {status}
        </p>
        {notice && (
          <p className="notice room-bar__notice" role="alert">
            {notice.message}{' '}
            {user === null && notice.code === 'ROOMS_SIGN_IN' && (
              <Link to={withRedirect('/login', here)}>Log in</Link>
            )}
          </p>
        )}
      </section>
      <div id={lobbyId} hidden={!isLobbyOpen}>
        {isLobbyOpen && <RoomLobby client={client} onEntered={() => setLobbyOpen(false)} />}
      </div>
      {room?.chat && (
        <RoomChat
          lines={snapshot.chat}
          playerId={playerId}
          status={snapshot.chatStatus}
          onSend={client.sendChat}
          onReport={client.reportChat}
        />
      )}
    </>
  );
}

/** Public rooms of this game with their players, Join and Spectate, and new rooms. */
function RoomLobby({ client, onEntered }: { client: RoomClient; onEntered: () => void }) {
  const [rooms, setRooms] = useState<PublicRoomSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revision, setRevision] = useState(0);
  const titleId = useId();

  useEffect(() => {
    let isCurrent = true;
    client.list().then(
      (listed) => {
        if (isCurrent) {
          setRooms(listed);
          setError(null);
        }
      },
      (failure: unknown) => {
        if (isCurrent) {
          setError(failureOf(failure));
        }
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [client, revision]);

  const run = (action: () => Promise<unknown>) => {
    setError(null);
    action().then(onEntered, (failure: unknown) => setError(failureOf(failure)));
  };

  return (
    <section className="room-lobby" aria-labelledby={titleId}>
      <h2 id={titleId} className="room-lobby__title">
        Rooms
      </h2>
      <div className="room-lobby__create">
        <button
          type="button"
          className="button button--primary"
          onClick={() => run(() => client.create({ private: false }))}
        >
          Create room
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => run(() => client.create({ private: true }))}
        >
          Create private room
        </button>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => setRevision((count) => count + 1)}
        >
          Refresh
        </button>
      </div>
      {error && (
        <p className="room-lobby__error" role="alert">
          {error}
        </p>
      )}
      {rooms === null ? (
        <p className="muted">Loading...</p>
      ) : rooms.length === 0 ? (
        <p className="muted">No open rooms. Create one!</p>
      ) : (
        <ul className="room-lobby__list">
          {rooms.map((listed) => (
            <li key={listed.code} className="room-lobby__room">
              <span className="room-lobby__name">
                <strong>{listed.code}</strong> {listed.hostName}
              </span>
              <span className="room-lobby__count">
                {`${listed.players}/${listed.maxPlayers} players`}
                {listed.spectators > 0 ? `, ${listed.spectators} watching` : ''}
              </span>
              <span className="room-lobby__actions">
                <button
                  type="button"
                  className="button button--primary button--small"
                  aria-label={`Join room ${listed.code}`}
                  disabled={listed.players >= listed.maxPlayers}
                  onClick={() => run(() => client.join(listed.code))}
                >
                  Join
                </button>
                <button
                  type="button"
                  className="button button--secondary button--small"
                  aria-label={`Spectate room ${listed.code}`}
                  onClick={() => run(() => client.spectate(listed.code))}
                >
                  Spectate
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
