import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunCodeResponse } from '@portfolio/types';

import type { TestApp } from '../../test/harness.js';
import { fresh, HELLO, postCode, startRunnerApp, TEST_DATA_DIR } from './test-support.js';

/**
 * Programs that try to break out or take the server down. Each must end with a clear answer
 * while the server goes on answering other requests.
 */

let app: TestApp;
const SECRET_FILE = path.join(TEST_DATA_DIR, `secret-${randomBytes(4).toString('hex')}.txt`);
const SECRET = `top-secret-${randomBytes(8).toString('hex')}`;
const THIS_FILE = fileURLToPath(import.meta.url);

beforeAll(async () => {
  ({ app } = await startRunnerApp({ maxWaiting: 8 }));
  writeFileSync(SECRET_FILE, SECRET);
}, 120_000);

afterAll(async () => {
  await app.stop();
});

/**
 * Submits a program and, while it is being handled, asks for /api/health: the event loop must
 * not be blocked by it. Reports whether the run had already finished when health answered.
 */
async function runWhileServing(code: string) {
  let isRunSettled = false;
  const running = postCode(app, fresh(code)).finally(() => {
    isRunSettled = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 150));
  const health = await app.client().get<{ ok: boolean }>('/api/health');
  const wasRunSettledAtHealth = isRunSettled;
  const response = await running;
  expect(health.status).toBe(200);
  expect(health.body).toEqual({ ok: true });
  expect(response.status).toBe(200);
  return { result: response.body as RunCodeResponse, wasRunSettledAtHealth };
}

/** Host processes whose name (comm) is `name`: what a sandbox might have left running. */
function processesNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) {
        pids.push(Number(entry));
      }
    } catch {
      // ended while we looked
    }
  }
  return pids;
}

describe.concurrent('hostile programs are contained', () => {
  it('a fork bomb hits the process limit and is stopped at the time limit', async () => {
    const { result, wasRunSettledAtHealth } = await runWhileServing(`
#include <cstdio>
#include <unistd.h>
int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  for (;;) {
    if (fork() < 0 && getpid() > 0) { std::printf("fork failed\\n"); for (;;) fork(); }
  }
}`);
    expect(wasRunSettledAtHealth).toBe(false);
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.output).toContain('fork failed');
    expect(result.output).toMatch(/\[Program stopped: it (ran longer than 5 s|used more than)/);
  });

  it('an endless loop is stopped by the CPU or wall-time limit', async () => {
    const { result, wasRunSettledAtHealth } = await runWhileServing(`
int main() { volatile unsigned long spins = 0; for (;;) { spins = spins + 1; } }`);
    expect(wasRunSettledAtHealth).toBe(false);
    expect(result).toMatchObject({ exitCode: null, timedOut: true, truncated: false });
    expect(result.output).toMatch(
      /\[Program stopped: it (used more than 2 s of CPU time|ran longer than 5 s)\]/,
    );
  });

  it('sleeping forever is stopped at the wall-time limit', async () => {
    const { result, wasRunSettledAtHealth } = await runWhileServing(`
#include <cstdio>
#include <unistd.h>
int main() { std::puts("going to sleep"); std::fflush(stdout); for (;;) sleep(1000); }`);
    expect(wasRunSettledAtHealth).toBe(false);
    expect(result).toEqual({
      output: 'going to sleep\n[Program stopped: it ran longer than 5 s]\n',
      exitCode: null,
      timedOut: true,
      truncated: false,
    });
  });

  it('a 1 GB allocation fails inside the memory limit', async () => {
    const { result } = await runWhileServing(`
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
int main() {
  void *block = std::malloc(1UL << 30);
  std::printf("malloc 1 GB: %s\\n", block ? "granted" : "refused");
  try {
    char *bytes = new char[1UL << 30];
    std::memset(bytes, 1, 1UL << 30);
    std::printf("new 1 GB: granted\\n");
  } catch (const std::bad_alloc &) {
    std::printf("new 1 GB: bad_alloc\\n");
  }
  return 0;
}`);
    expect(result).toEqual({
      output: 'malloc 1 GB: refused\nnew 1 GB: bad_alloc\n',
      exitCode: 0,
      timedOut: false,
      truncated: false,
    });
  });

  it('an output flood is cut at 64 KB with a notice, and the run ends at once', async () => {
    const { result } = await runWhileServing(`
#include <cstdio>
int main() { for (;;) std::fputs("flood flood flood flood flood flood flood flood\\n", stdout); }`);
    expect(result.truncated).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBeNull();
    expect(result.output).toMatch(/^flood flood/);
    expect(result.output.endsWith('\n[Output truncated: more than 64 KB]\n')).toBe(true);
    expect(Buffer.byteLength(result.output)).toBeLessThan(64 * 1024 + 100);
  });

  it('has no network: sockets cannot reach the internet or the server itself', async () => {
    const serverPort = new URL(app.url).port;
    const { result } = await runWhileServing(`
#include <arpa/inet.h>
#include <cstdio>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
static void attempt(const char *address, int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) { std::printf("%s: no socket\\n", address); return; }
  sockaddr_in target{};
  target.sin_family = AF_INET;
  target.sin_port = htons(port);
  inet_pton(AF_INET, address, &target.sin_addr);
  int rc = connect(fd, reinterpret_cast<sockaddr *>(&target), sizeof target);
  std::printf("%s:%d %s\\n", address, port, rc == 0 ? "CONNECTED" : "unreachable");
  close(fd);
}
int main() {
  attempt("1.1.1.1", 80);
  attempt("127.0.0.1", ${serverPort});
  return 0;
}`);
    expect(result.output).toBe(`1.1.1.1:80 unreachable\n127.0.0.1:${serverPort} unreachable\n`);
    expect(result.exitCode).toBe(0);
  });

  it('cannot create namespaces, gain privileges or see other processes', async () => {
    const { result } = await runWhileServing(`
#include <sched.h>
#include <cstdio>
#include <dirent.h>
#include <sys/mount.h>
#include <unistd.h>
int main() {
  std::printf("uid %s\\n", getuid() == 0 || geteuid() == 0 ? "ROOT" : "unprivileged");
  std::printf("new user namespace: %s\\n", unshare(CLONE_NEWUSER) == 0 ? "CREATED" : "refused");
  std::printf("mount: %s\\n", mount("none", "/tmp", "tmpfs", 0, nullptr) == 0 ? "MOUNTED" : "refused");
  std::printf("setuid(0): %s\\n", setuid(0) == 0 ? "ROOT" : "refused");
  std::printf("/proc: %s\\n", opendir("/proc/1") ? "VISIBLE" : "absent");
  return 0;
}`);
    expect(result.output).toBe(
      'uid unprivileged\nnew user namespace: refused\nmount: refused\nsetuid(0): refused\n/proc: absent\n',
    );
  });

  it('cannot read host files: /etc/shadow, the server source, the data folder', async () => {
    const paths = ['/etc/shadow', '/etc/passwd', THIS_FILE, SECRET_FILE, '/proc/1/environ'];
    const { result } = await runWhileServing(`
#include <cstdio>
int main() {
  const char *paths[] = {${paths.map((file) => JSON.stringify(file)).join(', ')}};
  for (const char *path : paths) {
    std::FILE *file = std::fopen(path, "r");
    char buffer[64] = {0};
    if (file && std::fgets(buffer, sizeof buffer, file)) { std::printf("READ %s: %s\\n", path, buffer); }
    else { std::printf("blocked %s\\n", path); }
  }
  return 0;
}`);
    expect(result.output).toBe(paths.map((file) => `blocked ${file}\n`).join(''));
    expect(result.output).not.toContain(SECRET);
  });

  it('cannot write outside its private /tmp', async () => {
    const marker = `escape-${randomBytes(4).toString('hex')}`;
    const targets = [
      `/usr/${marker}`,
      `/${marker}`,
      `/opt/runner/${marker}`,
      `/dev/${marker}`,
      path.join(TEST_DATA_DIR, marker),
      path.join(path.dirname(THIS_FILE), marker),
    ];
    const { result } = await runWhileServing(`
#include <cstdio>
int main() {
  const char *targets[] = {${targets.map((file) => JSON.stringify(file)).join(', ')}};
  for (const char *target : targets) {
    std::FILE *file = std::fopen(target, "w");
    std::printf("%s %s\\n", file ? "WROTE" : "blocked", target);
  }
  std::FILE *own = std::fopen("/tmp/own.txt", "w");
  std::printf("/tmp: %s\\n", own ? "writable" : "blocked");
  return 0;
}`);
    expect(result.output).toBe(
      `${targets.map((target) => `blocked ${target}\n`).join('')}/tmp: writable\n`,
    );
    for (const target of targets) {
      expect(existsSync(target)).toBe(false);
    }
  });

  it('#include "/dev/zero" fails to compile without hurting the server', async () => {
    const { result } = await runWhileServing('#include "/dev/zero"\nint main() { return 0; }');
    expect(result.exitCode).toBeNull();
    expect(result.output).toMatch(/cc1plus: out of memory|Compilation stopped/);
  });

  it('#include </dev/random> fails to compile without hurting the server', async () => {
    const { result } = await runWhileServing('#include </dev/random>\nint main() { return 0; }');
    expect(result.exitCode).toBeNull();
    expect(result.output).toMatch(/cc1plus: out of memory|Compilation stopped/);
  });

  it('symlinks made in the build folder lead nowhere on the host', async () => {
    const { result } = await runWhileServing(`
#include <cstdio>
#include <unistd.h>
int main() {
  // point files of the build folder at the host's secrets and at the next run's paths
  symlink("/etc/shadow", "/tmp/shadow");
  symlink(${JSON.stringify(SECRET_FILE)}, "/tmp/secret");
  unlink("/tmp/main.cpp");
  symlink(${JSON.stringify(SECRET_FILE)}, "/tmp/main.cpp");
  symlink("/tmp", "/tmp/prog.d");
  const char *links[] = {"/tmp/shadow", "/tmp/secret", "/tmp/main.cpp"};
  for (const char *link : links) {
    std::FILE *file = std::fopen(link, "r");
    std::printf("%s %s\\n", file ? "OPENED" : "dangling", link);
  }
  std::FILE *through = std::fopen("/tmp/secret", "w");
  std::printf("write through link: %s\\n", through ? "WROTE" : "blocked");
  return 0;
}`);
    expect(result.output).toBe(
      'dangling /tmp/shadow\ndangling /tmp/secret\ndangling /tmp/main.cpp\nwrite through link: blocked\n',
    );
    expect(readFileSync(SECRET_FILE, 'utf8')).toBe(SECRET);
    // the next run starts from a clean folder
    const next = await postCode(app, fresh(HELLO));
    expect(next.body.output).toBe('Hello, World!\n');
  });
});

describe('what a program leaves behind', () => {
  it('a child left running after the program exits is killed', async () => {
    const name = `left${randomBytes(4).toString('hex')}`;
    const { result } = await runWhileServing(`
#include <cstdio>
#include <sys/prctl.h>
#include <unistd.h>
int main() {
  if (fork() == 0) {
    setsid();
    prctl(PR_SET_NAME, "${name}");
    for (;;) sleep(1);
  }
  sleep(1);  // the child is named and running now
  std::puts("parent exits");
  return 0;
}`);
    expect(result).toEqual({
      output: 'parent exits\n',
      exitCode: 0,
      timedOut: false,
      truncated: false,
    });
    expect(processesNamed(name)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(processesNamed(name)).toEqual([]);
  });

  it('many concurrent submissions: some wait, the rest get 429, none fail', async () => {
    const sources = Array.from({ length: 24 }, (_, index) =>
      fresh(`#include <iostream>\nint main() { std::cout << "run ${index}" << std::endl; }`),
    );
    const responses = await Promise.all(sources.map((source) => postCode(app, source)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    responses.forEach((response, index) => {
      if (response.status === 200) {
        expect(response.body.output).toBe(`run ${index}\n`);
      } else {
        expect(response.body.error.code).toBe('RUNNER_BUSY');
        expect(response.headers.get('retry-after')).toBe('5');
      }
    });
    // the queue drains and the runner is as good as new
    const after = await postCode(app, fresh(HELLO));
    expect(after.status).toBe(200);
    expect(after.body.output).toBe('Hello, World!\n');
  });
});
