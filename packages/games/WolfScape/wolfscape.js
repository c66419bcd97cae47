// WolfScape: click to move your wolf across a generated wild map; other players' wolves roam the
// same room. The server (Socket.IO namespace /play/WolfScape) owns the map and every wolf: a click
// asks it for a walk, and it tells everyone in the room the path, which each page walks at the
// same speed. Arrow keys take one step, for players without a mouse.
(function () {
  'use strict';

  var SPEED = 4; // tiles per second, as the server walks
  var UNIT = 10; // positions on the wire are tenths of a tile
  var TILE = 24; // pixels per tile on the map picture
  var COLOURS = {
    0: ['#3f7a35', '#46843b', '#4b8c3f'],
    1: ['#1f4d22'],
    2: ['#7d7f86'],
    3: ['#2e6fa8'],
  };

  var canvas = document.getElementById('game');
  var ctx = canvas.getContext('2d');
  var hud = document.getElementById('hud');
  var message = document.getElementById('message');

  var map = null; // { width, height, tiles, picture }
  var me = 0;
  var room = '';
  var wolves = new Map(); // id → { name, colour, x, y, path: [[x, y], …] }
  var marker = null; // { x, y, born }: where the player last clicked
  var unlocked = {};
  var view = { scale: 1, left: 0, top: 0 };

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
    showMessage(window.GameSDK.connectionMessage(problem, 'WolfScape'));
  }

  // a ticket from the site's viewer when embedded on the games origin; the session cookie when the
  // site serves this page itself
  var socket = null;
  // the open room, an invite link's room, or a private room made by the button (the SDK asks the
  // site's room service; the viewer offers the invite link): that room's own game on the server
  window.GameSDK.playRooms('/play/WolfScape', {
    title: 'WolfScape',
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

  function addWolf(entry) {
    wolves.set(entry[0], {
      name: entry[1],
      x: entry[2] / UNIT,
      y: entry[3] / UNIT,
      colour: entry[4],
      path: [],
    });
  }

  /** [id, startX, startY, tileX, tileY, …] → the wolf walks it from its start. */
  function applyPath(entry) {
    var wolf = wolves.get(entry[0]);
    if (!wolf) {
      return;
    }
    wolf.x = entry[1] / UNIT;
    wolf.y = entry[2] / UNIT;
    wolf.path = [];
    for (var i = 3; i + 1 < entry.length; i += 2) {
      wolf.path.push([entry[i], entry[i + 1]]);
    }
  }

  function onWelcome(welcome) {
    me = welcome.you;
    room = welcome.room;
    map = buildMap(welcome.map, 48, 32);
    wolves.clear();
    welcome.wolves.forEach(addWolf);
    welcome.paths.forEach(applyPath);
    message.hidden = true;
    canvas.focus();
    window.GameSDK.start();
    renderHud();
  }

  function onUpdate(update) {
    (update.j || []).forEach(function (entry) {
      if (!wolves.has(entry[0])) {
        addWolf(entry);
      }
    });
    (update.l || []).forEach(function (id) {
      wolves.delete(id);
    });
    (update.p || []).forEach(applyPath);
    if ((update.j || []).length > 0 || (update.l || []).length > 0) {
      renderHud();
    }
  }

  // ---- input ------------------------------------------------------------------------------------

  function moveTo(x, y) {
    if (!map || x < 0 || y < 0 || x >= map.width || y >= map.height) {
      return;
    }
    marker = { x: x, y: y, born: performance.now() };
    if (socket) {
      socket.emit('move', { x: x, y: y });
    }
  }

  canvas.addEventListener('pointerdown', function (event) {
    canvas.focus();
    var rect = canvas.getBoundingClientRect();
    var ratio = window.devicePixelRatio || 1;
    var px = ((event.clientX - rect.left) * ratio - view.left) / view.scale;
    var py = ((event.clientY - rect.top) * ratio - view.top) / view.scale;
    moveTo(Math.floor(px / TILE), Math.floor(py / TILE));
  });

  var STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  window.addEventListener('keydown', function (event) {
    var step = STEPS[event.code];
    var wolf = wolves.get(me);
    if (step && wolf) {
      event.preventDefault();
      var last = wolf.path.length > 0 ? wolf.path[wolf.path.length - 1] : [wolf.x, wolf.y];
      moveTo(Math.round(last[0]) + step[0], Math.round(last[1]) + step[1]);
    }
  });

  // ---- the world --------------------------------------------------------------------------------

  /** Paints the map once into an offscreen picture: grass, forest, rocks and water. */
  function buildMap(tiles, width, height) {
    var picture = document.createElement('canvas');
    picture.width = width * TILE;
    picture.height = height * TILE;
    var g = picture.getContext('2d');
    var seed = 1;
    function random() {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    }
    for (var y = 0; y < height; y++) {
      for (var x = 0; x < width; x++) {
        var kind = tiles[y * width + x];
        var grass = COLOURS[0];
        g.fillStyle = kind === '3' ? COLOURS[3][0] : grass[Math.floor(random() * grass.length)];
        g.fillRect(x * TILE, y * TILE, TILE, TILE);
        var cx = x * TILE + TILE / 2;
        var cy = y * TILE + TILE / 2;
        if (kind === '1') {
          g.fillStyle = '#173b19';
          g.beginPath();
          g.arc(cx + 2, cy + 3, TILE * 0.48, 0, Math.PI * 2);
          g.fill();
          g.fillStyle = COLOURS[1][0];
          g.beginPath();
          g.arc(cx, cy, TILE * 0.46, 0, Math.PI * 2);
          g.fill();
          g.fillStyle = '#2d6b2f';
          g.beginPath();
          g.arc(cx - 3, cy - 3, TILE * 0.22, 0, Math.PI * 2);
          g.fill();
        } else if (kind === '2') {
          g.fillStyle = COLOURS[2][0];
          g.beginPath();
          g.moveTo(cx - 9, cy + 7);
          g.lineTo(cx - 6, cy - 6);
          g.lineTo(cx + 4, cy - 9);
          g.lineTo(cx + 10, cy + 6);
          g.closePath();
          g.fill();
          g.fillStyle = '#a3a5ab';
          g.fillRect(cx - 4, cy - 5, 5, 3);
        } else if (kind === '3' && random() < 0.3) {
          g.strokeStyle = 'rgba(255,255,255,0.35)';
          g.beginPath();
          g.moveTo(cx - 6, cy);
          g.quadraticCurveTo(cx - 3, cy - 3, cx, cy);
          g.quadraticCurveTo(cx + 3, cy + 3, cx + 6, cy);
          g.stroke();
        }
      }
    }
    return { width: width, height: height, tiles: tiles, picture: picture };
  }

  /** Walks a wolf along its path at the server's speed. */
  function walk(wolf, dt) {
    var budget = SPEED * dt;
    while (budget > 0 && wolf.path.length > 0) {
      var target = wolf.path[0];
      var distance = Math.hypot(target[0] - wolf.x, target[1] - wolf.y);
      if (distance <= budget) {
        wolf.x = target[0];
        wolf.y = target[1];
        budget -= distance;
        wolf.path.shift();
      } else {
        wolf.x += ((target[0] - wolf.x) / distance) * budget;
        wolf.y += ((target[1] - wolf.y) / distance) * budget;
        budget = 0;
      }
      wolf.heading = Math.atan2(target[1] - wolf.y, target[0] - wolf.x) || wolf.heading || 0;
    }
  }

  function drawWolf(wolf, isMine, now) {
    var x = (wolf.x + 0.5) * TILE;
    var y = (wolf.y + 0.5) * TILE;
    var isWalking = wolf.path.length > 0;
    var bob = isWalking ? Math.sin(now / 80) * 1.5 : 0;
    var facing = Math.cos(wolf.heading || 0) < 0 ? -1 : 1;
    if (isMine) {
      ctx.strokeStyle = '#fff6b0';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.ellipse(x, y + 8, 14, 6, 0, 0, Math.PI * 2);
      ctx.stroke();
    }
    ctx.save();
    ctx.translate(x, y + bob);
    ctx.scale(facing, 1);
    var fur = 'hsl(' + wolf.colour + ', 25%, 62%)';
    var dark = 'hsl(' + wolf.colour + ', 25%, 38%)';
    ctx.fillStyle = dark;
    ctx.beginPath(); // tail
    ctx.moveTo(-10, -2);
    ctx.quadraticCurveTo(-20, -8, -17, 3);
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = fur;
    ctx.beginPath(); // body
    ctx.ellipse(-1, 1, 11, 6, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.beginPath(); // head
    ctx.ellipse(10, -4, 6, 5, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = dark;
    ctx.beginPath(); // ears and snout
    ctx.moveTo(7, -8);
    ctx.lineTo(8, -14);
    ctx.lineTo(11, -8);
    ctx.moveTo(11, -8);
    ctx.lineTo(13, -13);
    ctx.lineTo(14, -7);
    ctx.moveTo(14, -5);
    ctx.lineTo(20, -3);
    ctx.lineTo(14, -1);
    ctx.fill();
    ctx.fillRect(-8, 5, 3, 6 + (isWalking ? Math.sin(now / 60) * 2 : 0)); // legs
    ctx.fillRect(5, 5, 3, 6 - (isWalking ? Math.sin(now / 60) * 2 : 0));
    ctx.restore();
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.fillStyle = 'rgba(0,0,0,0.55)';
    ctx.fillText(wolf.name, x + 1, y - 15);
    ctx.fillStyle = isMine ? '#fff6b0' : '#ffffff';
    ctx.fillText(wolf.name, x, y - 16);
  }

  function resize() {
    var ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(canvas.clientWidth * ratio);
    canvas.height = Math.round(canvas.clientHeight * ratio);
  }
  window.addEventListener('resize', resize);
  resize();

  var last = performance.now();
  var wasWalking = false;
  function frame(now) {
    var dt = Math.min(0.25, (now - last) / 1000);
    last = now;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#0e1a10';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (map) {
      // the whole map, as large as the window allows
      var scale = Math.min(canvas.width / map.picture.width, canvas.height / map.picture.height);
      view = {
        scale: scale,
        left: (canvas.width - map.picture.width * scale) / 2,
        top: (canvas.height - map.picture.height * scale) / 2,
      };
      ctx.setTransform(scale, 0, 0, scale, view.left, view.top);
      ctx.drawImage(map.picture, 0, 0);

      if (marker && now - marker.born < 1200) {
        var age = (now - marker.born) / 1200;
        ctx.strokeStyle = 'rgba(255,246,176,' + (1 - age) + ')';
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc((marker.x + 0.5) * TILE, (marker.y + 0.5) * TILE, 4 + age * 8, 0, Math.PI * 2);
        ctx.stroke();
      }

      var sorted = Array.from(wolves.entries()).sort(function (a, b) {
        return a[1].y - b[1].y;
      });
      sorted.forEach(function (pair) {
        walk(pair[1], dt);
      });
      sorted.forEach(function (pair) {
        drawWolf(pair[1], pair[0] === me, now);
      });
      checkAchievements();
    }
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  function checkAchievements() {
    var mine = wolves.get(me);
    if (!mine) {
      return;
    }
    var isWalking = mine.path.length > 0;
    if (wasWalking && !isWalking) {
      unlock('First Steps');
    }
    wasWalking = isWalking;
    wolves.forEach(function (other, id) {
      if (id !== me && Math.hypot(other.x - mine.x, other.y - mine.y) < 1.5) {
        unlock('Pack Meeting');
      }
    });
  }

  // the page's view of the room, read-only, for the console and the browser tests
  window.WolfScape = Object.freeze({
    wolves: function () {
      return Array.from(wolves.entries()).map(function (pair) {
        return { name: pair[1].name, isMe: pair[0] === me, x: pair[1].x, y: pair[1].y };
      });
    },
  });

  function renderHud() {
    hud.replaceChildren();
    var title = document.createElement('strong');
    title.textContent = 'Room ' + room.replace(/^\D+-/, '') + ': ' + wolves.size + ' wolves';
    var ol = document.createElement('ol');
    wolves.forEach(function (wolf, id) {
      var li = document.createElement('li');
      li.textContent = wolf.name + (id === me ? ' (you)' : '');
      ol.appendChild(li);
    });
    hud.append(title, ol);
  }
})();
