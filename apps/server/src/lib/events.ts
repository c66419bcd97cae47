import { EventEmitter } from 'node:events';

import type { Role } from '@portfolio/types';

/** Domain events one module raises and others (analytics, realtime) react to. */
export interface DomainEvents {
  'user:registered': [{ userId: string; at: Date }];
  /**
   * A registration gave an email another account uses: the account was made without it, and the
   * address's owner is told (the answer itself must not say the address has an account).
   */
  'user:registration-email-taken': [{ email: string }];
  'user:deleted': [{ userId: string }];
  'user:logged-out': [{ userId: string }];
  'user:role-changed': [{ userId: string; role: Role }];
}

export type DomainEventBus = EventEmitter<DomainEvents>;

export function createDomainEventBus(): DomainEventBus {
  return new EventEmitter<DomainEvents>();
}
