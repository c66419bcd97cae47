/*
 * Focus goes back to the card that opened the viewer when it closes, also when the
 * viewer was a page load of its own (a game that needs isolation): the game's id waits here
 * until the list shows again.
 */
const RETURN_FOCUS_KEY = 'games:return-focus';

export function rememberCardToFocus(gameId: string): void {
  try {
    sessionStorage.setItem(RETURN_FOCUS_KEY, gameId);
  } catch {
    // storage refused (private mode): focus starts at the page's top instead
  }
}

/** The id of the game whose card should take focus, read once. */
export function takeCardToFocus(): string | null {
  try {
    const gameId = sessionStorage.getItem(RETURN_FOCUS_KEY);
    sessionStorage.removeItem(RETURN_FOCUS_KEY);
    return gameId;
  } catch {
    return null;
  }
}
