// What other modules may use of this one (they import nothing else from its folder).
export type { MailQueue } from './queue.js';
export {
  emailChangedMail,
  emailConfirmMail,
  passwordChangedMail,
  passwordResetMail,
  registrationAttemptMail,
} from './templates.js';
