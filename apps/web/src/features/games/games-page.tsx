import {
  decideGameAccess,
  findGame,
  GAME_CATALOGUE,
  type GameCatalogueEntry,
  type GameEngine,
  type Role,
} from '@portfolio/types';
import { type MouseEvent, useId, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';

import { useAuthStore } from '../auth/auth-store';
import { useGameServerStatus } from './game-status';
import { GameViewer } from './game-viewer';
import { trackGameClick } from './games-api';
import './games.css';

/** The query parameter naming the open game: /games?play=Pong. */
export const PLAY_PARAM = 'play';

const SECTIONS: { engine: GameEngine; title: string; note?: string }[] = [
  { engine: 'multiplayer', title: 'Multiplayer Browser Games' },
  { engine: 'gamemaker', title: 'Made With GameMaker', note: 'F10 toggles game fullscreen.' },
  { engine: 'godot', title: 'Made With Godot' },
];

const SERVER_TYPES = GAME_CATALOGUE.flatMap((game) => (game.serverType ? [game.serverType] : []));

/** State a card link leaves in history, so Close can go back instead of adding an entry. */
interface OpenedFromList {
  openedFromList: true;
}

/**
 * /games (spec section 2): three collapsible sections of game cards, or the viewer of the game
 * named in the URL. A permitted click records the click and opens the viewer; a blocked click
 * goes where the access rule says.
 */
export function GamesPage() {
  const user = useAuthStore((state) => state.user);
  const role = user?.role ?? null;
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const playing = findGame(searchParams.get(PLAY_PARAM) ?? '');

  if (playing) {
    const decision = decideGameAccess(playing, role);
    if (!decision.allowed) {
      return <Navigate to={decision.redirectTo} replace />;
    }
    const close = () => {
      if ((location.state as OpenedFromList | null)?.openedFromList) {
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
  return <GameList role={role} />;
}

function GameList({ role }: { role: Role | null }) {
  const online = useGameServerStatus(SERVER_TYPES);
  return (
    <section className="page games-page" aria-labelledby="games-title">
      <h1 id="games-title">Games</h1>
      <p className="lead">
        Browser games I made: play the multiplayer ones with other visitors, the rest on your own or
        with a friend on the same keyboard.
      </p>
      {SECTIONS.map((section) => (
        <GameSection
          key={section.engine}
          title={section.title}
          note={section.note}
          games={GAME_CATALOGUE.filter((game) => game.engine === section.engine)}
          role={role}
          online={online}
        />
      ))}
    </section>
  );
}

function GameSection(props: {
  title: string;
  note: string | undefined;
  games: GameCatalogueEntry[];
  role: Role | null;
  online: Record<string, boolean>;
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
            />
          ))}
        </ul>
      </div>
    </section>
  );
}

function GameCard(props: {
  game: GameCatalogueEntry;
  role: Role | null;
  isOnline: boolean | undefined;
}) {
  const { game } = props;
  const decision = decideGameAccess(game, props.role);
  const descriptionId = useId();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (decision.allowed && !event.defaultPrevented && event.button === 0) {
      trackGameClick(game.id);
    }
  };
  const to = decision.allowed
    ? `/games?${PLAY_PARAM}=${encodeURIComponent(game.id)}`
    : decision.redirectTo;
  return (
    <li className={`game-card${decision.allowed ? '' : ' game-card--locked'}`}>
      <Link
        className="game-card__link"
        to={to}
        state={decision.allowed ? ({ openedFromList: true } satisfies OpenedFromList) : undefined}
        onClick={onClick}
        aria-label={decision.allowed ? game.title : `${game.title}, ${decision.notice}`}
        aria-describedby={descriptionId}
      >
        <span className="game-card__media">
          <img
            className="game-card__thumbnail"
            src={game.thumbnail}
            alt=""
            width={320}
            height={180}
          />
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
