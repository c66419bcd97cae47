// Rocket Game: a live arena. The server (Socket.IO namespace /play/RocketGame) owns every rocket;
// this page sends the keys held (A/D rotate, W thrust, Space shoot) and draws what the server says,
// smoothing between its 10 updates a second. I/O or the mouse wheel zoom.
(function () {
  'use strict';

  var KEYS = { left: 1, right: 2, forward: 4, shoot: 8 };
  var ANGLE_STEPS = 64;
  var SHOT = { speed: 700, life: 1.2 };
  var UPDATE_MS = 100; // the server's broadcast interval: rockets glide over one of them
  var TAU = Math.PI * 2;

  var canvas = document.getElementById('game');
  var ctx = canvas.getContext('2d');
  var hud = document.getElementById('hud');
  var message = document.getElementById('message');

  var world = { width: 2400, height: 1600 };
  var me = 0;
  var rockets = new Map(); // id → { name, colour, score, x, y, angle, flags, from, to, at }
  var shots = new Map(); // shotId → { x, y, dx, dy, born }
  var blasts = []; // { x, y, born }
  var zoom = 1;
  var held = 0;
  var sentKeys = 0;
  var unlocked = {};

  function unlock(name) {
    if (!unlocked[name]) {
      unlocked[name] = true;
      void window.GameSDK.unlock(name);
    }
  }

  function showMessage(html) {
    message.innerHTML = html;
    message.hidden = false;
  }

  // ---- connection -------------------------------------------------------------------------------

  /** A refused or failed connection (connect_error) or a dropped one (its reason). */
  function showConnection(problem) {
    showMessage(window.GameSDK.connectionMessage(problem, 'Rocket Game'));
  }

  // a ticket from the site's viewer when embedded on the games origin; the session cookie when the
  // site serves this page itself
  var socket = null;
  // the open room, an invite link's room, or a private room made by the button (the SDK asks the
  // site's room service; the viewer offers the invite link): that room's own game on the server
  window.GameSDK.playRooms('/play/RocketGame', {
    title: 'Rocket Game',
    button: document.getElementById('private-room'),
    onConnecting: function () {
      showMessage('<p>Connecting…</p>');
    },
    onSocket: function (connected) {
      socket = connected;
      connected.on('connect_error', showConnection);
      connected.on('disconnect', showConnection);
      connected.on('welcome', onWelcome);
      connected.on('u', onUpdate);
    },
    onProblem: showMessage,
  });

  function toRocket(entry) {
    var state = { x: entry[2], y: entry[3], angle: entry[4] };
    return {
      name: entry[1],
      score: entry[5],
      colour: entry[6],
      flags: 0,
      from: state,
      to: state,
      at: 0,
    };
  }

  function onWelcome(welcome) {
    world = welcome.world;
    me = welcome.you;
    rockets.clear();
    shots.clear();
    welcome.rockets.forEach(function (entry) {
      rockets.set(entry[0], toRocket(entry));
    });
    message.hidden = true;
    sentKeys = -1;
    sendKeys();
    canvas.focus();
    window.GameSDK.start();
    renderHud();
  }

  function onUpdate(update) {
    var now = performance.now();
    (update.j || []).forEach(function (entry) {
      if (!rockets.has(entry[0])) {
        rockets.set(entry[0], toRocket(entry));
      }
    });
    (update.l || []).forEach(function (id) {
      rockets.delete(id);
    });
    var m = update.m || [];
    for (var i = 0; i < m.length; i += 5) {
      var rocket = rockets.get(m[i]);
      if (rocket) {
        rocket.from = displayed(rocket, now);
        rocket.to = { x: m[i + 1], y: m[i + 2], angle: m[i + 3] };
        rocket.flags = m[i + 4];
        rocket.at = now;
      }
    }
    var s = update.s || [];
    for (var j = 0; j < s.length; j += 4) {
      var direction = (s[j + 3] / ANGLE_STEPS) * TAU;
      shots.set(s[j], {
        x: s[j + 1],
        y: s[j + 2],
        dx: Math.cos(direction) * SHOT.speed,
        dy: Math.sin(direction) * SHOT.speed,
        born: now,
      });
    }
    var h = update.h || [];
    for (var k = 0; k < h.length; k += 4) {
      var shot = shots.get(h[k]);
      var target = rockets.get(h[k + 2]);
      var shooter = rockets.get(h[k + 1]);
      if (target) {
        var at = displayed(target, now);
        blasts.push({ x: at.x, y: at.y, born: now });
      }
      if (shot) {
        shots.delete(h[k]);
      }
      if (shooter) {
        shooter.score = h[k + 3];
      }
      if (h[k + 1] === me) {
        unlock('First Hit');
      }
    }
    if (h.length > 0 || (update.j || []).length > 0 || (update.l || []).length > 0) {
      renderHud();
    }
  }

  // ---- input ------------------------------------------------------------------------------------

  var KEY_BITS = {
    KeyA: KEYS.left,
    ArrowLeft: KEYS.left,
    KeyD: KEYS.right,
    ArrowRight: KEYS.right,
    KeyW: KEYS.forward,
    ArrowUp: KEYS.forward,
    Space: KEYS.shoot,
  };

  function sendKeys() {
    if (held !== sentKeys && socket && socket.connected) {
      sentKeys = held;
      socket.emit('input', held);
      if (held & KEYS.forward) {
        unlock('Lift Off');
      }
    }
  }

  window.addEventListener('keydown', function (event) {
    if (KEY_BITS[event.code]) {
      event.preventDefault();
      held |= KEY_BITS[event.code];
      sendKeys();
    } else if (event.code === 'KeyI') {
      setZoom(zoom * 1.25);
    } else if (event.code === 'KeyO') {
      setZoom(zoom / 1.25);
    }
  });
  window.addEventListener('keyup', function (event) {
    if (KEY_BITS[event.code]) {
      held &= ~KEY_BITS[event.code];
      sendKeys();
    }
  });
  window.addEventListener('blur', function () {
    held = 0;
    sendKeys();
  });
  canvas.addEventListener(
    'wheel',
    function (event) {
      event.preventDefault();
      setZoom(zoom * (event.deltaY < 0 ? 1.1 : 1 / 1.1));
    },
    { passive: false },
  );
  canvas.addEventListener('pointerdown', function () {
    canvas.focus();
  });

  function setZoom(value) {
    zoom = Math.min(2.5, Math.max(0.35, value));
  }

  // ---- drawing ----------------------------------------------------------------------------------

  /** The shortest signed step from a to b on a wrapping axis. */
  function wrapDelta(a, b, size) {
    var d = (b - a) % size;
    if (d > size / 2) d -= size;
    if (d < -size / 2) d += size;
    return d;
  }

  function displayed(rocket, now) {
    var t = Math.min(1, (now - rocket.at) / UPDATE_MS);
    var dAngle = wrapDelta(rocket.from.angle, rocket.to.angle, ANGLE_STEPS);
    return {
      x: rocket.from.x + wrapDelta(rocket.from.x, rocket.to.x, world.width) * t,
      y: rocket.from.y + wrapDelta(rocket.from.y, rocket.to.y, world.height) * t,
      angle: rocket.from.angle + dAngle * t,
    };
  }

  // a fixed starfield, generated once (three layers for depth)
  var stars = [];
  var seed = 7;
  function random() {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  }
  for (var i = 0; i < 700; i++) {
    stars.push({ x: random() * 2400, y: random() * 1600, r: random() * 1.6 + 0.3, a: random() });
  }

  function resize() {
    var ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(canvas.clientWidth * ratio);
    canvas.height = Math.round(canvas.clientHeight * ratio);
  }
  window.addEventListener('resize', resize);
  resize();

  function drawRocket(rocket, at, isMine) {
    ctx.save();
    ctx.translate(at.x, at.y);
    ctx.rotate((at.angle / ANGLE_STEPS) * TAU);
    if (rocket.flags & 1) {
      ctx.fillStyle = 'hsl(' + (30 + Math.random() * 20) + ', 100%, 60%)';
      ctx.beginPath();
      ctx.moveTo(-12, -5);
      ctx.lineTo(-22 - Math.random() * 10, 0);
      ctx.lineTo(-12, 5);
      ctx.fill();
    }
    ctx.fillStyle = 'hsl(' + rocket.colour + ', 75%, 60%)';
    ctx.strokeStyle = isMine ? '#ffffff' : 'rgba(0,0,0,0.6)';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(18, 0);
    ctx.lineTo(-12, -10);
    ctx.lineTo(-7, 0);
    ctx.lineTo(-12, 10);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
    ctx.restore();
    ctx.fillStyle = isMine ? '#ffffff' : '#b8c2d8';
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.fillText(rocket.name, at.x, at.y + 30);
  }

  function frame() {
    var now = performance.now();
    var ratio = window.devicePixelRatio || 1;
    var w = canvas.width;
    var h = canvas.height;
    var mine = rockets.get(me);
    var camera = mine ? displayed(mine, now) : { x: world.width / 2, y: world.height / 2 };
    var scale = zoom * ratio;

    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#05070f';
    ctx.fillRect(0, 0, w, h);
    ctx.setTransform(scale, 0, 0, scale, w / 2, h / 2);

    // everything is drawn at its nearest copy around the camera (the field wraps)
    function near(x, y) {
      return {
        x: wrapDelta(camera.x, x, world.width),
        y: wrapDelta(camera.y, y, world.height),
      };
    }

    stars.forEach(function (star) {
      var p = near(star.x, star.y);
      ctx.fillStyle = 'rgba(255,255,255,' + (0.3 + star.a * 0.6) + ')';
      ctx.fillRect(p.x, p.y, star.r, star.r);
    });

    shots.forEach(function (shot, id) {
      var age = (now - shot.born) / 1000;
      if (age > SHOT.life) {
        shots.delete(id);
        return;
      }
      var p = near(shot.x + shot.dx * age, shot.y + shot.dy * age);
      ctx.fillStyle = '#ffe680';
      ctx.beginPath();
      ctx.arc(p.x, p.y, 3, 0, TAU);
      ctx.fill();
    });

    blasts = blasts.filter(function (blast) {
      var age = (now - blast.born) / 500;
      if (age > 1) {
        return false;
      }
      var p = near(blast.x, blast.y);
      ctx.strokeStyle = 'rgba(255,160,60,' + (1 - age) + ')';
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.arc(p.x, p.y, 8 + age * 30, 0, TAU);
      ctx.stroke();
      return true;
    });

    rockets.forEach(function (rocket, id) {
      var at = displayed(rocket, now);
      var p = near(at.x, at.y);
      drawRocket(rocket, { x: p.x, y: p.y, angle: at.angle }, id === me);
    });

    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  // the page's view of the room, read-only, for the console and the browser tests
  window.RocketGame = Object.freeze({
    players: function () {
      var now = performance.now();
      return Array.from(rockets.entries()).map(function (pair) {
        var at = displayed(pair[1], now);
        return { name: pair[1].name, isMe: pair[0] === me, x: at.x, y: at.y, score: pair[1].score };
      });
    },
  });

  function renderHud() {
    var list = Array.from(rockets.entries()).sort(function (a, b) {
      return b[1].score - a[1].score;
    });
    hud.replaceChildren();
    var title = document.createElement('strong');
    title.textContent = 'Players (' + list.length + ')';
    var ol = document.createElement('ol');
    list.forEach(function (pair) {
      var li = document.createElement('li');
      li.textContent = pair[1].name + (pair[0] === me ? ' (you)' : '') + ': ' + pair[1].score;
      ol.appendChild(li);
    });
    hud.append(title, ol);
  }
})();
