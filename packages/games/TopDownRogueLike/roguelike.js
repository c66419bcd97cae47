// TopDown RogueLike: WASD moves, the left mouse button swings the sword toward the pointer.
// Clear three rooms of monsters; the third holds the boss. Unlocks 'First Blood' and 'Boss Slayer'.
(function () {
  'use strict';

  var canvas = document.getElementById('game');
  var ctx = canvas.getContext('2d');
  var W = canvas.width;
  var H = canvas.height;
  var WALL = 32;
  var keys = {};
  var mouse = { x: W / 2, y: H / 2 };

  var player;
  var enemies;
  var room;
  var swing = null; // { angle, time }
  var message = '';
  var messageTime = 0;
  var state = 'playing'; // playing | dead | won
  var unlocked = {};

  window.GameSDK.start();

  function unlock(name) {
    if (!unlocked[name]) {
      unlocked[name] = true;
      void window.GameSDK.unlock(name);
      say('Achievement: ' + name);
    }
  }

  function say(text) {
    message = text;
    messageTime = 2.5;
  }

  function newRun() {
    player = { x: W / 2, y: H - 100, r: 14, hp: 6, maxHp: 6, hurt: 0 };
    room = 0;
    state = 'playing';
    enterRoom();
  }

  function enterRoom() {
    room += 1;
    enemies = [];
    if (room < 3) {
      var count = 3 + room * 2;
      for (var i = 0; i < count; i++) {
        enemies.push(
          monster(80 + Math.random() * (W - 160), 70 + Math.random() * 220, 12, 2, 70 + room * 15),
        );
      }
      say('Room ' + room + ': clear it to open the door');
    } else {
      var boss = monster(W / 2, 150, 34, 18, 60);
      boss.isBoss = true;
      enemies.push(boss);
      say('The boss awakens!');
    }
    player.x = W / 2;
    player.y = H - 90;
  }

  function monster(x, y, r, hp, speed) {
    return {
      x: x,
      y: y,
      r: r,
      hp: hp,
      maxHp: hp,
      speed: speed,
      cooldown: 0,
      knock: { x: 0, y: 0 },
    };
  }

  window.addEventListener('keydown', function (event) {
    keys[event.code] = true;
    if ((state === 'dead' || state === 'won') && event.code === 'Space') {
      newRun();
    }
  });
  window.addEventListener('keyup', function (event) {
    keys[event.code] = false;
  });
  function toCanvas(event) {
    var rect = canvas.getBoundingClientRect();
    return {
      x: ((event.clientX - rect.left) / rect.width) * W,
      y: ((event.clientY - rect.top) / rect.height) * H,
    };
  }
  canvas.addEventListener('pointermove', function (event) {
    mouse = toCanvas(event);
  });
  canvas.addEventListener('pointerdown', function (event) {
    mouse = toCanvas(event);
    if (state !== 'playing') {
      newRun();
      return;
    }
    if (event.button === 0 && !swing) {
      attack();
    }
  });
  canvas.addEventListener('contextmenu', function (event) {
    event.preventDefault();
  });

  function attack() {
    var angle = Math.atan2(mouse.y - player.y, mouse.x - player.x);
    swing = { angle: angle, time: 0.18 };
    enemies.forEach(function (enemy) {
      var dx = enemy.x - player.x;
      var dy = enemy.y - player.y;
      var distance = Math.hypot(dx, dy);
      var diff = Math.abs(((Math.atan2(dy, dx) - angle + Math.PI * 3) % (Math.PI * 2)) - Math.PI);
      if (distance < 62 + enemy.r && diff < 1.1) {
        enemy.hp -= 1;
        enemy.knock = { x: (dx / distance) * 260, y: (dy / distance) * 260 };
      }
    });
    var before = enemies.length;
    enemies = enemies.filter(function (enemy) {
      if (enemy.hp <= 0 && enemy.isBoss) {
        unlock('Boss Slayer');
        state = 'won';
      }
      return enemy.hp > 0;
    });
    if (enemies.length < before) {
      unlock('First Blood');
    }
  }

  function clampToRoom(body) {
    body.x = Math.max(WALL + body.r, Math.min(W - WALL - body.r, body.x));
    body.y = Math.max(WALL + body.r, Math.min(H - WALL - body.r, body.y));
  }

  function update(dt) {
    if (messageTime > 0) {
      messageTime -= dt;
    }
    if (swing) {
      swing.time -= dt;
      if (swing.time <= 0) {
        swing = null;
      }
    }
    if (state !== 'playing') {
      return;
    }
    var mx = (keys.KeyD ? 1 : 0) - (keys.KeyA ? 1 : 0);
    var my = (keys.KeyS ? 1 : 0) - (keys.KeyW ? 1 : 0);
    var length = Math.hypot(mx, my) || 1;
    player.x += (mx / length) * 220 * dt;
    player.y += (my / length) * 220 * dt;
    clampToRoom(player);
    if (player.hurt > 0) {
      player.hurt -= dt;
    }

    enemies.forEach(function (enemy) {
      var dx = player.x - enemy.x;
      var dy = player.y - enemy.y;
      var distance = Math.hypot(dx, dy) || 1;
      enemy.x += ((dx / distance) * enemy.speed + enemy.knock.x) * dt;
      enemy.y += ((dy / distance) * enemy.speed + enemy.knock.y) * dt;
      enemy.knock.x *= 0.85;
      enemy.knock.y *= 0.85;
      clampToRoom(enemy);
      enemy.cooldown -= dt;
      if (distance < enemy.r + player.r && enemy.cooldown <= 0 && player.hurt <= 0) {
        player.hp -= enemy.isBoss ? 2 : 1;
        player.hurt = 0.6;
        enemy.cooldown = 0.8;
        if (player.hp <= 0) {
          state = 'dead';
        }
      }
    });

    // the door in the top wall opens once the room is clear
    if (
      enemies.length === 0 &&
      room < 3 &&
      player.y < WALL + player.r + 4 &&
      Math.abs(player.x - W / 2) < 40
    ) {
      enterRoom();
    }
  }

  function draw() {
    ctx.fillStyle = '#2b2620';
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = '#3a332b';
    for (var x = WALL; x < W - WALL; x += 40) {
      for (var y = WALL; y < H - WALL; y += 40) {
        if ((x + y) % 80 === 0) {
          ctx.fillRect(x, y, 40, 40);
        }
      }
    }
    ctx.strokeStyle = '#6b5d4a';
    ctx.lineWidth = WALL;
    ctx.strokeRect(WALL / 2, WALL / 2, W - WALL, H - WALL);
    // door
    ctx.fillStyle = enemies.length === 0 && room < 3 ? '#6fd3a6' : '#1a1510';
    ctx.fillRect(W / 2 - 40, 0, 80, WALL);

    enemies.forEach(function (enemy) {
      ctx.fillStyle = enemy.isBoss ? '#a23bd6' : '#e9573f';
      ctx.beginPath();
      ctx.arc(enemy.x, enemy.y, enemy.r, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = '#fff';
      ctx.fillRect(
        enemy.x - enemy.r,
        enemy.y - enemy.r - 10,
        enemy.r * 2 * (enemy.hp / enemy.maxHp),
        4,
      );
    });

    ctx.fillStyle = player.hurt > 0 && Math.floor(player.hurt * 20) % 2 ? '#fff' : '#4fc1e9';
    ctx.beginPath();
    ctx.arc(player.x, player.y, player.r, 0, Math.PI * 2);
    ctx.fill();
    if (swing) {
      ctx.strokeStyle = '#f6f1d8';
      ctx.lineWidth = 6;
      ctx.beginPath();
      ctx.arc(player.x, player.y, 48, swing.angle - 1, swing.angle + 1);
      ctx.stroke();
    }

    ctx.font = '18px monospace';
    ctx.textAlign = 'left';
    ctx.fillStyle = '#fff';
    ctx.fillText('HP ' + '\u2665'.repeat(Math.max(0, player.hp)), 44, H - 44);
    ctx.textAlign = 'right';
    ctx.fillText(room < 3 ? 'Room ' + room + ' / 3' : 'Boss room', W - 44, H - 44);
    ctx.textAlign = 'center';
    if (messageTime > 0) {
      ctx.fillText(message, W / 2, 64);
    }
    if (state !== 'playing') {
      ctx.fillStyle = 'rgba(0,0,0,0.6)';
      ctx.fillRect(0, H / 2 - 60, W, 120);
      ctx.fillStyle = '#fff';
      ctx.font = 'bold 36px monospace';
      ctx.fillText(
        state === 'won' ? 'The boss is beaten!' : 'You fell in the dungeon',
        W / 2,
        H / 2,
      );
      ctx.font = '18px monospace';
      ctx.fillText('Press Space or click to play again', W / 2, H / 2 + 36);
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
  newRun();
  requestAnimationFrame(frame);
})();
