// What other modules may use of this one (they import nothing else from its folder).
export type { RoomService } from './service.js';
export type { RoomMember, RoomsEmitter, RoomIdentity, RoomGame } from './context.js';
export type { Entered } from './commands/enter.js';
