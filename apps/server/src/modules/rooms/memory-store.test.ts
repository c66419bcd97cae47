import { createMemoryRoomStore } from './memory-store.js';
import { describeRoomServiceContract } from './room-service.contract.js';

describeRoomServiceContract('memory', () => createMemoryRoomStore());
