import { useId, useState } from 'react';

import { useAuthStore } from '../auth';
import { loadSaveOf, saveGame, submitScore, unlockAchievement } from './games-api';
import {
  clearGuestProgress,
  gamesWithGuestProgress,
  type GuestProgress,
  readGuestProgress,
} from './guest-progress';

/** A slot both this browser and the account hold a save of: the player picks which stays. */
interface Conflict {
  slot: string;
  guestAt: string;
  accountAt: string;
}

/**
 * Writes what the player chose, each with the time it happened here (the unlock's, the save's,
 * the score's), not the time it is kept; achievements and scores the server refuses are skipped.
 */
async function carryProgressOver(
  gameId: string,
  progress: GuestProgress,
  keepGuest: (slot: string) => boolean,
) {
  for (const [slot, save] of Object.entries(progress.saves)) {
    if (keepGuest(slot)) {
      await saveGame(gameId, save.data, Number(slot), validTime(save.updatedAt));
    }
  }
  for (const [key, unlockedAt] of Object.entries(progress.achievements)) {
    await unlockAchievement(gameId, key, validTime(unlockedAt)).catch((failure: unknown) => {
      console.warn(`Achievement ${key} was not carried over`, failure);
    });
  }
  for (const [board, score] of Object.entries(progress.scores)) {
    const achievedAt = validTime(score.achievedAt);
    await submitScore(gameId, {
      board,
      value: score.value,
      ...(achievedAt ? { achievedAt } : {}),
    }).catch((failure: unknown) => {
      console.warn(`The score on ${board} was not carried over`, failure);
    });
  }
}

/** A time this browser stored, as the API takes it; none (the time of keeping) if unreadable. */
function validTime(value: unknown): string | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

const formatTime = (iso: string) => new Date(iso).toLocaleString();

/**
 * What this browser earned as a guest, offered to the account it signed in to: per game, its
 * saves, achievements and best scores are carried over when the player says so. Where the account
 * already has a save in the same slot (another device), the player is asked which to keep, the
 * newer chosen by default; nothing is overwritten without that answer.
 */
export function GuestProgressOffer({ titleOf }: { titleOf: (gameId: string) => string }) {
  const user = useAuthStore((state) => state.user);
  const [gameIds, setGameIds] = useState(() => gamesWithGuestProgress());
  const [done, setDone] = useState<string | null>(null);
  if (!user || (gameIds.length === 0 && !done)) {
    return null;
  }
  const finish = (gameId: string, message: string) => {
    clearGuestProgress(gameId);
    setGameIds(gamesWithGuestProgress());
    setDone(message);
  };
  return (
    <section className="guest-offer" aria-labelledby="guest-offer-title">
      <h2 id="guest-offer-title">Progress from playing as a guest</h2>
      <p role="status">{done}</p>
      {gameIds.map((gameId) => (
        <GameOffer key={gameId} gameId={gameId} title={titleOf(gameId)} onFinished={finish} />
      ))}
    </section>
  );
}

function GameOffer({
  gameId,
  title,
  onFinished,
}: {
  gameId: string;
  title: string;
  onFinished: (gameId: string, message: string) => void;
}) {
  const [progress] = useState<GuestProgress>(() => readGuestProgress(gameId));
  const [conflicts, setConflicts] = useState<Conflict[] | null>(null);
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const saves = Object.keys(progress.saves).length;
  const achievements = Object.keys(progress.achievements).length;
  const scores = Object.keys(progress.scores).length;

  const carryOver = async (keepGuest: (slot: string) => boolean) => {
    await carryProgressOver(gameId, progress, keepGuest);
    onFinished(gameId, `Your progress in ${title} is now in your account.`);
  };

  const handleKeep = async () => {
    setBusy(true);
    setError(null);
    try {
      const found: Conflict[] = [];
      for (const [slot, save] of Object.entries(progress.saves)) {
        const account = await loadSaveOf(gameId, Number(slot));
        if (account.updatedAt) {
          found.push({ slot, guestAt: save.updatedAt, accountAt: account.updatedAt });
        }
      }
      if (found.length === 0) {
        await carryOver(() => true);
        return;
      }
      // the newer save is the default answer; the player confirms or changes it
      setChoices(
        Object.fromEntries(
          found.map((conflict) => [
            conflict.slot,
            conflict.guestAt > conflict.accountAt ? 'guest' : 'account',
          ]),
        ),
      );
      setConflicts(found);
    } catch (failure) {
      console.warn('Carrying the guest progress over failed', failure);
      setError('Your progress could not be carried over. Try again.');
    } finally {
      setBusy(false);
    }
  };

  const handleResolve = async () => {
    setBusy(true);
    setError(null);
    try {
      const conflicting = new Set(conflicts?.map((conflict) => conflict.slot));
      await carryOver((slot) => !conflicting.has(slot) || choices[slot] === 'guest');
    } catch (failure) {
      console.warn('Carrying the guest progress over failed', failure);
      setError('Your progress could not be carried over. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="guest-offer__game">
      <h3>{title}</h3>
      <p>
        {`While playing as a guest, this browser kept ${saves} ${saves === 1 ? 'save' : 'saves'}, ${achievements} ${
          achievements === 1 ? 'achievement' : 'achievements'
        } and ${scores} best ${scores === 1 ? 'score' : 'scores'}.`}
      </p>
      {conflicts ? (
        <ConflictChoices
          conflicts={conflicts}
          choices={choices}
          isBusy={isBusy}
          onChoose={(slot, choice) => setChoices((current) => ({ ...current, [slot]: choice }))}
          onSubmit={() => void handleResolve()}
        />
      ) : (
        <div className="guest-offer__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={isBusy}
            onClick={() => void handleKeep()}
          >
            {`Keep it in my account`}
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={isBusy}
            onClick={() => onFinished(gameId, `Your guest progress in ${title} was discarded.`)}
          >
            Discard
          </button>
        </div>
      )}
      <div role="alert">{error ? <p className="alert alert--error">{error}</p> : null}</div>
    </div>
  );
}

type Choice = 'guest' | 'account';

interface ConflictChoicesProps {
  conflicts: readonly Conflict[];
  choices: Readonly<Record<string, Choice>>;
  isBusy: boolean;
  onChoose: (slot: string, choice: Choice) => void;
  onSubmit: () => void;
}

/** Per slot both hold a save of, which to keep (the newer one said so), then Continue. */
function ConflictChoices({ conflicts, choices, isBusy, onChoose, onSubmit }: ConflictChoicesProps) {
  const groupId = useId();
  return (
    <form
      className="guest-offer__conflicts"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <p>Your account already has a save here from another device. Which one do you keep?</p>
      {conflicts.map((conflict) => {
        const isGuestNewer = conflict.guestAt > conflict.accountAt;
        return (
          <fieldset key={conflict.slot}>
            <legend>{`Save slot ${conflict.slot}`}</legend>
            <label>
              <input
                type="radio"
                name={`${groupId}-${conflict.slot}`}
                checked={choices[conflict.slot] === 'guest'}
                onChange={() => onChoose(conflict.slot, 'guest')}
              />
              {` This browser’s save (${formatTime(conflict.guestAt)})${isGuestNewer ? ', newer' : ''}`}
            </label>
            <label>
              <input
                type="radio"
                name={`${groupId}-${conflict.slot}`}
                checked={choices[conflict.slot] === 'account'}
                onChange={() => onChoose(conflict.slot, 'account')}
              />
              {` Your account’s save (${formatTime(conflict.accountAt)})${isGuestNewer ? '' : ', newer'}`}
            </label>
          </fieldset>
        );
      })}
      <button type="submit" className="button button--primary" disabled={isBusy}>
        Continue
      </button>
    </form>
  );
}
