/*
 * The game SDK. A game page includes <script src="/games/sdk.js"></script> and gets window.GameSDK:
 *
 *   GameSDK.start(): void                      begins a play session; pings every 30 s, ends on pagehide
 *   GameSDK.save(data: unknown): Promise<void>
 *   GameSDK.load(): Promise<unknown | null>
 *   GameSDK.unlock(name: string): Promise<void>
 *
 * The SDK never calls the API itself: it posts messages to the hosting page (the site's game
 * viewer), which knows which game is open and records it for a signed-in player. Messages go only
 * to a parent on this page's own origin, and only answers from that parent window on this origin
 * are read. Every promise resolves quietly (nothing / null) for guests, when the page is not
 * embedded in the site, or when the host does not answer; nothing here throws into the game.
 */
(function () {
  'use strict';

  var PING_INTERVAL_MS = 30000;
  var ANSWER_TIMEOUT_MS = 10000;
  var PROTOCOL = 'portfolio-game-sdk';

  var origin = window.location.origin;
  var host = null;
  try {
    // only a same-origin parent is the site's viewer
    if (window.parent !== window && window.parent.location.origin === origin) {
      host = window.parent;
    }
  } catch (_error) {
    host = null; // a cross-origin parent: play without recording
  }

  var nextId = 1;
  var pending = {};

  window.addEventListener('message', function (event) {
    if (event.origin !== origin || event.source !== host || !host) {
      return;
    }
    var message = event.data;
    if (!message || message.protocol !== PROTOCOL || message.kind !== 'answer') {
      return;
    }
    var settle = pending[message.id];
    if (settle) {
      delete pending[message.id];
      settle(message.ok ? message.result : undefined);
    }
  });

  /** Sends one request to the host; resolves with its result, or undefined on any failure. */
  function ask(type, payload) {
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
      pending[id] = function (result) {
        clearTimeout(timer);
        resolve(result);
      };
      try {
        host.postMessage(
          { protocol: PROTOCOL, kind: 'request', id: id, type: type, payload: payload },
          origin,
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

  window.GameSDK = Object.freeze({
    start: function () {
      try {
        start();
      } catch (_error) {
        // never into the game
      }
    },
    save: function (data) {
      return ask('save', { data: data === undefined ? null : data }).then(function () {
        return undefined;
      });
    },
    load: function () {
      return ask('load', {}).then(function (result) {
        return result === undefined ? null : result;
      });
    },
    unlock: function (name) {
      return ask('unlock', { name: String(name) }).then(function () {
        return undefined;
      });
    },
  });
})();
