import { decideGameAccess, type Role } from '@portfolio/types';
import type { GameEntry, GameSection as Section } from '@portfolio/types/game-host';
import { type MouseEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';

import { ErrorAlert } from '../../ui/error-alert';
import { useAuthStore } from '../auth';
import { sendBeacon } from '../presence';
import { useGameServerStatus } from './game-status';
import { rememberCardToFocus, takeCardToFocus } from './card-focus';
import { GameViewer, KEYBOARD_ONLY_NOTICE } from './game-viewer';
import { trackGameClick } from './games-api';
import { useGamesCatalogue } from './games-catalogue';
import { GuestProgressOffer } from './guest-progress-offer';
import {
  hasIsolatedParam,
  isDocumentIsolated,
  playPath,
  rememberOpenedFromList,
  takeOpenedFromList,
} from './isolation';
import { useIsTouchScreen } from './touch-screen';
import './games.css';

/** The query parameter naming the open game: /games?play=Pong. */
export const PLAY_PARAM = 'play';

export const GAMES_LOAD_ERROR = 'Failed to load the games';

/**
 * The spec's three sections, always shown, and "Other HTML5 Games" when it has games. A note for
 * keyboards only (F10) is not shown on touch screens.
 */
const SECTIONS: {
  section: Section;
  title: string;
  note?: string;
  isNoteForKeyboards?: true;
  isOptional?: true;
}[] = [
  { section: 'multiplayer', title: 'Multiplayer Browser Games' },
  {
    section: 'gamemaker',
    title: 'Made With GameMaker',
    note: 'F10 toggles game fullscreen.',
    isNoteForKeyboards: true,
  },
  { section: 'godot', title: 'Made With Godot' },
  { section: 'html5', title: 'Other HTML5 Games', isOptional: true },
];

/** State a card link leaves in history, so Close can go back instead of adding an entry. */
interface OpenedFromList {
  openedFromList: true;
}

/**
 * /games (spec section 2): collapsible sections of game cards read from GET /api/games, or the
 * viewer of the game named in the URL. A permitted click records the click and opens the viewer;
 * a blocked click goes where the access rule says.
 */
export function GamesPage() {
  const user = useAuthStore((state) => state.user);
  const role = user?.role ?? null;
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const playId = searchParams.get(PLAY_PARAM);
  const catalogue = useGamesCatalogue(user ? `${user.id}:${user.role}` : '', playId);
  useLeaveIsolatedDocument(location.search);

  if (catalogue.kind !== 'loaded') {
    return (
      <GamesFrame>
        {catalogue.kind === 'loading' ? (
          // a screen's height while the list loads: the footer then never jumps in view
          <p className="muted games-loading">Loading...</p>
        ) : (
          <FailedToLoad />
        )}
      </GamesFrame>
    );
  }
  const playing = catalogue.games.find((game) => game.id === playId);
  if (playing) {
    const decision = decideGameAccess(playing, role);
    if (!decision.allowed) {
      return <Navigate to={decision.redirectTo} replace />;
    }
    const close = () => {
      rememberCardToFocus(playing.id);
      const here = `${location.pathname}${location.search}`;
      if ((location.state as OpenedFromList | null)?.openedFromList || takeOpenedFromList(here)) {
        void navigate(-1);
      } else {
        void navigate('/games', { replace: true });
      }
    };
    return (
      <div className="page games-page">
        <GameViewer key={playing.id} game={playing} onClose={close} />
      </div>
    );
  }
  return (
    <GamesFrame>
      {role === null || role === 'user' ? (
        <p className="games-page__subscribe">
          Some games are for subscribers only:{' '}
          <Link to="/subscribe">subscribe for $10.00 / quarter</Link> to play them.
        </p>
      ) : null}
      {playId ? (
        // a deep link to a game that is not (or no longer) on the site: say so above the list
        <p className="notice" role="status">
          There is no published game called “{playId}”. Here are the games you can play.
        </p>
      ) : null}
      <GuestProgressOffer
        titleOf={(gameId) => catalogue.games.find((game) => game.id === gameId)?.title ?? gameId}
      />
      <GameList games={catalogue.games} role={role} />
    </GamesFrame>
  );
}

/**
 * An isolated document (opened for a game that needs threads) shows only that game: when the
 * address moves on (Close, a link in the top bar), the next page is loaded as a document of its
 * own, without the isolating headers that would keep other sites' images and frames out.
 */
function useLeaveIsolatedDocument(search: string) {
  useEffect(() => {
    const leaveIfMovedOn = () => {
      if (isDocumentIsolated() && !hasIsolatedParam(window.location.search)) {
        window.location.reload();
      }
    };
    leaveIfMovedOn();
    // on unmount the address is already the next page's
    return leaveIfMovedOn;
  }, [search]);
}

function GamesFrame({ children }: { children: ReactNode }) {
  return (
    <section className="page games-page" aria-labelledby="games-title">
      <h1 id="games-title">Games</h1>
      <p className="lead">
        Browser games I made: play the multiplayer ones with other visitors, the rest on your own or
        with a friend on the same keyboard.
      </p>
      {children}
    </section>
  );
}

function FailedToLoad() {
  const [isOpen, setOpen] = useState(true);
  return isOpen ? <ErrorAlert message={GAMES_LOAD_ERROR} onClose={() => setOpen(false)} /> : null;
}

function GameList({ games, role }: { games: GameEntry[]; role: Role | null }) {
  const serverTypes = [...new Set(games.flatMap((game) => game.serverType ?? []))];
  const online = useGameServerStatus(serverTypes);
  const isTouchScreen = useIsTouchScreen();
  // back from the viewer: focus (and the screen) on the card that opened it
  useEffect(() => {
    const gameId = takeCardToFocus();
    const card = gameId
      ? document.querySelector<HTMLElement>(`[data-game-card="${gameId}"]`)
      : null;
    card?.focus();
  }, []);
  return (
    <>
      {SECTIONS.map((section) => {
        const inSection = games.filter((game) => game.section === section.section);
        if (section.isOptional && inSection.length === 0) {
          return null;
        }
        return (
          <GameSection
            key={section.section}
            title={section.title}
            note={section.isNoteForKeyboards && isTouchScreen ? undefined : section.note}
            games={inSection}
            role={role}
            online={online}
            isTouchScreen={isTouchScreen}
          />
        );
      })}
    </>
  );
}

function GameSection(props: {
  title: string;
  note: string | undefined;
  games: GameEntry[];
  role: Role | null;
  online: Record<string, boolean>;
  isTouchScreen: boolean;
}) {
  const [isOpen, setOpen] = useState(true);
  const contentId = useId();
  return (
    <section className="games-section">
      <h2 className="games-section__heading">
        <button
          type="button"
          className="games-section__toggle"
          aria-expanded={isOpen}
          aria-controls={contentId}
          onClick={() => setOpen((open) => !open)}
        >
          <span className="games-section__chevron" aria-hidden="true">
            {isOpen ? '▾' : '▸'}
          </span>
          {props.title}
        </button>
      </h2>
      <div id={contentId} hidden={!isOpen}>
        {props.note && <p className="games-section__note">{props.note}</p>}
        <ul className="games-grid">
          {props.games.map((game) => (
            <GameCard
              key={game.id}
              game={game}
              role={props.role}
              isOnline={game.serverType ? props.online[game.serverType] : undefined}
              isTouchScreen={props.isTouchScreen}
            />
          ))}
        </ul>
      </div>
    </section>
  );
}

function GameCard(props: {
  game: GameEntry;
  role: Role | null;
  isOnline: boolean | undefined;
  isTouchScreen: boolean;
}) {
  const { game } = props;
  const decision = decideGameAccess(game, props.role);
  const descriptionId = useId();
  const keyboardNoteId = useId();
  const isKeyboardOnlyHere = props.isTouchScreen && game.touch === 'keyboard-only';
  const path = playPath(game.id, game.needsIsolation);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!event.defaultPrevented && event.button === 0) {
      if (decision.allowed) {
        trackGameClick(game.id);
        if (game.needsIsolation) {
          rememberOpenedFromList(path);
        }
      } else {
        // 'Login to Play' / 'Subscribe to Play': what the site's locks cost (site analytics)
        sendBeacon({ type: 'locked', gameId: game.id });
      }
    }
  };
  const to = decision.allowed ? path : decision.redirectTo;
  return (
    <li className={`game-card${decision.allowed ? '' : ' game-card--locked'}`}>
      <Link
        className="game-card__link"
        to={to}
        // a game that needs isolation opens as a page load the server isolates
        reloadDocument={decision.allowed && game.needsIsolation}
        state={decision.allowed ? ({ openedFromList: true } satisfies OpenedFromList) : undefined}
        onClick={onClick}
        aria-label={decision.allowed ? game.title : `${game.title}, ${decision.notice}`}
        aria-describedby={isKeyboardOnlyHere ? `${descriptionId} ${keyboardNoteId}` : descriptionId}
        data-game-card={game.id}
      >
        <span className="game-card__media">
          {game.thumbnail ? (
            <img
              className="game-card__thumbnail"
              src={game.thumbnail}
              alt=""
              width={320}
              height={180}
            />
          ) : (
            // a game added without a thumbnail yet: a panel of the card's size, no broken image
            <span className="game-card__thumbnail game-card__thumbnail--none" aria-hidden="true">
              {game.title.slice(0, 1)}
            </span>
          )}
          {!decision.allowed && (
            <span className="game-card__lock">
              <LockIcon />
              {decision.notice}
            </span>
          )}
        </span>
        <span className="game-card__title">{game.title}</span>
      </Link>
      <p id={descriptionId} className="game-card__description">
        {game.description}
      </p>
      {isKeyboardOnlyHere && (
        <p id={keyboardNoteId} className="game-card__keyboard-only">
          <KeyboardIcon />
          {KEYBOARD_ONLY_NOTICE}
        </p>
      )}
      {props.isOnline !== undefined && (
        <p
          className={`game-card__status game-card__status--${props.isOnline ? 'online' : 'offline'}`}
        >
          <span className="game-card__status-dot" aria-hidden="true" />
          {props.isOnline ? 'Online' : 'Offline'}
        </p>
      )}
    </li>
  );
}

function KeyboardIcon() {
  return (
    <svg
      className="game-card__keyboard-icon"
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <rect
        x="2"
        y="6"
        width="20"
        height="12"
        rx="2"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      />
      <path
        d="M6 10h1M10 10h1M14 10h1M18 10h0M7 14h10"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** Drawn rather than the 🔒 emoji, which shows as an empty box where no emoji font is installed. */
function LockIcon() {
  return (
    <svg className="game-card__lock-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M7 10V7a5 5 0 0 1 10 0v3"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.4"
        strokeLinecap="round"
      />
      <rect x="4" y="10" width="16" height="12" rx="2.5" fill="currentColor" />
    </svg>
  );
}
