import type { Profile } from '@portfolio/types';

import { formatDateTime, formatDuration } from '../../lib/format';

/** Usage Statistics: total time on the site and, per game played, playtime and achievements. */
export function UsageCard({ profile }: { profile: Profile }) {
  return (
    <section className="card profile-card" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage Statistics</h2>
      <dl className="details">
        <dt>Total Time</dt>
        <dd>{formatDuration(profile.total_time_spent)}</dd>
      </dl>
      <p className="muted" id="usage-explained">
        Total time counts every page of the site you had open; a game&apos;s playtime counts only
        the time spent playing it.
      </p>
      <h3 id="games-played-title">Games Played</h3>
      {profile.games.length === 0 ? (
        <p className="muted">No games played yet.</p>
      ) : (
        <ul className="game-usage" aria-labelledby="games-played-title">
          {profile.games.map((game) => {
            const achievements = profile.achievements.filter(
              (achievement) => achievement.game_id === game.game_id,
            );
            return (
              <li key={game.game_id} className="game-usage__item">
                <p className="game-usage__title">{game.game_name}</p>
                <p className="muted">
                  Playtime {formatDuration(game.playtime)}
                  {game.last_played ? ` · last played ${formatDateTime(game.last_played)}` : ''}
                </p>
                {achievements.length === 0 ? (
                  <p className="muted">No achievements yet.</p>
                ) : (
                  <ul
                    className="game-usage__achievements"
                    aria-label={`${game.game_name} achievements`}
                  >
                    {achievements.map((achievement) => (
                      <li key={achievement.achievement_name}>
                        {achievement.icon_url ? (
                          <img
                            className="achievement-icon"
                            src={achievement.icon_url}
                            alt=""
                            width={24}
                            height={24}
                          />
                        ) : null}
                        {achievement.achievement_name}
                        {achievement.points !== undefined
                          ? ` (${achievement.points} points)`
                          : ''}{' '}
                        <time className="muted" dateTime={achievement.unlocked_at}>
                          {formatDateTime(achievement.unlocked_at)}
                        </time>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
