import type { AdminGame } from '@portfolio/types/game-host';
import {
  type AdminRoom,
  DEFAULT_GAME_ROOM_SETTINGS,
  GameRoomSettings,
  ROOM_GRACE_SECONDS_MAX,
  ROOM_MAX_PLAYERS_LIMIT,
} from '@portfolio/types/rooms';
import { type FormEvent, useCallback, useId, useState } from 'react';
import { Link } from 'react-router';

import { issueSentence } from '../../lib/zod-issues';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormField, FormRow } from '../../ui/form-field';
import { Cell, ResponsiveTable } from '../../ui/responsive-table';
import { useResource } from '../../ui/use-resource';
import { closeRoom, listLiveRooms, putRoomSettings } from './rooms-admin-api';
import { SectionMessages, useSectionCommands } from './section-editor';

/** How long a room has been open: "3 min", "2 h 5 min". */
export function roomAge(createdAt: string, now: number = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(createdAt)) / 60_000));
  if (minutes < 1) {
    return 'under a minute';
  }
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

interface SettingsValues {
  guests: boolean;
  chat: boolean;
  graceSeconds: string;
  maxPlayers: string;
}

/**
 * The game's room settings in its admin page: whether guests may play rooms, the viewer's chat,
 * how long a dropped player's seat is held and the seats a room has.
 */
export function RoomSettingsSection({ game }: { game: AdminGame }) {
  const formId = useId();
  const initial = game.rooms ?? DEFAULT_GAME_ROOM_SETTINGS;
  const [values, setValues] = useState<SettingsValues>({
    guests: initial.guests,
    chat: initial.chat,
    graceSeconds: String(initial.graceSeconds),
    maxPlayers: String(initial.maxPlayers),
  });
  const [isBusy, setBusy] = useState(false);
  const commands = useSectionCommands(() => Promise.resolve());
  const change = (update: Partial<SettingsValues>) => setValues((now) => ({ ...now, ...update }));

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = GameRoomSettings.safeParse({
      guests: values.guests,
      chat: values.chat,
      graceSeconds: values.graceSeconds.trim() === '' ? NaN : Number(values.graceSeconds),
      maxPlayers: values.maxPlayers.trim() === '' ? NaN : Number(values.maxPlayers),
    });
    if (!parsed.success) {
      commands.setStatus(null);
      commands.setError(
        issueSentence(parsed.error.issues, {
          separator: ': ',
          fallback: 'Check the fields',
          labels: { graceSeconds: 'Seat held for (seconds)', maxPlayers: 'Seats per room' },
        }),
      );
      return;
    }
    setBusy(true);
    await commands.run(
      () => putRoomSettings(game.id, parsed.data),
      'Room settings saved',
      'Failed to save the room settings',
    );
    setBusy(false);
  };

  return (
    <form className="form" onSubmit={(event) => void handleSubmit(event)} noValidate>
      <FormField id={`${formId}-guests`} label="Guests may play in rooms" isInline>
        {(control) => (
          <input
            {...control}
            type="checkbox"
            checked={values.guests}
            onChange={(event) => change({ guests: event.target.checked })}
          />
        )}
      </FormField>
      <FormField id={`${formId}-chat`} label="Chat in rooms" isInline>
        {(control) => (
          <input
            {...control}
            type="checkbox"
            checked={values.chat}
            onChange={(event) => change({ chat: event.target.checked })}
          />
        )}
      </FormField>
      <FormRow>
        <FormField
          id={`${formId}-grace`}
          label="Seat held for (seconds)"
          hint={`After a dropped connection; 0 to ${ROOM_GRACE_SECONDS_MAX}.`}
          type="number"
          inputMode="numeric"
          min={0}
          max={ROOM_GRACE_SECONDS_MAX}
          value={values.graceSeconds}
          onValueChange={(graceSeconds) => change({ graceSeconds })}
        />
        <FormField
          id={`${formId}-max`}
          label="Seats per room"
          hint={`1 to ${ROOM_MAX_PLAYERS_LIMIT}; a game may ask for fewer.`}
          type="number"
          inputMode="numeric"
          min={1}
          max={ROOM_MAX_PLAYERS_LIMIT}
          value={values.maxPlayers}
          onValueChange={(maxPlayers) => change({ maxPlayers })}
        />
      </FormRow>
      <SectionMessages error={commands.error} status={commands.status} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isBusy}>
          {isBusy ? 'Saving...' : 'Save Room Settings'}
        </button>
      </div>
    </form>
  );
}

/**
 * Live rooms (every replica's), read again every 10 s: one game's with Close (the game's page), or
 * every game's with a Game column linking to the game's page (the dashboard, read only).
 */
export function LiveRoomsSection({ gameId, titleId }: { gameId?: string; titleId: string }) {
  const load = useCallback((signal: AbortSignal) => listLiveRooms(gameId, signal), [gameId]);
  const resource = useResource(load, 'Failed to load the live rooms', {
    pollMs: 10_000,
    isKeptWhileLoading: true,
  });
  const commands = useSectionCommands(resource.reload);
  const [closing, setClosing] = useState<AdminRoom | null>(null);
  const [isBusy, setBusy] = useState(false);
  const rooms = resource.data?.rooms ?? [];

  const handleClose = async () => {
    if (!closing) {
      return;
    }
    setBusy(true);
    await commands.run(
      () => closeRoom(closing.code),
      `Room ${closing.code} closed`,
      'Failed to close the room',
    );
    setBusy(false);
    setClosing(null);
  };

  return (
    <>
      {resource.error && <p className="alert alert--error">{resource.error}</p>}
      {resource.data && rooms.length === 0 ? (
        <p className="admin-muted">No live rooms.</p>
      ) : (
        <ResponsiveTable labelledBy={titleId}>
          <thead>
            <tr>
              <th scope="col">Room</th>
              {gameId === undefined && <th scope="col">Game</th>}
              <th scope="col">Players</th>
              <th scope="col">Spectators</th>
              <th scope="col">Open for</th>
              {gameId !== undefined && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {rooms.map((room) => (
              <tr key={room.code}>
                <th scope="row">
                  {room.code}
                  {room.private ? ' (private)' : ''}
                </th>
                {gameId === undefined && (
                  <Cell label="Game">
                    <Link to={`/admin/games/${encodeURIComponent(room.gameId)}`}>
                      {room.gameId}
                    </Link>
                  </Cell>
                )}
                <Cell label="Players">{`${room.players}/${room.maxPlayers}`}</Cell>
                <Cell label="Spectators">{room.spectators}</Cell>
                <Cell label="Open for">{roomAge(room.createdAt)}</Cell>
                {gameId !== undefined && (
                  <Cell label="Actions">
                    <button
                      type="button"
                      className="button button--danger button--small"
                      aria-label={`Close room ${room.code}`}
                      onClick={() => setClosing(room)}
                    >
                      Close
                    </button>
                  </Cell>
                )}
              </tr>
            ))}
          </tbody>
        </ResponsiveTable>
      )}
      {gameId !== undefined && <SectionMessages error={commands.error} status={commands.status} />}
      <ConfirmDialog
        isOpen={closing !== null}
        title="Close this room?"
        message={`Everyone in room ${closing?.code ?? ''} is told the room has been closed.`}
        confirmLabel="Close Room"
        isBusy={isBusy}
        onConfirm={() => void handleClose()}
        onCancel={() => setClosing(null)}
      />
    </>
  );
}
