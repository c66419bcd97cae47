import { GAME_SDK_PROTOCOL, type GameSdkRoomEventMessage } from '@portfolio/types';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';

import { withRedirect } from '../../lib/safe-redirect';
import { useAuthStore } from '../auth';
import { createRoomClient, type RoomClient, type RoomSnapshot } from './room-client';
import { openRoomsConnection } from './room-connection';

/** The query parameter of an invite link: /games?play=<id>&room=<code>. */
export const ROOM_PARAM = 'room';

/**
 * The open game's room client (room-client.ts): events go to the game's frame on its origin; an
 * invite link opened by a guest of a game that wants players signed in goes to the login page,
 * which comes back to the same address.
 */
export function useRoomClient(
  gameId: string,
  playUrl: string | null,
  frameRef: React.RefObject<HTMLIFrameElement | null>,
): RoomClient | null {
  const navigate = useNavigate();
  const client = useMemo(() => {
    if (!playUrl) {
      return null;
    }
    const invitedCode = new URLSearchParams(window.location.search).get(ROOM_PARAM);
    // the invite's own address, taken now: a refusal can come twice (the request and the
    // connection both report it), and by the second one the page is already the login page
    const invite = `${window.location.pathname}${window.location.search}`;
    let sentToSignIn = false;
    return createRoomClient({
      gameId,
      connect: () => openRoomsConnection(gameId),
      storage: window.sessionStorage,
      invitedCode,
      siteOrigin: window.location.origin,
      onSignInNeeded: () => {
        if (invitedCode && !sentToSignIn && useAuthStore.getState().user === null) {
          sentToSignIn = true;
          void navigate(withRedirect('/login', invite), { replace: true });
        }
      },
    });
    // navigate is stable for the page; the client lives as long as the game's frame
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [gameId, playUrl]);

  useEffect(() => {
    if (!client || !playUrl) {
      return undefined;
    }
    const frameOrigin = new URL(playUrl).origin;
    client.setFrameSender((event) => {
      const message: GameSdkRoomEventMessage = {
        protocol: GAME_SDK_PROTOCOL,
        kind: 'room-event',
        ...event,
      };
      frameRef.current?.contentWindow?.postMessage(message, frameOrigin);
    });
    if (client.getSnapshot().isActive) {
      // an invite link: learn at once whether this player may play rooms of this game
      void client.activate();
    }
    return () => client.close();
  }, [client, playUrl, frameRef]);
  return client;
}

const EMPTY: RoomSnapshot = {
  isActive: false,
  room: null,
  playerId: null,
  chat: [],
  chatStatus: 'allowed',
  notice: null,
};
const noSubscription = () => () => undefined;

/** The room client's snapshot, re-rendering on change. */
export function useRoomSnapshot(client: RoomClient | null): RoomSnapshot {
  return useSyncExternalStore(
    client ? client.subscribe : noSubscription,
    client ? client.getSnapshot : () => EMPTY,
  );
}
