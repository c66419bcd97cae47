// Android Mobile Game: a side-scrolling platformer. Arrow keys move, Space jumps; on a touch
// screen, buttons at the bottom do the same. Collect coins and avoid the spikes.
// Unlocks 'First Coin' and 'Coin Collector' (ten coins in one run).
(function () {
  'use strict';

  var canvas = document.getElementById('game');
  var ctx = canvas.getContext('2d');
  var W = canvas.width;
  var H = canvas.height;
  var GROUND = H - 60;
  var GRAVITY = 1900;
  var keys = {};
  var touch = { left: false, right: false, jump: false };
  var isTouchDevice = false;

  var player;
  var cameraX;
  var platforms;
  var coins;
  var spikes;
  var score;
  var best = 0;
  var isOver;
  var unlocked = {};

  window.GameSDK.start();

  function unlock(name) {
    if (!unlocked[name]) {
      unlocked[name] = true;
      void window.GameSDK.unlock(name);
    }
  }

  /** The level is built in chunks ahead of the player, so it never ends. */
  var builtTo;
  function buildUntil(x) {
    while (builtTo < x) {
      var start = builtTo + 120 + Math.random() * 120;
      var height = GROUND - 80 - Math.random() * 140;
      var width = 120 + Math.random() * 120;
      platforms.push({ x: start, y: height, w: width });
      for (var c = 0; c < 3; c++) {
        coins.push({ x: start + 20 + c * ((width - 40) / 2), y: height - 30, taken: false });
      }
      if (Math.random() < 0.7) {
        spikes.push({ x: start + width + 40 + Math.random() * 60, w: 36 });
      }
      coins.push({ x: start + width + 150, y: GROUND - 30, taken: false });
      builtTo = start + width + 200;
    }
  }

  function newRun() {
    player = { x: 80, y: GROUND - 40, vx: 0, vy: 0, w: 28, h: 40, onGround: true };
    cameraX = 0;
    platforms = [];
    coins = [];
    spikes = [];
    builtTo = 400;
    score = 0;
    isOver = false;
    buildUntil(W * 2);
  }

  window.addEventListener('keydown', function (event) {
    keys[event.code] = true;
    if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Space'].indexOf(event.code) !== -1) {
      event.preventDefault();
    }
    if (isOver && event.code === 'Space') {
      newRun();
    }
  });
  window.addEventListener('keyup', function (event) {
    keys[event.code] = false;
  });

  // touch controls: real buttons (index.html) of 44 px or more, shown from the start on a touch
  // screen (issue 28: they were 33x29 px drawn on the canvas and appeared only after a touch)
  var controls = document.getElementById('touch-controls');
  var controlButtons = controls ? controls.querySelectorAll('button[data-control]') : [];
  function canTouch() {
    return (
      (navigator.maxTouchPoints || 0) > 0 ||
      'ontouchstart' in window ||
      (window.matchMedia ? window.matchMedia('(pointer: coarse)').matches : false)
    );
  }
  function showTouchControls() {
    isTouchDevice = true;
    if (controls) {
      controls.hidden = false;
    }
  }
  if (canTouch()) {
    showTouchControls();
  }
  function press(button, isDown) {
    var name = button.getAttribute('data-control');
    if (name === 'left' || name === 'right' || name === 'jump') {
      touch[name] = isDown;
      button.setAttribute('aria-pressed', isDown ? 'true' : 'false');
    }
  }
  Array.prototype.forEach.call(controlButtons, function (button) {
    button.addEventListener('pointerdown', function (event) {
      event.preventDefault();
      if (button.setPointerCapture) {
        try {
          button.setPointerCapture(event.pointerId);
        } catch (ignored) {
          // a synthetic pointer has no capture
        }
      }
      if (isOver) {
        newRun();
      }
      press(button, true);
    });
    ['pointerup', 'pointercancel', 'lostpointercapture'].forEach(function (type) {
      button.addEventListener(type, function () {
        press(button, false);
      });
    });
    // no long-press menu, no double-tap zoom
    button.addEventListener('contextmenu', function (event) {
      event.preventDefault();
    });
    button.addEventListener(
      'touchstart',
      function (event) {
        event.preventDefault();
      },
      { passive: false },
    );
  });
  // a touch on the game itself: the controls show (a screen that said nothing of touch), and
  // after a fall it starts a new run
  canvas.addEventListener(
    'touchstart',
    function (event) {
      event.preventDefault();
      showTouchControls();
      if (isOver) {
        newRun();
      }
    },
    { passive: false },
  );

  function overlaps(a, b) {
    return a.x < b.x + b.w && a.x + a.w > b.x && a.y < b.y + b.h && a.y + a.h > b.y;
  }

  function update(dt) {
    if (isOver) {
      return;
    }
    var direction =
      (keys.ArrowRight || touch.right ? 1 : 0) - (keys.ArrowLeft || touch.left ? 1 : 0);
    player.vx = direction * 300;
    if ((keys.Space || keys.ArrowUp || touch.jump) && player.onGround) {
      player.vy = -760;
      player.onGround = false;
    }
    player.vy += GRAVITY * dt;
    player.x = Math.max(cameraX, player.x + player.vx * dt);
    var previousBottom = player.y + player.h;
    player.y += player.vy * dt;
    player.onGround = false;
    if (player.y + player.h >= GROUND) {
      player.y = GROUND - player.h;
      player.vy = 0;
      player.onGround = true;
    }
    platforms.forEach(function (p) {
      var isAbove = previousBottom <= p.y + 1;
      var isWithin = player.x + player.w > p.x && player.x < p.x + p.w;
      if (player.vy >= 0 && isAbove && isWithin && player.y + player.h >= p.y) {
        player.y = p.y - player.h;
        player.vy = 0;
        player.onGround = true;
      }
    });
    coins.forEach(function (coin) {
      if (!coin.taken && overlaps(player, { x: coin.x - 10, y: coin.y - 10, w: 20, h: 20 })) {
        coin.taken = true;
        score += 1;
        unlock('First Coin');
        if (score >= 10) {
          unlock('Coin Collector');
        }
      }
    });
    spikes.forEach(function (spike) {
      if (overlaps(player, { x: spike.x + 6, y: GROUND - 20, w: spike.w - 12, h: 20 })) {
        isOver = true;
        best = Math.max(best, score);
      }
    });
    cameraX = Math.max(cameraX, player.x - W / 3);
    buildUntil(cameraX + W * 2);
  }

  function draw() {
    var sky = ctx.createLinearGradient(0, 0, 0, H);
    sky.addColorStop(0, '#6ec6ff');
    sky.addColorStop(1, '#c9ecff');
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = '#ffffffaa';
    for (var i = 0; i < 6; i++) {
      var cx = ((((i * 260 - cameraX * 0.3) % (W + 200)) + W + 200) % (W + 200)) - 100;
      ctx.beginPath();
      ctx.ellipse(cx, 70 + (i % 3) * 40, 60, 18, 0, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.save();
    ctx.translate(-cameraX, 0);
    ctx.fillStyle = '#8a5a2b';
    ctx.fillRect(cameraX, GROUND, W, H - GROUND);
    ctx.fillStyle = '#5fb84a';
    ctx.fillRect(cameraX, GROUND, W, 10);
    platforms.forEach(function (p) {
      ctx.fillStyle = '#8a5a2b';
      ctx.fillRect(p.x, p.y, p.w, 18);
      ctx.fillStyle = '#5fb84a';
      ctx.fillRect(p.x, p.y, p.w, 6);
    });
    spikes.forEach(function (spike) {
      ctx.fillStyle = '#555';
      for (var s = 0; s < spike.w; s += 12) {
        ctx.beginPath();
        ctx.moveTo(spike.x + s, GROUND);
        ctx.lineTo(spike.x + s + 6, GROUND - 20);
        ctx.lineTo(spike.x + s + 12, GROUND);
        ctx.fill();
      }
    });
    coins.forEach(function (coin) {
      if (!coin.taken) {
        ctx.fillStyle = '#f6c453';
        ctx.strokeStyle = '#c28a14';
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(coin.x, coin.y, 9, 0, Math.PI * 2);
        ctx.fill();
        ctx.stroke();
      }
    });
    ctx.fillStyle = '#e9573f';
    ctx.fillRect(player.x, player.y + 12, player.w, player.h - 12);
    ctx.fillStyle = '#ffd2a6';
    ctx.beginPath();
    ctx.arc(player.x + player.w / 2, player.y + 8, 10, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();

    ctx.fillStyle = '#1b1e2b';
    ctx.font = 'bold 22px sans-serif';
    ctx.textAlign = 'left';
    ctx.fillText('Coins ' + score + '   Best ' + best, 20, 34);
    if (isOver) {
      ctx.fillStyle = 'rgba(0,0,0,0.55)';
      ctx.fillRect(0, H / 2 - 60, W, 120);
      ctx.fillStyle = '#fff';
      ctx.textAlign = 'center';
      ctx.font = 'bold 34px sans-serif';
      ctx.fillText('Ouch! ' + score + ' coins', W / 2, H / 2);
      ctx.font = '18px sans-serif';
      ctx.fillText(
        isTouchDevice ? 'Tap to run again' : 'Press Space to run again',
        W / 2,
        H / 2 + 34,
      );
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
