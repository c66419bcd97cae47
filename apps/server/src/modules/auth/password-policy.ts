import { dictionary } from '@zxcvbn-ts/language-common';

import { HttpError } from '../../lib/errors.js';

/**
 * The common-password list of zxcvbn-ts (~49,000 passwords seen in breaches, most common first),
 * kept to those the length rule allows at all: only they can reach this check.
 */
const COMMON = new Set(
  dictionary['passwords-common']
    .filter((password) => password.length >= 8)
    .map((password) => password.toLowerCase()),
);

export const COMMON_PASSWORD_MESSAGE =
  'This password is too common. Please choose one that is harder to guess.';
export const PASSWORD_IS_USERNAME_MESSAGE = 'Your password must not be your username.';

/**
 * Why a new password is refused, or undefined when it may be used. Checked only when a password
 * is set (registration, change, admin CLI), never at login: existing accounts keep working.
 * Case does not matter: 'PASSWORD1' is as common as 'password1'.
 */
export function passwordProblem(password: string, username: string): string | undefined {
  const lower = password.toLowerCase();
  if (lower.trim() === username.toLowerCase()) {
    return PASSWORD_IS_USERNAME_MESSAGE;
  }
  if (COMMON.has(lower)) {
    return COMMON_PASSWORD_MESSAGE;
  }
  return undefined;
}

/** Throws a 400 with the sentence the forms show when a new password is refused. */
export function assertAcceptablePassword(password: string, username: string): void {
  const problem = passwordProblem(password, username);
  if (problem) {
    throw new HttpError('WEAK_PASSWORD', problem);
  }
}
