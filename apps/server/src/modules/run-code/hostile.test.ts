import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunCodeBackend, RunCodeResponse } from '@portfolio/types';

import type { TestApp } from '../../test/harness.js';
import { scaled } from '../../test/slow-machine.js';
import { createNativeBackend } from './native-backend.js';
import {
  fresh,
  HAS_NATIVE,
  HELLO,
  postCode,
  startRunnerApp,
  TEST_BACKENDS,
  TEST_DATA_DIR,
  TEST_RUN_DIR,
} from './test-support.js';

/**
 * Programs that try to break out or take the server down. Each must end with a clear answer
 * while the server goes on answering other requests.
 */

let app: TestApp;
let wasmApp: TestApp;
const SECRET_FILE = path.join(TEST_DATA_DIR, `secret-${randomBytes(4).toString('hex')}.txt`);
const SECRET = `top-secret-${randomBytes(8).toString('hex')}`;
const THIS_FILE = fileURLToPath(import.meta.url);

beforeAll(async () => {
  if (HAS_NATIVE) {
    ({ app } = await startRunnerApp({ backend: 'native', maxWaiting: 8 }));
  }
  // CI runs the native backend (root, bubblewrap) and, here, the WebAssembly one explicitly
  ({ app: wasmApp } = await startRunnerApp({ backend: 'wasm', maxWaiting: 16 }));
  writeFileSync(SECRET_FILE, SECRET);
}, scaled(300_000));

afterAll(async () => {
  await app?.stop();
  await wasmApp.stop();
});

const appFor = (backend: RunCodeBackend) => (backend === 'native' ? app : wasmApp);

/**
 * Submits a program and, while it is being handled, asks for /api/health: the event loop must
 * not be blocked by it. Reports whether the run had already finished when health answered.
 */
async function runWhileServing(code: string, backend: RunCodeBackend = 'native') {
  const server = appFor(backend);
  let isRunSettled = false;
  const running = postCode(server, fresh(code)).finally(() => {
    isRunSettled = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 150));
  const health = await server.client().get<{ ok: boolean }>('/api/health');
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

/** Programs every backend must contain, with what each one answers. */
describe.concurrent.each(TEST_BACKENDS)('%s: hostile programs are contained', (backend) => {
  const isWasm = backend === 'wasm';

  it(
    'an endless loop is stopped by the CPU or wall-time limit',
    { timeout: scaled(180_000) },
    async () => {
      const { result, wasRunSettledAtHealth } = await runWhileServing(
        `int main() { volatile unsigned long spins = 0; for (;;) { spins = spins + 1; } }`,
        backend,
      );
      expect(wasRunSettledAtHealth).toBe(false);
      expect(result).toMatchObject({ exitCode: null, timedOut: true, truncated: false, backend });
      expect(result.output).toMatch(
        /\[Program stopped: it (used more than 2 s of CPU time|ran longer than 5 s)\]/,
      );
    },
  );

  it(
    'sleeping forever is stopped at the wall-time limit',
    { timeout: scaled(180_000) },
    async () => {
      const { result } = await runWhileServing(
        `#include <cstdio>
#include <unistd.h>
int main() { std::puts("going to sleep"); std::fflush(stdout); for (;;) sleep(1000); }`,
        backend,
      );
      expect(result).toMatchObject({
        output: 'going to sleep\n[Program stopped: it ran longer than 5 s]\n',
        exitCode: null,
        signal: 'SIGKILL',
        timedOut: true,
        truncated: false,
      });
    },
  );

  it('a 1 GB allocation fails inside the memory limit', { timeout: scaled(180_000) }, async () => {
    const { result } = await runWhileServing(
      `#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
volatile unsigned long size = 1UL << 30;
char *volatile kept;
int main() {
  kept = static_cast<char *>(std::malloc(size));
  std::printf("malloc 1 GB: %s\\n", kept ? "granted" : "refused");
  kept = new (std::nothrow) char[size];
  if (kept) { std::memset(kept, 1, size); }
  std::printf("new 1 GB: %s\\n", kept ? "granted" : "refused");
  return 0;
}`,
      backend,
    );
    expect(result).toMatchObject({
      output: 'malloc 1 GB: refused\nnew 1 GB: refused\n',
      exitCode: 0,
      timedOut: false,
      truncated: false,
    });
  });

  it(
    'an output flood is cut at 64 KB with a notice, and the run ends at once',
    { timeout: scaled(180_000) },
    async () => {
      const { result } = await runWhileServing(
        `#include <cstdio>
int main() { for (;;) std::fputs("flood flood flood flood flood flood flood flood\\n", stdout); }`,
        backend,
      );
      expect(result.truncated).toBe(true);
      expect(result.timedOut).toBe(false);
      expect(result.exitCode).toBeNull();
      expect(result.output).toMatch(/^flood flood/);
      expect(result.output.endsWith('\n[Output truncated: more than 64 KB]\n')).toBe(true);
      expect(Buffer.byteLength(result.output)).toBeLessThan(64 * 1024 + 100);
    },
  );

  it(
    'has no network: sockets cannot reach the internet or the server itself',
    { timeout: scaled(180_000) },
    async () => {
      const serverPort = new URL(appFor(backend).url).port;
      const { result } = await runWhileServing(
        `#include <arpa/inet.h>
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
}`,
        backend,
      );
      if (isWasm) {
        // WASI preview 1 has no socket() or connect(): such a program does not even compile
        expect(result.compiled).toBe(false);
        expect(result.output).toMatch(/error: .*(socket|connect)/);
      } else {
        // the seccomp filter refuses the socket itself (only AF_UNIX is allowed)
        expect(result.output).toBe('1.1.1.1: no socket\n127.0.0.1: no socket\n');
        expect(result.exitCode).toBe(0);
      }
    },
  );

  it(
    'cannot read host files: /etc/shadow, the server source, the data folder',
    { timeout: scaled(180_000) },
    async () => {
      const paths = ['/etc/shadow', '/etc/passwd', THIS_FILE, SECRET_FILE, '/proc/1/environ'];
      const { result } = await runWhileServing(
        `#include <cstdio>
int main() {
  const char *paths[] = {${paths.map((file) => JSON.stringify(file)).join(', ')}};
  for (const char *path : paths) {
    std::FILE *file = std::fopen(path, "r");
    char buffer[64] = {0};
    if (file && std::fgets(buffer, sizeof buffer, file)) { std::printf("READ %s: %s\\n", path, buffer); }
    else { std::printf("blocked %s\\n", path); }
  }
  return 0;
}`,
        backend,
      );
      expect(result.output).toBe(paths.map((file) => `blocked ${file}\n`).join(''));
      expect(result.output).not.toContain(SECRET);
    },
  );

  it(
    'cannot write outside its private /tmp (WebAssembly: anywhere)',
    { timeout: scaled(180_000) },
    async () => {
      const marker = `escape-${randomBytes(4).toString('hex')}`;
      const targets = [`/usr/${marker}`, `/${marker}`, path.join(TEST_DATA_DIR, marker)];
      const { result } = await runWhileServing(
        `#include <cstdio>
int main() {
  const char *targets[] = {${targets.map((file) => JSON.stringify(file)).join(', ')}};
  for (const char *target : targets) {
    std::FILE *file = std::fopen(target, "w");
    std::printf("%s %s\\n", file ? "WROTE" : "blocked", target);
  }
  std::FILE *own = std::fopen("/tmp/own.txt", "w");
  std::printf("/tmp: %s\\n", own ? "writable" : "blocked");
  return 0;
}`,
        backend,
      );
      expect(result.output).toBe(
        `${targets.map((target) => `blocked ${target}\n`).join('')}/tmp: ${isWasm ? 'blocked' : 'writable'}\n`,
      );
      for (const target of targets) {
        expect(existsSync(target)).toBe(false);
      }
    },
  );

  it('#include of a device is refused before compiling, however it is spelt', async () => {
    for (const source of [
      '#include "/dev/zero"\nint main() { return 0; }',
      '#include </dev/random>\nint main() { return 0; }',
      '#define DEVICE </dev/ptmx>\n#include DEVICE\nint main() { return 0; }',
      '#\\\ninclude </dev/tty>\nint main() { return 0; }',
    ]) {
      const { result } = await runWhileServing(source, backend);
      expect(result).toMatchObject({ exitCode: null, compiled: false, durationMs: 0 });
      expect(result.output).toMatch(/error: #include (of .* is not allowed|must name)/);
    }
  });

  it(
    'compile-time bombs end in an error or the compile limit, never a hang',
    { timeout: scaled(180_000) },
    async () => {
      const deepTemplates = `template <int N> struct Deep { static constexpr int value = Deep<N + 1>::value; };
int main() { return Deep<0>::value; }`;
      const constexprLoop = `constexpr long spin() { long sum = 0; for (long i = 0; i < (1L << 40); i++) sum += i; return sum; }
static_assert(spin() > 0, "never");
int main() {}`;
      for (const source of [deepTemplates, constexprLoop]) {
        const { result } = await runWhileServing(source, backend);
        expect(result).toMatchObject({ exitCode: null, compiled: false });
        expect(result.output).toMatch(
          /error|Compilation stopped: it (used more than 10 s of CPU time|took longer than 30 s)/,
        );
      }
    },
  );
});

describe.runIf(HAS_NATIVE).concurrent('native: hostile programs are contained', () => {
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

  it('has no device that blocks a reader: no tty, ptmx or console', async () => {
    const { result } = await runWhileServing(`
#include <cstdio>
#include <unistd.h>
int main() {
  const char *devices[] = {"/dev/tty", "/dev/ptmx", "/dev/console", "/dev/pts", "/dev/null", "/dev/urandom"};
  for (const char *device : devices) std::printf("%s %s\\n", device, access(device, F_OK) == 0 ? "present" : "absent");
}`);
    expect(result.output).toBe(
      '/dev/tty absent\n/dev/ptmx absent\n/dev/console absent\n/dev/pts absent\n/dev/null present\n/dev/urandom present\n',
    );
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

describe.runIf(HAS_NATIVE)('native: what a program leaves behind', () => {
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
    expect(result).toMatchObject({
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

/**
 * Kernel interfaces the seccomp filter denies: each call must fail inside the
 * sandbox with the filter's errno. Some of them failed before for other reasons (no privileges,
 * the host's settings); io_uring, perf_event_open, the key calls, ptrace, personality and
 * AF_VSOCK / AF_NETLINK sockets did not.
 */
const DENIED_CALLS: Array<{ name: string; call: string; errno: string }> = [
  {
    name: 'io_uring_setup',
    call: 'static char p[256]; r = syscall(SYS_io_uring_setup, 4, p);',
    errno: 'EPERM',
  },
  {
    name: 'perf_event_open',
    call: 'static char a[128]; r = syscall(SYS_perf_event_open, a, 0, -1, -1, 0);',
    errno: 'EPERM',
  },
  {
    name: 'bpf',
    call: 'static char a[128]; r = syscall(SYS_bpf, 0, a, sizeof a);',
    errno: 'EPERM',
  },
  { name: 'add_key', call: 'r = syscall(SYS_add_key, "user", "k", "v", 1, -3);', errno: 'EPERM' },
  { name: 'keyctl', call: 'r = syscall(SYS_keyctl, 0, -3, 0);', errno: 'EPERM' },
  { name: 'request_key', call: 'r = syscall(SYS_request_key, "user", "k", 0, 0);', errno: 'EPERM' },
  { name: 'ptrace', call: 'r = ptrace(PTRACE_TRACEME, 0, 0, 0);', errno: 'EPERM' },
  {
    name: 'process_vm_readv',
    call: 'char b[8]; iovec l{b, 8}, rv{b, 8}; r = process_vm_readv(getppid(), &l, 1, &rv, 1, 0);',
    errno: 'EPERM',
  },
  {
    name: 'process_vm_writev',
    call: 'char b[8]; iovec l{b, 8}, rv{b, 8}; r = process_vm_writev(getppid(), &l, 1, &rv, 1, 0);',
    errno: 'EPERM',
  },
  { name: 'personality', call: 'r = personality(ADDR_NO_RANDOMIZE);', errno: 'EPERM' },
  { name: 'unshare', call: 'r = unshare(CLONE_NEWUSER);', errno: 'EPERM' },
  { name: 'setns', call: 'r = setns(0, CLONE_NEWNET);', errno: 'EPERM' },
  { name: 'mount', call: 'r = mount("none", "/tmp", "tmpfs", 0, nullptr);', errno: 'EPERM' },
  { name: 'umount2', call: 'r = umount2("/tmp", MNT_DETACH);', errno: 'EPERM' },
  { name: 'pivot_root', call: 'r = syscall(SYS_pivot_root, "/tmp", "/tmp");', errno: 'EPERM' },
  {
    name: 'clone with a new namespace',
    call: 'r = syscall(SYS_clone, CLONE_NEWNET | SIGCHLD, 0, 0, 0, 0); if (r == 0) _exit(0);',
    errno: 'EPERM',
  },
  {
    name: 'socket(AF_VSOCK)',
    call: 'r = socket(AF_VSOCK, SOCK_STREAM, 0);',
    errno: 'EAFNOSUPPORT',
  },
  {
    name: 'socket(AF_NETLINK)',
    call: 'r = socket(AF_NETLINK, SOCK_RAW, 0);',
    errno: 'EAFNOSUPPORT',
  },
  { name: 'socket(AF_INET)', call: 'r = socket(AF_INET, SOCK_DGRAM, 0);', errno: 'EAFNOSUPPORT' },
  {
    name: 'socketpair(AF_INET)',
    call: 'int sv[2]; r = socketpair(AF_INET, SOCK_STREAM, 0, sv);',
    errno: 'EAFNOSUPPORT',
  },
];

describe
  .runIf(HAS_NATIVE)
  .concurrent('native: the seccomp filter denies risky kernel interfaces', () => {
    it.each(DENIED_CALLS)('$name fails with $errno', async ({ call, errno }) => {
      const { result } = await runWhileServing(`
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <sched.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <linux/vm_sockets.h>
#include <unistd.h>
int main() {
  long r = 0;
  errno = 0;
  ${call}
  if (r == -1) { std::printf("refused %s\\n", strerrorname_np(errno)); } else { std::printf("ALLOWED %ld\\n", r); }
  return 0;
}`);
      expect(result.output).toBe(`refused ${errno}\n`);
    });

    it('allows what programs need: threads, local sockets, the personality query', async () => {
      const { result } = await runWhileServing(`
#include <cstdio>
#include <sys/personality.h>
#include <sys/socket.h>
#include <thread>
int main() {
  int value = 0;
  std::thread worker([&] { value = 42; });
  worker.join();
  int pair[2];
  std::printf("thread %d, socketpair %d, personality %d\\n", value,
              socketpair(AF_UNIX, SOCK_STREAM, 0, pair), personality(0xffffffff) >= 0);
}`);
      expect(result.output).toBe('thread 42, socketpair 0, personality 1\n');
    });
  });

describe.runIf(HAS_NATIVE).concurrent('native: limits that cannot be stretched', () => {
  it('the program cannot ptrace its supervisors, and its CPU limit holds', async () => {
    const { result } = await runWhileServing(`
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/ptrace.h>
#include <unistd.h>
int main() {
  pid_t targets[] = {1, getppid()};
  for (pid_t target : targets) {
    long r = ptrace(PTRACE_SEIZE, target, 0, 0);
    std::printf("seize %s: %s\\n", target == 1 ? "init" : "parent", r == 0 ? "ATTACHED" : strerrorname_np(errno));
  }
  std::fflush(stdout);
  volatile unsigned long spins = 0;
  for (;;) { spins = spins + 1; }
}`);
    expect(result.output).toMatch(
      /^seize init: EPERM\nseize parent: EPERM\n\[Program stopped: it /,
    );
    // Whichever comes first ends it: RLIMIT_CPU's SIGXCPU or the tree accountant's SIGKILL.
    expect(result).toMatchObject({ exitCode: null, timedOut: true });
    expect(result.signal).toMatch(/^SIG(KILL|XCPU)$/);
  });

  it('kill(-1, SIGKILL) is reported as the SIGKILL it was, not as a time limit', async () => {
    const { result } = await runWhileServing(`
#include <csignal>
#include <cstdio>
int main() {
  std::puts("before");
  std::fflush(stdout);
  kill(-1, SIGKILL);
  for (;;) {}
}`);
    expect(result).toMatchObject({
      output: 'before\n[Program terminated by SIGKILL]\n',
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: false,
    });
  });

  it('forked spinners share one CPU budget: their total stays at the limit', async () => {
    const backend = createNativeBackend({
      dir: TEST_RUN_DIR,
      // uids of their own, apart from the apps' slots
      uidBase: 61_200,
      log: () => undefined,
    });
    try {
      const status = await backend.detect();
      expect(status.ok).toBe(true);
      const outcome = await backend.run({
        source: `#include <unistd.h>
int main() {
  for (int i = 0; i < 3; i++) fork();  // 8 processes
  volatile unsigned long spins = 0;
  for (;;) { spins = spins + 1; }
}`,
        stdin: '',
        standard: 'c++17',
        optimization: 'O2',
        slot: 0,
      });
      expect(outcome.timedOut).toBe(true);
      // RLIMIT_CPU alone gave each of the 8 its own 2 s; the supervisor counts them together
      // (checked every 50 ms, hence the margin)
      expect(outcome.cpuMs).toBeLessThanOrEqual(2000 + 500);
      // stopped by one of the two limits, and told so (on a busy machine the 5 s wall may come
      // first: eight spinners then get less than their shared 2 s of CPU)
      expect(outcome.output).toMatch(/of CPU time\]\n$|ran longer than 5 s\]\n$/);
    } finally {
      backend.close();
    }
  });

  it('passes no descriptor of the server into the program', async () => {
    const { result } = await runWhileServing(`
#include <cstdio>
#include <fcntl.h>
int main() {
  for (int fd = 3; fd < 64; fd++) if (fcntl(fd, F_GETFD) != -1) std::printf("open %d\\n", fd);
  std::puts("done");
}`);
    expect(result.output).toBe('done\n');
  });
});

describe.concurrent('wasm: what WebAssembly programs can and cannot do', () => {
  it('reads its standard input', { timeout: scaled(180_000) }, async () => {
    const response = await postCode(
      wasmApp,
      fresh(`#include <cstdio>
int main() { char name[32]; int a, b;
  if (std::scanf("%31s %d %d", name, &a, &b) == 3) std::printf("%s %d\\n", name, a + b); }`),
      { stdin: 'sum 2 40\n' },
    );
    expect(response.body).toMatchObject({ output: 'sum 42\n', exitCode: 0, backend: 'wasm' });
  });

  it('cannot fork: there are no processes to make', { timeout: scaled(180_000) }, async () => {
    const { result } = await runWhileServing(
      '#include <unistd.h>\nint main() { for (;;) fork(); }',
      'wasm',
    );
    expect(result.compiled).toBe(false);
    expect(result.diagnostics[0]).toMatchObject({ severity: 'error', line: 2 });
    expect(result.output).toMatch(/fork/);
  });

  it('says clearly that exceptions are not available', { timeout: scaled(180_000) }, async () => {
    const { result } = await runWhileServing(
      '#include <cstdio>\nint main() { try { throw 1; } catch (int) { std::puts("caught"); } }',
      'wasm',
    );
    expect(result.compiled).toBe(false);
    expect(result.output).toContain(
      '[The WebAssembly backend compiles without C++ exceptions: try, catch and throw are not available on this server.]',
    );
    expect(result.diagnostics.map((diagnostic) => diagnostic.message)).toContain(
      "cannot use 'throw' with exceptions disabled",
    );
  });

  it(
    'a trap ends the program with the signal a native program would get',
    { timeout: scaled(180_000) },
    async () => {
      const { result } = await runWhileServing(
        '#include <cstdlib>\n#include <cstdio>\nint main() { std::puts("about to abort"); std::abort(); }',
        'wasm',
      );
      expect(result).toMatchObject({
        output: 'about to abort\n[Program terminated by SIGABRT]\n',
        exitCode: null,
        signal: 'SIGABRT',
        timedOut: false,
      });
    },
  );
});
