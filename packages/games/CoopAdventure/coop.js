// Co-op Adventure: two players on one keyboard, one with WASD, the other with the arrow keys.
// Each star sits behind a gate that opens only while the other player stands on its plate, so
// the stars are reached only together. Both stars clear the level and unlock 'Better Together'.
(function () {
  'use strict';

  var canvas = document.getElementById('game');
  var ctx = canvas.getContext('2d');
  var TILE = 40;
  var W = canvas.width;
  var H = canvas.height;

  // # wall, B/C gates (closed unless their plate is held), b/c plates, * star, 1/2 starts
  var MAP = [
    '########################',
    '#*.........B#..........#',
    '#..........B#..........#',
    '#BBBBBBBBBBB#..........#',
    '#...........#.......b..#',
    '#...........#..........#',
    '#..1........#.....2....#',
    '#...........#..........#',
    '#......c....#..........#',
    '#...........#CCCCCCCCCC#',
    '#...........#C.........#',
    '#...........#C........*#',
    '#...........#C.........#',
    '#...........#C.........#',
    '########################',
  ];

  var keys = {};
  var players;
  var stars;
  var isCleared;
  var clearedAt = 0;
  var startedAt = performance.now();

  window.GameSDK.start();

  function tileAt(col, row) {
    var line = MAP[row];
    return line ? line.charAt(col) || '#' : '#';
  }

  function findTiles(letter) {
    var found = [];
    MAP.forEach(function (line, row) {
      for (var col = 0; col < line.length; col++) {
        if (line.charAt(col) === letter) {
          found.push({ col: col, row: row });
        }
      }
    });
    return found;
  }

  function reset() {
    var one = findTiles('1')[0];
    var two = findTiles('2')[0];
    players = [
      {
        x: one.col * TILE + 6,
        y: one.row * TILE + 6,
        color: '#4fc1e9',
        keys: ['KeyW', 'KeyS', 'KeyA', 'KeyD'],
        name: 'WASD',
      },
      {
        x: two.col * TILE + 6,
        y: two.row * TILE + 6,
        color: '#e9573f',
        keys: ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'],
        name: 'Arrows',
      },
    ];
    stars = findTiles('*').map(function (t) {
      return { col: t.col, row: t.row, taken: false };
    });
    isCleared = false;
    startedAt = performance.now();
  }

  /** Is a plate of this letter held by either player? */
  function isPlateHeld(letter) {
    return players.some(function (p) {
      return tileAt(Math.floor((p.x + 14) / TILE), Math.floor((p.y + 14) / TILE)) === letter;
    });
  }

  function isSolid(col, row) {
    var tile = tileAt(col, row);
    if (tile === '#') {
      return true;
    }
    if (tile === 'B' || tile === 'C') {
      return !isPlateHeld(tile.toLowerCase());
    }
    return false;
  }

  function blocked(x, y) {
    var size = 28;
    var corners = [
      [x, y],
      [x + size - 1, y],
      [x, y + size - 1],
      [x + size - 1, y + size - 1],
    ];
    return corners.some(function (c) {
      return isSolid(Math.floor(c[0] / TILE), Math.floor(c[1] / TILE));
    });
  }

  window.addEventListener('keydown', function (event) {
    keys[event.code] = true;
    if (event.code.indexOf('Arrow') === 0 || event.code === 'Space') {
      event.preventDefault();
    }
    if (isCleared && event.code === 'Space') {
      reset();
    }
  });
  window.addEventListener('keyup', function (event) {
    keys[event.code] = false;
  });
  canvas.addEventListener('pointerdown', function () {
    if (isCleared) {
      reset();
    }
  });

  function update(dt) {
    if (isCleared) {
      return;
    }
    var speed = 200 * dt;
    players.forEach(function (p) {
      var dx = (keys[p.keys[3]] ? 1 : 0) - (keys[p.keys[2]] ? 1 : 0);
      var dy = (keys[p.keys[1]] ? 1 : 0) - (keys[p.keys[0]] ? 1 : 0);
      if (dx && !blocked(p.x + dx * speed, p.y)) {
        p.x += dx * speed;
      }
      if (dy && !blocked(p.x, p.y + dy * speed)) {
        p.y += dy * speed;
      }
      stars.forEach(function (star) {
        var cx = star.col * TILE + TILE / 2;
        var cy = star.row * TILE + TILE / 2;
        if (!star.taken && Math.abs(p.x + 14 - cx) < 24 && Math.abs(p.y + 14 - cy) < 24) {
          star.taken = true;
        }
      });
    });
    if (
      stars.every(function (star) {
        return star.taken;
      })
    ) {
      isCleared = true;
      clearedAt = (performance.now() - startedAt) / 1000;
      void window.GameSDK.unlock('Better Together');
    }
  }

  function drawStar(x, y, r) {
    ctx.beginPath();
    for (var i = 0; i < 10; i++) {
      var angle = (Math.PI / 5) * i - Math.PI / 2;
      var radius = i % 2 ? r / 2.4 : r;
      ctx.lineTo(x + Math.cos(angle) * radius, y + Math.sin(angle) * radius);
    }
    ctx.closePath();
    ctx.fill();
  }

  function draw() {
    for (var row = 0; row < MAP.length; row++) {
      for (var col = 0; col < MAP[row].length; col++) {
        var tile = tileAt(col, row);
        var x = col * TILE;
        var y = row * TILE;
        ctx.fillStyle = (row + col) % 2 ? '#253047' : '#28344d';
        ctx.fillRect(x, y, TILE, TILE);
        if (tile === '#') {
          ctx.fillStyle = '#3a4763';
          ctx.fillRect(x, y, TILE, TILE);
        } else if (tile === 'B' || tile === 'C') {
          var color = tile === 'B' ? '#f6c453' : '#6fd3a6';
          if (isSolid(col, row)) {
            ctx.fillStyle = color;
            ctx.fillRect(x + 4, y + 4, TILE - 8, TILE - 8);
          } else {
            ctx.strokeStyle = color;
            ctx.strokeRect(x + 6, y + 6, TILE - 12, TILE - 12);
          }
        } else if (tile === 'b' || tile === 'c') {
          ctx.fillStyle = tile === 'b' ? '#f6c453' : '#6fd3a6';
          ctx.fillRect(x + 4, y + TILE - 12, TILE - 8, 8);
        }
      }
    }
    stars.forEach(function (star) {
      if (!star.taken) {
        ctx.fillStyle = '#fff1a8';
        drawStar(star.col * TILE + TILE / 2, star.row * TILE + TILE / 2, 14);
      }
    });
    players.forEach(function (p) {
      ctx.fillStyle = p.color;
      ctx.fillRect(p.x, p.y, 28, 28);
      ctx.fillStyle = '#fff';
      ctx.font = '10px sans-serif';
      ctx.textAlign = 'center';
      ctx.fillText(p.name, p.x + 14, p.y - 4);
    });
    ctx.textAlign = 'left';
    ctx.font = '15px sans-serif';
    ctx.fillStyle = '#e8eaf4';
    ctx.fillText('Stand on a plate to open the gate of its colour for your partner.', 8, H - 12);
    if (isCleared) {
      ctx.fillStyle = 'rgba(0,0,0,0.6)';
      ctx.fillRect(0, H / 2 - 60, W, 120);
      ctx.fillStyle = '#fff';
      ctx.textAlign = 'center';
      ctx.font = 'bold 34px sans-serif';
      ctx.fillText('Together in ' + clearedAt.toFixed(1) + ' s!', W / 2, H / 2);
      ctx.font = '18px sans-serif';
      ctx.fillText('Press Space or click to play again', W / 2, H / 2 + 34);
    }
  }

  var last = performance.now();
  function frame(now) {
    var dt = Math.min(0.05, (now - last) / 1000);
    last = now;
    update(dt);
    draw();
    requestAnimationFrame(frame);
  }
  reset();
  requestAnimationFrame(frame);
})();
