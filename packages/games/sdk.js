/*
 * The game SDK, served by the games origin at /sdk.js. A game page includes
 * <script src="/sdk.js"></script> and gets window.GameSDK:
 *
 *   GameSDK.start(): void                      begins a play session; pings every 30 s, ends on pagehide
 *   GameSDK.save(data: unknown, { slot }?): Promise<void>    slot 0…9 (0 by default: the one save
 *                                              games had before slots)
 *   GameSDK.load({ slot }?): Promise<unknown | null>
 *   GameSDK.slots(): Promise<Array<{ slot, updatedAt }>>  the slots that hold a save
 *   GameSDK.unlock(key: string): Promise<void>  an achievement the admin defined (a game without
 *                                              a catalogue may still unlock any name)
 *   GameSDK.submitScore(board, value): Promise<{ board, value, isBest, best } | { error } | null>
 *                                              the player's score on a leaderboard; the best per
 *                                              player is kept (a refusal: { error: { code,
 *                                              message } }, e.g. SCORE_OUT_OF_RANGE, RATE_LIMITED)
 *   GameSDK.leaderboard(board, { period, around, limit }?): Promise<LeaderboardResponse | null>
 *                                              period 'day' | 'week' | 'month' | 'all' (UTC
 *                                              calendar), around 'top' | 'me', limit 1…100
 *
 * A guest's saves, achievements and best scores are kept by the site in the browser and offered
 * to the account when that browser signs in or registers.
 *   GameSDK.playTicket(): Promise<{ ticket, siteOrigin, expiresAt } | null>
 *                                              a short-lived ticket to join the open multiplayer
 *                                              game's server (null for guests)
 *   GameSDK.connect(namespace, { room }?): Promise<Socket>
 *                                              loads Socket.IO from the site and joins `namespace`
 *                                              (e.g. '/play/RocketGame') with a fresh ticket on
 *                                              every (re)connection; rejects like a Socket.IO
 *                                              connect_error ({ data: { code, message } });
 *                                              `room`: a room code of GameSDK.rooms, for the
 *                                              demo games' servers (that room's own game)
 *   GameSDK.connectionMessage(problem, title): string
 *                                              what to tell the player, as HTML, when connect()
 *                                              or the socket fails (`problem`: the connect_error)
 *                                              or the socket drops (`problem`: the reason)
 *   GameSDK.hostOrigin: string | null          the site's origin when embedded by it
 *   GameSDK.playRooms(namespace, { title, button, onConnecting, onSocket, onProblem })
 *                                              a game server's rooms (the demo games' way): joins
 *                                              `namespace` in the invite link's room (through
 *                                              GameSDK.rooms), else in the open room; `button`
 *                                              (shown only when embedded) makes a private room
 *                                              and moves there. onConnecting() before each
 *                                              connection, onSocket(socket) for each new one,
 *                                              onProblem(html) for a refusal or a failed connect
 *                                              (connectionMessage with `title`)
 *
 * Rooms: play together by invite link, through the site (no game server of your own). The site
 * relays messages and state between the players of a room and never reads them. Every promise
 * resolves (none rejects); a refusal resolves { error: { code, message } } (ROOM_FULL,
 * ROOM_NOT_FOUND, ROOM_CLOSED, ROOMS_SIGN_IN, ROOM_SPECTATOR, NOT_IN_ROOM, RATE_LIMITED,
 * ROOM_MESSAGE_TOO_LARGE, …; SERVICE_UNAVAILABLE when the page is not embedded by the site or
 * the site does not answer). The site shows the player the room's code, invite link, lobby and
 * chat.
 *   GameSDK.rooms.create({ private, maxPlayers }?): Promise<{ code, inviteUrl } | { error }>
 *                                              a new room with this player in it (as its host)
 *   GameSDK.rooms.join(code): Promise<{ code, players } | { error }>
 *   GameSDK.rooms.quickJoin(): Promise<{ code, players } | { error }>   a public room with a
 *                                              free seat, or a new public one
 *   GameSDK.rooms.spectate(code): Promise<{ code, players } | { error }>  watch: every message
 *                                              and the state, no seat; anything sent is refused
 *   GameSDK.rooms.leave(): Promise<true | { error }>
 *   GameSDK.rooms.invited(): Promise<string | null>  the room code of the invite link the player
 *                                              opened (the game decides whether to join it)
 *   GameSDK.rooms.players(): Array<{ id, name, isHost, isSpectator }>   (sync) who is in the room
 *   GameSDK.rooms.me(): string | null          this player's id in the room (kept across a
 *                                              reconnect), null outside a room
 *   GameSDK.rooms.code(): string | null        the room's code, null outside a room
 *   GameSDK.rooms.send(type, data, { to }?): Promise<true | { error }>  a message to everyone
 *                                              else in the room, or to one player id; `type`
 *                                              is 1–64 of A-Z a-z 0-9 _ . : - and not one of
 *                                              join, leave, host, state, closed, chat; `data`
 *                                              JSON up to 16 KB; about 30 a second
 *   GameSDK.rooms.on(type, fn): () => void     listen (returns unsubscribe): a message type gets
 *                                              fn(data, fromPlayerId); 'join', 'leave', 'host',
 *                                              'away' (dropped, seat held) and 'back' get
 *                                              fn(player); 'state' gets fn(key, value, byId);
 *                                              'room' gets fn({ code, players }) after entering
 *                                              and after a reconnect (null when out);
 *                                              'closed' gets fn({ reason })
 *   GameSDK.rooms.setState(key, value): Promise<true | { error }>   shared by the room
 *   GameSDK.rooms.getState(key): unknown       (sync) the room's value, undefined when unset
 *   GameSDK.rooms.compareAndSet(key, expected, value): Promise<boolean>
 *                                              sets only if the key holds `expected` now (null:
 *                                              unset), so two players cannot both take the last
 *                                              item; false when it did not (or was refused)
 *
 * A subscriber game's address carries a grant (/g/<grant>/…) good for minutes: the viewer sends
 * a fresh one every minute and the SDK puts it into this page's address (no reload), so the
 * game's later relative requests keep working while the viewer is open.
 *
 * The SDK never calls the site's API itself (this origin has no session): it posts messages to
 * the page that embeds it (the site's game viewer), which knows which game is open and records it
 * for a signed-in player. Messages go only to the parent window, addressed to the embedder's
 * origin (location.ancestorOrigins, else document.referrer's origin: only the site may embed this
 * origin's pages, by its frame-ancestors policy), and only messages from that window and origin
 * are read. Every promise but connect's resolves quietly (nothing / null) for guests, when the page
 * is not embedded, or when the host does not answer; nothing here throws into the game.
 */
(function () {
  'use strict';

  var PING_INTERVAL_MS = 30000;
  var ANSWER_TIMEOUT_MS = 10000;
  var PROTOCOL = 'portfolio-game-sdk';
  var MAX_SLOTS = 10;

  function originOf(url) {
    try {
      var origin = new URL(url).origin;
      return origin && origin !== 'null' ? origin : null;
    } catch (_error) {
      return null;
    }
  }

  /** The origin of the page that embeds this one, or null when it is not embedded. */
  function embedderOrigin() {
    if (window.parent === window) {
      return null;
    }
    var ancestors = window.location.ancestorOrigins;
    if (ancestors && ancestors.length > 0) {
      return originOf(ancestors[0]);
    }
    // browsers without ancestorOrigins: the viewer's frame sends its origin as the referrer
    return document.referrer ? originOf(document.referrer) : null;
  }

  var hostOrigin = embedderOrigin();
  var host = hostOrigin ? window.parent : null;

  /**
   * A subscriber game's address holds a grant (/g/<grant>/<game>/<version>/…) that opens pages
   * for minutes only. The viewer sends a fresh one every minute; it replaces the one in this
   * page's address without a reload, so the game's later relative requests (and a reload of its
   * own) carry a grant that is still good.
   */
  function renewGrant(grant) {
    if (typeof grant !== 'string' || !/^[0-9a-z]{1,11}\.[\w-]{1,64}$/.test(grant)) {
      return;
    }
    var path = window.location.pathname;
    var match = /^\/g\/[^/]+\//.exec(path);
    if (!match) {
      return;
    }
    try {
      var renewed = '/g/' + grant + '/' + path.slice(match[0].length);
      window.history.replaceState(
        window.history.state,
        '',
        renewed + window.location.search + window.location.hash,
      );
    } catch (_error) {
      // a sandboxed or detached document: keep the address it has
    }
  }

  /** A save slot from `{ slot }` (0, the one save games had before slots, by default). */
  function slotOf(options) {
    var slot = options && options.slot;
    return typeof slot === 'number' && slot >= 0 && slot < MAX_SLOTS && Math.floor(slot) === slot
      ? slot
      : 0;
  }

  var nextId = 1;
  var pending = {};

  window.addEventListener('message', function (event) {
    if (!host || event.source !== host || event.origin !== hostOrigin) {
      return;
    }
    var message = event.data;
    if (message && message.protocol === PROTOCOL && message.kind === 'grant') {
      renewGrant(message.grant);
      return;
    }
    if (message && message.protocol === PROTOCOL && message.kind === 'room-event') {
      onRoomEvent(String(message.event), message.payload || {});
      return;
    }
    if (!message || message.protocol !== PROTOCOL || message.kind !== 'answer') {
      return;
    }
    var settle = pending[message.id];
    if (settle) {
      delete pending[message.id];
      settle(message.ok, message.result);
    }
  });

  /**
   * Sends one request to the host; resolves with its result, or undefined on any failure (with
   * `detailed`, a refusal resolves with `{ error: { code, message } }` when the host says why).
   */
  function ask(type, payload, detailed) {
    return new Promise(function (resolve) {
      if (!host) {
        resolve(undefined);
        return;
      }
      var id = nextId++;
      var timer = setTimeout(function () {
        delete pending[id];
        resolve(undefined);
      }, ANSWER_TIMEOUT_MS);
      pending[id] = function (ok, result) {
        clearTimeout(timer);
        if (ok) {
          resolve(result);
          return;
        }
        var error = result && result.error;
        resolve(
          detailed && error && typeof error.code === 'string'
            ? { error: { code: error.code, message: String(error.message) } }
            : undefined,
        );
      };
      try {
        host.postMessage(
          { protocol: PROTOCOL, kind: 'request', id: id, type: type, payload: payload },
          hostOrigin,
        );
      } catch (_error) {
        // data that cannot be cloned, or a host that went away
        clearTimeout(timer);
        delete pending[id];
        resolve(undefined);
      }
    });
  }

  var pingTimer = null;

  function session(action) {
    return ask('session', { action: action });
  }

  function stopPinging() {
    if (pingTimer !== null) {
      clearInterval(pingTimer);
      pingTimer = null;
    }
  }

  function start() {
    if (!host || pingTimer !== null) {
      return;
    }
    void session('start');
    pingTimer = setInterval(function () {
      void session('ping');
    }, PING_INTERVAL_MS);
  }

  var wasStarted = false;
  window.addEventListener('pagehide', function () {
    if (pingTimer !== null) {
      wasStarted = true;
      stopPinging();
      void session('end');
    }
  });
  window.addEventListener('pageshow', function (event) {
    // back from the back/forward cache: carry on where the session ended
    if (event.persisted && wasStarted) {
      wasStarted = false;
      start();
    }
  });

  function playTicket() {
    return ask('ticket', {}).then(function (result) {
      if (
        !result ||
        typeof result.ticket !== 'string' ||
        typeof result.siteOrigin !== 'string' ||
        !originOf(result.siteOrigin)
      ) {
        return null;
      }
      return {
        ticket: result.ticket,
        siteOrigin: originOf(result.siteOrigin),
        expiresAt: String(result.expiresAt),
      };
    });
  }

  /** An error shaped like Socket.IO's connect_error for a refused handshake. */
  function refusal(code, message) {
    var error = new Error(message);
    error.data = { code: code, message: message };
    return error;
  }

  var loadingClient = null;

  /** Loads the Socket.IO client from `origin` once (the site serves it beside its server). */
  function loadSocketClient(origin) {
    if (typeof window.io === 'function') {
      return Promise.resolve();
    }
    loadingClient =
      loadingClient ||
      new Promise(function (resolve, reject) {
        var script = document.createElement('script');
        script.src = origin + '/socket.io/socket.io.js';
        script.onload = function () {
          resolve();
        };
        script.onerror = function () {
          loadingClient = null;
          reject(refusal('UNREACHABLE', 'The game server is not reachable.'));
        };
        document.head.appendChild(script);
      });
    return loadingClient;
  }

  function connect(namespace, options) {
    // a private room of the room service (GameSDK.rooms): the demo games' servers put the player
    // in that room's own instance
    var room = options && typeof options.room === 'string' ? options.room : undefined;
    function withRoom(auth) {
      if (room !== undefined) {
        auth.room = room;
      }
      return auth;
    }
    if (!host) {
      // not embedded: a page the site serves itself, whose session cookie identifies the player
      return loadSocketClient('').then(function () {
        return window.io(namespace, {
          transports: ['websocket'],
          forceNew: true,
          auth: withRoom({}),
        });
      });
    }
    return playTicket().then(function (first) {
      if (!first) {
        throw refusal('UNAUTHORIZED', 'Sign in to play');
      }
      var unused = first.ticket;
      return loadSocketClient(first.siteOrigin).then(function () {
        return window.io(first.siteOrigin + namespace, {
          transports: ['websocket'],
          // a second connection (another room) is a connection of its own
          forceNew: true,
          // asked for on every (re)connection: a ticket lives a minute
          auth: function (send) {
            if (unused) {
              send(withRoom({ ticket: unused }));
              unused = null;
              return;
            }
            playTicket().then(function (next) {
              send(withRoom({ ticket: next ? next.ticket : '' }));
            });
          },
        });
      });
    });
  }

  /** GameSDK.playRooms (see the top): one socket at a time, moved to a private room on request. */
  function playRooms(namespace, options) {
    var socket = null;
    var button = options.button || null;
    function connectTo(roomCode) {
      if (socket) {
        // the game hears nothing more of the room it leaves, not even this disconnect
        socket.off();
        socket.disconnect();
        socket = null;
      }
      options.onConnecting();
      connect(namespace, roomCode ? { room: roomCode } : undefined).then(
        function (connected) {
          socket = connected;
          options.onSocket(connected);
        },
        function (problem) {
          options.onProblem(connectionMessage(problem, options.title));
        },
      );
    }
    /** Enters the room `entered` answered (a create or join), or shows its refusal. */
    function enter(entered, code) {
      if (entered && entered.error) {
        options.onProblem('<p>' + escapeHtml(entered.error.message) + '</p>');
        return;
      }
      if (button) {
        button.hidden = true;
      }
      connectTo(code || entered.code);
    }
    if (button) {
      // a page the site serves itself (not embedded) has no viewer to hold a room
      button.hidden = !host;
      button.addEventListener('click', function () {
        button.disabled = true;
        rooms.create({ private: true }).then(function (created) {
          button.disabled = false;
          enter(created);
        });
      });
    }
    rooms.invited().then(function (code) {
      if (!code) {
        connectTo(null);
        return;
      }
      rooms.join(code).then(function (joined) {
        enter(joined, code);
      });
    });
  }

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (char) {
      return '&#' + char.charCodeAt(0) + ';';
    });
  }

  function connectionMessage(problem, title) {
    // the site's pages (log in) live on the site's origin, not this page's on the games origin
    var login = escapeHtml((hostOrigin || '') + '/login');
    if (typeof problem === 'string') {
      return problem === 'io server disconnect'
        ? '<p>Disconnected: your session ended. <a href="' +
            login +
            '" target="_top">Log in</a> to play again.</p>'
        : '<p>Connection lost. Reconnecting…</p>';
    }
    var data = (problem && problem.data) || {};
    if (data.code === 'UNAUTHORIZED') {
      return (
        '<p><strong>Sign in to play ' +
        escapeHtml(title) +
        '.</strong><br />It is a live multiplayer game: <a href="' +
        login +
        '" target="_top">log in</a> and open it again.</p>'
      );
    }
    if (data.code === 'UNREACHABLE') {
      return '<p>The game server is not reachable.</p>';
    }
    if (data.code === 'INVALID_TICKET') {
      return '<p>' + escapeHtml(data.message) + '</p>';
    }
    return '<p>Cannot reach the game server. Retrying…</p>';
  }

  // ---- rooms: the SDK's copy of the room, kept by the viewer's 'room-event' messages ----------

  var room = null; // { code, players: [player], state: {} }
  var myId = null;
  var roomListeners = {};

  function unavailable() {
    return { error: { code: 'SERVICE_UNAVAILABLE', message: 'Rooms are not available here.' } };
  }

  function publicPlayer(player) {
    return {
      id: String(player.id),
      name: String(player.name),
      isHost: Boolean(player.isHost),
      isSpectator: Boolean(player.isSpectator),
    };
  }

  function playersNow() {
    return room ? room.players.map(publicPlayer) : [];
  }

  function summary() {
    return room ? { code: room.code, players: playersNow() } : null;
  }

  function emitRoom(type, args) {
    var listeners = roomListeners[type];
    if (!listeners) {
      return;
    }
    listeners.slice().forEach(function (listener) {
      try {
        listener.apply(null, args);
      } catch (error) {
        // a game's listener that throws must not stop the others
        setTimeout(function () {
          throw error;
        }, 0);
      }
    });
  }

  function enterRoom(view, playerId) {
    if (!view || typeof view.code !== 'string' || !Array.isArray(view.players)) {
      room = null;
      myId = null;
      return;
    }
    var state = {};
    if (view.state && typeof view.state === 'object') {
      Object.keys(view.state).forEach(function (key) {
        state[key] = view.state[key];
      });
    }
    room = { code: view.code, players: view.players.slice(), state: state };
    myId = typeof playerId === 'string' ? playerId : null;
  }

  function replacePlayer(player) {
    if (!room || !player) {
      return;
    }
    var index = room.players.findIndex(function (seen) {
      return seen.id === player.id;
    });
    if (index >= 0) {
      room.players[index] = player;
    } else {
      room.players.push(player);
    }
  }

  function onRoomEvent(event, payload) {
    var player = payload.player;
    switch (event) {
      case 'room':
        enterRoom(payload.room, payload.playerId);
        emitRoom('room', [summary()]);
        return;
      case 'message':
        emitRoom(String(payload.type), [payload.data, payload.from]);
        return;
      case 'join':
      case 'away':
      case 'back':
        replacePlayer(player);
        emitRoom(event, [player && publicPlayer(player)]);
        return;
      case 'host':
        if (room && player) {
          room.players = room.players.map(function (seen) {
            var copy = Object.assign({}, seen);
            copy.isHost = seen.id === player.id;
            return copy;
          });
        }
        emitRoom('host', [player && publicPlayer(player)]);
        return;
      case 'leave':
        if (room && player) {
          room.players = room.players.filter(function (seen) {
            return seen.id !== player.id;
          });
        }
        emitRoom('leave', [player && publicPlayer(player)]);
        return;
      case 'state':
        if (room) {
          room.state[String(payload.key)] = payload.value;
        }
        emitRoom('state', [payload.key, payload.value, payload.by]);
        return;
      case 'closed':
        room = null;
        myId = null;
        emitRoom('closed', [{ reason: String(payload.reason) }]);
        return;
    }
  }

  /** One room request to the viewer: its result, or { error } (never a rejection). */
  function askRoom(request) {
    return ask('rooms', request, true).then(function (result) {
      return result === undefined ? unavailable() : result;
    });
  }

  /** create/join/quickJoin/spectate: enter the room the viewer answers with. */
  function enter(request) {
    return askRoom(request).then(function (result) {
      if (result.error) {
        return result;
      }
      enterRoom(result.room, result.playerId);
      if (!room) {
        return unavailable();
      }
      var entered = { code: room.code, players: playersNow() };
      if (typeof result.inviteUrl === 'string') {
        entered.inviteUrl = result.inviteUrl;
      }
      return entered;
    });
  }

  function done(result) {
    return result.error ? result : true;
  }

  var rooms = Object.freeze({
    create: function (options) {
      var asked = options || {};
      var request = { op: 'create', private: Boolean(asked.private) };
      if (typeof asked.maxPlayers === 'number') {
        request.maxPlayers = asked.maxPlayers;
      }
      return enter(request).then(function (result) {
        return result.error ? result : { code: result.code, inviteUrl: result.inviteUrl || null };
      });
    },
    join: function (code) {
      return enter({ op: 'join', code: String(code) });
    },
    quickJoin: function () {
      return enter({ op: 'quickJoin' });
    },
    spectate: function (code) {
      return enter({ op: 'spectate', code: String(code) });
    },
    leave: function () {
      return askRoom({ op: 'leave' }).then(function (result) {
        if (!result.error) {
          room = null;
          myId = null;
        }
        return done(result);
      });
    },
    invited: function () {
      return ask('rooms', { op: 'invited' }).then(function (result) {
        return result && typeof result.code === 'string' ? result.code : null;
      });
    },
    players: playersNow,
    me: function () {
      return myId;
    },
    code: function () {
      return room ? room.code : null;
    },
    send: function (type, data, options) {
      var request = { op: 'send', type: String(type), data: data === undefined ? null : data };
      if (options && typeof options.to === 'string') {
        request.to = options.to;
      }
      return askRoom(request).then(done);
    },
    on: function (type, listener) {
      var key = String(type);
      if (typeof listener !== 'function') {
        return function () {};
      }
      (roomListeners[key] = roomListeners[key] || []).push(listener);
      return function () {
        roomListeners[key] = (roomListeners[key] || []).filter(function (seen) {
          return seen !== listener;
        });
      };
    },
    setState: function (key, value) {
      var request = { op: 'setState', key: String(key), value: value === undefined ? null : value };
      return askRoom(request).then(function (result) {
        if (!result.error && room) {
          room.state[request.key] = request.value;
        }
        return done(result);
      });
    },
    getState: function (key) {
      return room ? room.state[String(key)] : undefined;
    },
    compareAndSet: function (key, expected, value) {
      return askRoom({
        op: 'cas',
        key: String(key),
        expected: expected === undefined ? null : expected,
        value: value === undefined ? null : value,
      }).then(function (result) {
        var swapped = !result.error && result.swapped === true;
        if (swapped && room) {
          room.state[String(key)] = value === undefined ? null : value;
        }
        return swapped;
      });
    },
  });

  window.GameSDK = Object.freeze({
    hostOrigin: hostOrigin,
    start: function () {
      try {
        start();
      } catch (_error) {
        // never into the game
      }
    },
    save: function (data, options) {
      return ask('save', { data: data === undefined ? null : data, slot: slotOf(options) }).then(
        function () {
          return undefined;
        },
      );
    },
    load: function (options) {
      return ask('load', { slot: slotOf(options) }).then(function (result) {
        return result === undefined ? null : result;
      });
    },
    slots: function () {
      return ask('slots', {}).then(function (result) {
        return Array.isArray(result) ? result : [];
      });
    },
    unlock: function (key) {
      return ask('unlock', { name: String(key) }).then(function () {
        return undefined;
      });
    },
    submitScore: function (board, value) {
      return ask('score', { board: String(board), value: Number(value) }, true).then(
        function (result) {
          return result === undefined ? null : result;
        },
      );
    },
    leaderboard: function (board, options) {
      var asked = options || {};
      return ask('leaderboard', {
        board: String(board),
        period: asked.period || 'all',
        around: asked.around || 'top',
        limit: asked.limit || 10,
      }).then(function (result) {
        return result === undefined ? null : result;
      });
    },
    playTicket: playTicket,
    connect: connect,
    connectionMessage: connectionMessage,
    playRooms: playRooms,
    rooms: rooms,
  });
})();
