import { useCallback, useEffect, useId, useRef, useState } from 'react';

import {
  type CatalogueAchievement,
  formatShare,
  GameAchievementsResponse,
} from '@portfolio/types/achievements';

import { http } from '../../lib/http';
import { useResource, warnOnFailure } from '../../ui/use-resource';
import { useAuthStore } from '../auth';

/** How long the unlock toast stays. */
const TOAST_MS = 6000;

const catalogueOf = (gameId: string, signal: AbortSignal) =>
  http.get(
    `/api/games/${encodeURIComponent(gameId)}/achievements`,
    GameAchievementsResponse,
    signal,
  );

/**
 * A game's achievement catalogue under its frame: each achievement with its icon, points and the
 * share of players who have it, marked when the player has it; hidden ones stay nameless until
 * unlocked. Read again when the game unlocks one (`version`); a newly unlocked one is announced
 * in a toast. Shown only when the game has a catalogue.
 */
export function AchievementsPanel({ gameId, version }: { gameId: string; version: number }) {
  const user = useAuthStore((state) => state.user);
  const [toast, setToast] = useState<CatalogueAchievement | null>(null);
  const known = useRef<Set<string> | null>(null);
  const headingId = useId();

  const load = useCallback(
    async (signal: AbortSignal) => {
      const answer = await warnOnFailure(
        catalogueOf(gameId, signal),
        'Could not read the achievements',
        signal,
      );
      if (!signal.aborted) {
        const unlocked = answer.achievements.filter((entry) => entry.unlockedAt && entry.key);
        const before = known.current;
        const fresh = before ? unlocked.find((entry) => !before.has(entry.key ?? '')) : undefined;
        known.current = new Set(unlocked.map((entry) => entry.key ?? ''));
        if (fresh) {
          setToast(fresh);
        }
      }
      return answer.achievements;
    },
    [gameId],
  );
  // read again for another player and after each unlock; the list stays meanwhile (and when a
  // read fails: the panel is an extra)
  const achievements =
    useResource(load, 'Could not read the achievements', {
      reloadKey: `${version} ${user?.id ?? ''}`,
      isKeptWhileLoading: true,
    }).data ?? [];

  useEffect(() => {
    if (!toast) {
      return undefined;
    }
    const timer = setTimeout(() => setToast(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  if (achievements.length === 0) {
    return null;
  }
  const have = achievements.filter((entry) => entry.unlockedAt).length;
  const points = achievements
    .filter((entry) => entry.unlockedAt)
    .reduce((sum, entry) => sum + entry.points, 0);

  return (
    <section className="achievements-panel" aria-labelledby={headingId}>
      <div className="achievement-toast" role="status">
        {toast ? (
          <p className="achievement-toast__box">
            {toast.iconUrl ? <img src={toast.iconUrl} alt="" width={32} height={32} /> : null}
            <span>{`Achievement unlocked: ${toast.name} (${toast.points} points)`}</span>
          </p>
        ) : null}
      </div>
      <h2 id={headingId}>Achievements</h2>
      {user ? (
        <p className="achievements-panel__summary">
          {`${have} of ${achievements.length} unlocked, ${points} points`}
        </p>
      ) : (
        <p className="achievements-panel__summary">Log in to keep what you unlock.</p>
      )}
      <ul className="achievements-panel__list">
        {achievements.map((entry, index) => (
          <li
            key={entry.key ?? `hidden-${index}`}
            className={`achievements-panel__item${entry.unlockedAt ? ' achievements-panel__item--have' : ''}`}
          >
            {entry.iconUrl ? (
              <img src={entry.iconUrl} alt="" width={40} height={40} loading="lazy" />
            ) : (
              <span className="achievements-panel__no-icon" aria-hidden="true">
                ★
              </span>
            )}
            <div>
              <p className="achievements-panel__name">
                {entry.name}
                {entry.unlockedAt ? (
                  <span className="achievements-panel__badge">Unlocked</span>
                ) : null}
              </p>
              {entry.description ? (
                <p className="achievements-panel__description">{entry.description}</p>
              ) : null}
              <p className="achievements-panel__meta">
                {`${entry.points} points · ${formatShare(entry.share)} of players`}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
