/**
 * The runner's small C helper, compiled once into the data folder at start (see sandbox.ts).
 *
 * `helper reap CMD...` runs on the host around each sandbox. It makes itself a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so processes the sandbox leaves behind become its children and are
 * reaped at once instead of lingering as zombies that count toward the next run's process limit
 * (this machine's PID 1 reaps slowly); it dies with the server (PR_SET_PDEATHSIG) and so does the
 * command, and it exits with the command's status.
 *
 * `helper report CMD...` runs inside the sandbox as the user program's parent. It reports how the
 * program ended on file descriptor 3 ("@@exit N" or "@@signal N"), which the program itself never
 * sees (closed before exec): a shell's `$?` cannot tell `exit(137)` from a SIGKILL.
 */
export const HELPER_C_SOURCE = String.raw`
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int result = 125;
static pid_t child = -1;

static void on_alarm(int sig) {
  (void)sig;
  _exit(result);
}

/* SIGTERM from the server: kill the command's whole process group (timeout makes one), keep
   reaping, so nothing is left for PID 1 */
static void on_term(int sig) {
  (void)sig;
  if (child > 0) {
    kill(-child, SIGKILL);
    kill(child, SIGKILL);
  }
}

static int status_code(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int reap(char **command) {
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
    perror("helper: prctl");
    return 125;
  }
  if (getppid() == 1) {
    return 125;
  }
  signal(SIGALRM, on_alarm);
  signal(SIGTERM, on_term);
  child = fork();
  if (child < 0) {
    perror("helper: fork");
    return 125;
  }
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGTERM, SIG_DFL);
    execvp(command[0], command);
    perror("helper: exec");
    _exit(127);
  }
  for (;;) {
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) {
        continue;
      }
      break;
    }
    if (pid == child) {
      result = status_code(status);
      /* what the sandbox left behind dies with it; stop waiting for stragglers after a moment */
      alarm(3);
    }
  }
  return result;
}

static int report(char **command) {
  child = fork();
  if (child < 0) {
    dprintf(3, "@@error fork %s\n", strerror(errno));
    return 125;
  }
  if (child == 0) {
    close(3);
    execv(command[0], command);
    fprintf(stderr, "Could not start the program: %s\n", strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      dprintf(3, "@@error wait %s\n", strerror(errno));
      return 125;
    }
  }
  if (WIFSIGNALED(status)) {
    dprintf(3, "@@signal %d\n", WTERMSIG(status));
  } else {
    dprintf(3, "@@exit %d\n", WEXITSTATUS(status));
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "reap") == 0) {
    return reap(argv + 2);
  }
  if (argc >= 3 && strcmp(argv[1], "report") == 0) {
    return report(argv + 2);
  }
  fprintf(stderr, "usage: helper reap|report command [args...]\n");
  return 125;
}
`;
