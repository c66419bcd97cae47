/**
 * The runner's small C helper, compiled once at start (see sandbox.ts).
 *
 * `helper supervise CPU_MS WALL_MS RUN_CPU_MS RUN_WALL_MS CMD...` runs on the host around each
 * sandbox, as root, outside its namespaces, where nothing inside can reach it. It:
 * - makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so what the sandbox leaves behind is
 *   reaped at once instead of lingering as zombies that count toward the next run's process limit
 *   (this machine's PID 1 reaps slowly); it dies with the server (PR_SET_PDEATHSIG) and so does
 *   the command, which runs under SCHED_IDLE;
 * - reads the sandbox's status lines from a pipe on the command's fd 3 ("@@compile N" once the
 *   compile ended, "@@start" when the program starts, "@@exit N" / "@@signal N" from the
 *   in-sandbox reporter);
 * - accounts CPU per run, not per process: every 50 ms it sums the user and system time of every
 *   process descended from the command (their own and their reaped children's, from /proc), and
 *   ends the whole tree when the compile passes CPU_MS or WALL_MS, or the program (counted from
 *   "@@start") passes RUN_CPU_MS or RUN_WALL_MS. Forked spinners share one budget;
 * - prints one line on stderr at the end, so the server knows what actually happened:
 *   "@@result compile=N|-1 started=0|1 exit=N|-1 signal=N|-1 limit=none|compilecpu|compilewall|cpu|wall
 *   status=N cpu_ms=N run_ms=N compile_cpu_ms=N" (cpu_ms is the program's, compile_cpu_ms the
 *   compile's: what the compile time budget counts).
 *
 * `helper report CMD...` runs inside the sandbox as the user program's parent. It reports how the
 * program ended on fd 3 ("@@exit N" or "@@signal N"), which the program itself never sees (closed
 * before exec): a shell's `$?` cannot tell `exit(137)` from a SIGKILL.
 */
export const HELPER_C_SOURCE = String.raw`
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t child = -1;
static volatile sig_atomic_t stop_requested = 0;

static void on_term(int sig) {
  (void)sig;
  stop_requested = 1;
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

typedef struct {
  int pid;
  int ppid;
  long long ticks;
  int mark;
} proc_t;

static proc_t *procs = NULL;
static size_t procs_cap = 0;

/* Reads every process's parent and CPU ticks; returns how many. */
static size_t scan_procs(void) {
  DIR *dir = opendir("/proc");
  size_t count = 0;
  if (!dir) {
    return 0;
  }
  struct dirent *entry;
  while ((entry = readdir(dir)) != NULL) {
    if (entry->d_name[0] < '1' || entry->d_name[0] > '9') {
      continue;
    }
    char path[64];
    char buffer[1024];
    snprintf(path, sizeof path, "/proc/%s/stat", entry->d_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      continue;
    }
    ssize_t length = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (length <= 0) {
      continue;
    }
    buffer[length] = 0;
    char *close_paren = strrchr(buffer, ')');
    if (!close_paren) {
      continue;
    }
    /* after ") ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
       stime cutime cstime */
    char state;
    int ppid;
    unsigned long long utime, stime;
    long long cutime, cstime;
    if (sscanf(close_paren + 2, "%c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
               &state, &ppid, &utime, &stime, &cutime, &cstime) != 6) {
      continue;
    }
    if (count == procs_cap) {
      size_t cap = procs_cap ? procs_cap * 2 : 1024;
      proc_t *grown = realloc(procs, cap * sizeof *procs);
      if (!grown) {
        break;
      }
      procs = grown;
      procs_cap = cap;
    }
    procs[count].pid = atoi(entry->d_name);
    procs[count].ppid = ppid;
    procs[count].ticks = (long long)(utime + stime) + cutime + cstime;
    procs[count].mark = procs[count].pid == child;
    count++;
  }
  closedir(dir);
  return count;
}

/* Marks the command's descendants; returns their CPU time (ms) and kills them if asked. */
static long long tree(int kill_them) {
  static long ticks_per_second = 0;
  if (!ticks_per_second) {
    ticks_per_second = sysconf(_SC_CLK_TCK);
  }
  size_t count = scan_procs();
  int changed = 1;
  while (changed) {
    changed = 0;
    for (size_t i = 0; i < count; i++) {
      if (procs[i].mark) {
        continue;
      }
      for (size_t j = 0; j < count; j++) {
        if (procs[j].mark && procs[j].pid == procs[i].ppid) {
          procs[i].mark = 1;
          changed = 1;
          break;
        }
      }
    }
  }
  long long ticks = 0;
  for (size_t i = 0; i < count; i++) {
    if (procs[i].mark) {
      ticks += procs[i].ticks;
      if (kill_them) {
        kill(procs[i].pid, SIGKILL);
      }
    }
  }
  return ticks * 1000 / ticks_per_second;
}

static int status_code(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int supervise(long long compile_cpu, long long compile_wall, long long run_cpu,
                     long long run_wall, char **command) {
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
    perror("helper: prctl");
    return 125;
  }
  if (getppid() == 1) {
    return 125;
  }
  int status_pipe[2];
  if (pipe2(status_pipe, O_CLOEXEC) != 0) {
    perror("helper: pipe");
    return 125;
  }
  signal(SIGTERM, on_term);
  signal(SIGPIPE, SIG_IGN);
  long long started_at = now_ms();
  child = fork();
  if (child < 0) {
    perror("helper: fork");
    return 125;
  }
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    dup2(status_pipe[1], 3); /* dup2 clears close-on-exec on the copy */
    /* the sandbox only gets CPU time the server does not want (SCHED_IDLE, else nice 19), so
       requests stay quick while every slot is busy; CPU limits count time actually used */
    struct sched_param idle = {0};
    if (sched_setscheduler(0, SCHED_IDLE, &idle) != 0) {
      setpriority(PRIO_PROCESS, 0, 19);
    }
    execvp(command[0], command);
    perror("helper: exec");
    _exit(127);
  }
  close(status_pipe[1]);
  int reader = status_pipe[0];
  fcntl(reader, F_SETFL, O_NONBLOCK);

  char line[256];
  size_t line_length = 0;
  int compile = -1, exit_code = -1, signal_number = -1, started = 0, done = 0, child_status = 0;
  const char *limit = "none";
  long long run_started_at = 0, run_ended_at = 0, cpu_at_start = 0, cpu_now = 0;
  long long compile_cpu_used = -1;
  long long last_scan = 0;
  int killed = 0;

  while (!done) {
    struct pollfd waiting = {reader, POLLIN, 0};
    poll(&waiting, reader >= 0 ? 1 : 0, 20);
    if (reader >= 0) {
      char chunk[512];
      ssize_t got;
      while ((got = read(reader, chunk, sizeof chunk)) > 0) {
        for (ssize_t i = 0; i < got; i++) {
          if (chunk[i] != '\n') {
            if (line_length < sizeof line - 1) {
              line[line_length++] = chunk[i];
            }
            continue;
          }
          line[line_length] = 0;
          line_length = 0;
          int value;
          if (sscanf(line, "@@compile %d", &value) == 1 && compile < 0) {
            compile = value;
            compile_cpu_used = tree(0);
          } else if (strcmp(line, "@@start") == 0 && !started) {
            started = 1;
            run_started_at = now_ms();
            cpu_at_start = tree(0);
          } else if (sscanf(line, "@@exit %d", &value) == 1 && started) {
            exit_code = value;
            run_ended_at = now_ms();
          } else if (sscanf(line, "@@signal %d", &value) == 1 && started) {
            signal_number = value;
            run_ended_at = now_ms();
          }
        }
      }
      if (got == 0) {
        close(reader);
        reader = -1;
      }
    }
    for (;;) {
      int status;
      pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid <= 0) {
        break;
      }
      if (pid == child) {
        child_status = status;
        done = 1;
      }
    }
    if (done || killed) {
      continue;
    }
    long long now = now_ms();
    if (stop_requested) {
      limit = "stopped";
      tree(1);
      killed = 1;
      continue;
    }
    if (now - last_scan < 50) {
      continue;
    }
    last_scan = now;
    cpu_now = tree(0);
    if (!started && compile < 0) {
      if (cpu_now > compile_cpu) {
        limit = "compilecpu";
      } else if (now - started_at > compile_wall) {
        limit = "compilewall";
      }
    } else if (started && exit_code < 0 && signal_number < 0) {
      if (cpu_now - cpu_at_start > run_cpu) {
        limit = "cpu";
      } else if (now - run_started_at > run_wall) {
        limit = "wall";
      }
    }
    if (strcmp(limit, "none") != 0) {
      if (started && !run_ended_at) {
        run_ended_at = now;
      }
      tree(1);
      killed = 1;
    }
  }
  if (started && !run_ended_at) {
    run_ended_at = now_ms();
  }
  long long cpu_used = started ? cpu_now - cpu_at_start : 0;
  if (compile_cpu_used < 0) {
    compile_cpu_used = cpu_now; /* stopped at a limit (or never said): what it had used by then */
  }
  /* the run's own processes are gone with its namespaces; anything reparented to us goes too */
  tree(1);
  for (int round = 0; round < 30; round++) {
    int status;
    if (waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD) {
      break;
    }
    usleep(100000);
  }
  fprintf(stderr,
          "@@result compile=%d started=%d exit=%d signal=%d limit=%s status=%d cpu_ms=%lld "
          "run_ms=%lld compile_cpu_ms=%lld\n",
          compile, started, exit_code, signal_number, limit, status_code(child_status),
          cpu_used < 0 ? 0 : cpu_used, started ? run_ended_at - run_started_at : 0,
          compile_cpu_used);
  return 0;
}

static int report(char **command) {
  pid_t program = fork();
  if (program < 0) {
    dprintf(3, "@@error fork %s\n", strerror(errno));
    return 125;
  }
  if (program == 0) {
    close(3);
    execv(command[0], command);
    fprintf(stderr, "Could not start the program: %s\n", strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(program, &status, 0) < 0) {
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
  if (argc >= 7 && strcmp(argv[1], "supervise") == 0) {
    return supervise(atoll(argv[2]), atoll(argv[3]), atoll(argv[4]), atoll(argv[5]), argv + 6);
  }
  if (argc >= 3 && strcmp(argv[1], "report") == 0) {
    return report(argv + 2);
  }
  fprintf(stderr, "usage: helper supervise CPU_MS WALL_MS RUN_CPU_MS RUN_WALL_MS command...\n"
                  "       helper report command [args...]\n");
  return 125;
}
`;
