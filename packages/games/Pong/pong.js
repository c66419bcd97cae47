// Pong for two players on one keyboard: W/S move the left paddle, the arrow keys the right one.
// The high score (most points one player reached in a match) is kept through the game SDK, and
// the first point of a session unlocks 'First Point'.
(function () {
  'use strict';

  var canvas = document.getElementById('game');
  var ctx = canvas.getContext('2d');
  var W = canvas.width;
  var H = canvas.height;
  var PADDLE_W = 12;
  var PADDLE_H = 90;
  var PADDLE_SPEED = 420; // px per second
  var BALL_SIZE = 12;
  var WIN_SCORE = 7;

  var keys = {};
  var left = { y: H / 2 - PADDLE_H / 2, score: 0 };
  var right = { y: H / 2 - PADDLE_H / 2, score: 0 };
  var ball = { x: W / 2, y: H / 2, vx: 0, vy: 0 };
  var serveIn = 1; // seconds until the next serve
  var serveDirection = Math.random() < 0.5 ? -1 : 1;
  var winner = null;
  var highScore = 0;
  var firstPointUnlocked = false;

  window.GameSDK.start();
  window.GameSDK.load().then(function (saved) {
    if (saved && typeof saved.highScore === 'number') {
      highScore = Math.max(highScore, saved.highScore);
    }
  });

  window.addEventListener('keydown', function (event) {
    keys[event.code] = true;
    if (['ArrowUp', 'ArrowDown', 'Space'].indexOf(event.code) !== -1) {
      event.preventDefault();
    }
    if (event.code === 'Space' && winner) {
      newMatch();
    }
  });
  window.addEventListener('keyup', function (event) {
    keys[event.code] = false;
  });
  canvas.addEventListener('pointerdown', function () {
    canvas.focus();
    if (winner) {
      newMatch();
    }
  });
  canvas.tabIndex = 0;

  function newMatch() {
    left.score = 0;
    right.score = 0;
    winner = null;
    resetBall();
  }

  function resetBall() {
    ball.x = W / 2;
    ball.y = H / 2;
    ball.vx = 0;
    ball.vy = 0;
    serveIn = 1;
  }

  function serve() {
    var angle = (Math.random() * 0.8 - 0.4) * Math.PI * 0.5;
    var speed = 360;
    ball.vx = Math.cos(angle) * speed * serveDirection;
    ball.vy = Math.sin(angle) * speed + (Math.random() < 0.5 ? -120 : 120);
    serveDirection = -serveDirection;
  }

  function movePaddle(paddle, up, down, dt) {
    var dir = (keys[down] ? 1 : 0) - (keys[up] ? 1 : 0);
    paddle.y = Math.max(0, Math.min(H - PADDLE_H, paddle.y + dir * PADDLE_SPEED * dt));
  }

  function bounceOff(paddle, paddleX, direction) {
    var hitY = (ball.y + BALL_SIZE / 2 - (paddle.y + PADDLE_H / 2)) / (PADDLE_H / 2);
    var speed = Math.min(900, Math.hypot(ball.vx, ball.vy) * 1.06);
    var angle = hitY * Math.PI * 0.3;
    ball.vx = Math.cos(angle) * speed * direction;
    ball.vy = Math.sin(angle) * speed;
    ball.x = direction > 0 ? paddleX + PADDLE_W : paddleX - BALL_SIZE;
  }

  function overlaps(paddle, paddleX) {
    return (
      ball.x < paddleX + PADDLE_W &&
      ball.x + BALL_SIZE > paddleX &&
      ball.y < paddle.y + PADDLE_H &&
      ball.y + BALL_SIZE > paddle.y
    );
  }

  function pointTo(player) {
    player.score += 1;
    if (!firstPointUnlocked) {
      firstPointUnlocked = true;
      void window.GameSDK.unlock('First Point');
    }
    if (player.score > highScore) {
      highScore = player.score;
      void window.GameSDK.save({ highScore: highScore });
    }
    if (player.score >= WIN_SCORE) {
      winner = player === left ? 'Left player' : 'Right player';
    }
    resetBall();
  }

  function update(dt) {
    movePaddle(left, 'KeyW', 'KeyS', dt);
    movePaddle(right, 'ArrowUp', 'ArrowDown', dt);
    if (winner) {
      return;
    }
    if (ball.vx === 0 && ball.vy === 0) {
      serveIn -= dt;
      if (serveIn <= 0) {
        serve();
      }
      return;
    }
    ball.x += ball.vx * dt;
    ball.y += ball.vy * dt;
    if (ball.y < 0) {
      ball.y = 0;
      ball.vy = Math.abs(ball.vy);
    } else if (ball.y + BALL_SIZE > H) {
      ball.y = H - BALL_SIZE;
      ball.vy = -Math.abs(ball.vy);
    }
    var leftX = 24;
    var rightX = W - 24 - PADDLE_W;
    if (ball.vx < 0 && overlaps(left, leftX)) {
      bounceOff(left, leftX, 1);
    } else if (ball.vx > 0 && overlaps(right, rightX)) {
      bounceOff(right, rightX, -1);
    }
    if (ball.x + BALL_SIZE < 0) {
      pointTo(right);
    } else if (ball.x > W) {
      pointTo(left);
    }
  }

  function draw() {
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = '#444';
    for (var y = 10; y < H; y += 30) {
      ctx.fillRect(W / 2 - 2, y, 4, 16);
    }
    ctx.fillStyle = '#fff';
    ctx.fillRect(24, left.y, PADDLE_W, PADDLE_H);
    ctx.fillRect(W - 24 - PADDLE_W, right.y, PADDLE_W, PADDLE_H);
    ctx.fillRect(ball.x, ball.y, BALL_SIZE, BALL_SIZE);
    ctx.font = 'bold 56px monospace';
    ctx.textAlign = 'center';
    ctx.fillText(String(left.score), W / 4, 72);
    ctx.fillText(String(right.score), (W * 3) / 4, 72);
    ctx.font = '16px monospace';
    ctx.fillStyle = '#9ab';
    ctx.fillText('High score ' + highScore + '   W/S  vs  \u2191/\u2193', W / 2, H - 16);
    if (winner) {
      ctx.fillStyle = '#fff';
      ctx.font = 'bold 32px monospace';
      ctx.fillText(winner + ' wins!', W / 2, H / 2 - 20);
      ctx.font = '18px monospace';
      ctx.fillText('Press Space or click to play again', W / 2, H / 2 + 20);
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
  requestAnimationFrame(frame);
})();
