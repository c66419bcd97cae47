import { createMemoryPresenceStore } from './memory-store.js';
import { describePresenceStoreContract } from './presence-store.contract.js';

describePresenceStoreContract('memory', () => createMemoryPresenceStore());
