import { EventEmitter } from 'node:events';

import type { Role } from '@portfolio/types';

/** Domain events one module raises and others (analytics, realtime) react to. */
export interface DomainEvents {
  'user:registered': [{ userId: string; at: Date }];
  'user:deleted': [{ userId: string }];
  'user:logged-out': [{ userId: string }];
  'user:role-changed': [{ userId: string; role: Role }];
}

export type DomainEventBus = EventEmitter<DomainEvents>;

export function createDomainEventBus(): DomainEventBus {
  return new EventEmitter<DomainEvents>();
}
