// Competitive Multiplayer: a dogfight for two planes on one keyboard. Red: A/D turn, W faster,
// S slower, left Ctrl fires. Blue: the arrow keys and right Ctrl. Three hits down a plane; five
// kills win the match. Unlocks 'First Kill' and 'Ace' (a match won).
(function () {
  'use strict';

  var canvas = document.getElementById('game');
  var ctx = canvas.getContext('2d');
  var W = canvas.width;
  var H = canvas.height;
  var KILLS_TO_WIN = 5;
  var keys = {};
  var planes;
  var bullets = [];
  var clouds = [];
  var winner = null;
  var unlocked = {};

  window.GameSDK.start();

  function unlock(name) {
    if (!unlocked[name]) {
      unlocked[name] = true;
      void window.GameSDK.unlock(name);
    }
  }

  function makePlane(name, color, x, angle, controls) {
    return {
      name: name,
      color: color,
      x: x,
      y: H / 2,
      angle: angle,
      speed: 160,
      hp: 3,
      kills: 0,
      cooldown: 0,
      respawn: 0,
      startX: x,
      startAngle: angle,
      controls: controls,
    };
  }

  function newMatch() {
    planes = [
      makePlane('Red', '#e9573f', 120, 0, {
        left: 'KeyA',
        right: 'KeyD',
        fast: 'KeyW',
        slow: 'KeyS',
        fire: 'ControlLeft',
      }),
      makePlane('Blue', '#3b6fd8', W - 120, Math.PI, {
        left: 'ArrowLeft',
        right: 'ArrowRight',
        fast: 'ArrowUp',
        slow: 'ArrowDown',
        fire: 'ControlRight',
      }),
    ];
    bullets = [];
    winner = null;
  }

  for (var i = 0; i < 7; i++) {
    clouds.push({ x: Math.random() * W, y: Math.random() * H, r: 30 + Math.random() * 40 });
  }

  window.addEventListener('keydown', function (event) {
    keys[event.code] = true;
    if (event.code.indexOf('Arrow') === 0 || event.code === 'Space' || event.key === 'Control') {
      event.preventDefault();
    }
    if (winner && event.code === 'Space') {
      newMatch();
    }
  });
  window.addEventListener('keyup', function (event) {
    keys[event.code] = false;
  });
  canvas.addEventListener('pointerdown', function () {
    if (winner) {
      newMatch();
    }
  });

  function wrap(body) {
    body.x = (body.x + W) % W;
    body.y = (body.y + H) % H;
  }

  function update(dt) {
    if (winner) {
      return;
    }
    planes.forEach(function (plane) {
      if (plane.respawn > 0) {
        plane.respawn -= dt;
        if (plane.respawn <= 0) {
          plane.hp = 3;
          plane.x = plane.startX;
          plane.y = H / 2;
          plane.angle = plane.startAngle;
        }
        return;
      }
      var c = plane.controls;
      plane.angle += ((keys[c.right] ? 1 : 0) - (keys[c.left] ? 1 : 0)) * 3 * dt;
      var target = keys[c.fast] ? 260 : keys[c.slow] ? 110 : 170;
      plane.speed += (target - plane.speed) * Math.min(1, 2 * dt);
      plane.x += Math.cos(plane.angle) * plane.speed * dt;
      plane.y += Math.sin(plane.angle) * plane.speed * dt;
      wrap(plane);
      plane.cooldown -= dt;
      if (keys[c.fire] && plane.cooldown <= 0) {
        plane.cooldown = 0.25;
        bullets.push({
          owner: plane,
          x: plane.x + Math.cos(plane.angle) * 22,
          y: plane.y + Math.sin(plane.angle) * 22,
          vx: Math.cos(plane.angle) * 480,
          vy: Math.sin(plane.angle) * 480,
          life: 1.3,
        });
      }
    });
    bullets.forEach(function (bullet) {
      bullet.x += bullet.vx * dt;
      bullet.y += bullet.vy * dt;
      bullet.life -= dt;
      wrap(bullet);
      planes.forEach(function (plane) {
        if (plane === bullet.owner || plane.respawn > 0 || bullet.life <= 0) {
          return;
        }
        if (Math.hypot(plane.x - bullet.x, plane.y - bullet.y) < 18) {
          bullet.life = 0;
          plane.hp -= 1;
          if (plane.hp <= 0) {
            plane.respawn = 1.5;
            bullet.owner.kills += 1;
            unlock('First Kill');
            if (bullet.owner.kills >= KILLS_TO_WIN) {
              winner = bullet.owner;
              unlock('Ace');
            }
          }
        }
      });
    });
    bullets = bullets.filter(function (bullet) {
      return bullet.life > 0;
    });
  }

  function drawPlane(plane) {
    ctx.save();
    ctx.translate(plane.x, plane.y);
    ctx.rotate(plane.angle);
    ctx.fillStyle = plane.color;
    ctx.fillRect(-18, -4, 36, 8); // body
    ctx.fillRect(-4, -18, 10, 36); // wings
    ctx.fillRect(-18, -9, 6, 18); // tail
    ctx.fillStyle = '#222';
    ctx.fillRect(16, -2, 4, 4);
    ctx.restore();
  }

  function draw() {
    ctx.fillStyle = '#9fd0f2';
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = 'rgba(255,255,255,0.7)';
    clouds.forEach(function (cloud) {
      ctx.beginPath();
      ctx.ellipse(cloud.x, cloud.y, cloud.r, cloud.r / 3, 0, 0, Math.PI * 2);
      ctx.fill();
    });
    ctx.fillStyle = '#222';
    bullets.forEach(function (bullet) {
      ctx.fillRect(bullet.x - 2, bullet.y - 2, 4, 4);
    });
    planes.forEach(function (plane) {
      if (plane.respawn > 0) {
        ctx.fillStyle = 'rgba(80,80,80,' + plane.respawn / 1.5 + ')';
        ctx.beginPath();
        ctx.arc(plane.x, plane.y, 30 * (1.6 - plane.respawn), 0, Math.PI * 2);
        ctx.fill();
      } else {
        drawPlane(plane);
      }
    });
    ctx.font = 'bold 20px monospace';
    ctx.textAlign = 'left';
    ctx.fillStyle = planes[0].color;
    ctx.fillText(
      'Red ' + planes[0].kills + '  ' + '\u2665'.repeat(Math.max(0, planes[0].hp)),
      16,
      30,
    );
    ctx.textAlign = 'right';
    ctx.fillStyle = planes[1].color;
    ctx.fillText(
      '\u2665'.repeat(Math.max(0, planes[1].hp)) + '  ' + planes[1].kills + ' Blue',
      W - 16,
      30,
    );
    if (winner) {
      ctx.fillStyle = 'rgba(0,0,0,0.55)';
      ctx.fillRect(0, H / 2 - 60, W, 120);
      ctx.fillStyle = '#fff';
      ctx.textAlign = 'center';
      ctx.font = 'bold 36px monospace';
      ctx.fillText(winner.name + ' wins the dogfight!', W / 2, H / 2);
      ctx.font = '18px monospace';
      ctx.fillText('Press Space or click for a new match', W / 2, H / 2 + 34);
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
  newMatch();
  requestAnimationFrame(frame);
})();
