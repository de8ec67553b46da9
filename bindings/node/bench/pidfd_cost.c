/* What a pidfd, and a wait bounded by a timeout, add to one sequential
 * spawn + wait of a do-nothing child on this machine, in C: the C clone
 * loop that the benchmarks compare the package with makes neither, and the
 * package's spawner thread needs both (the child's pidfd, for the waiter's
 * epoll and kill(); a wait of at most the linger for a quick child's exit,
 * so that its spawn and exit reach JS in one batch).
 *
 * Each cell is N spawns of PROGRAM (clone(CLONE_VM|CLONE_VFORK), execve),
 * each waited for before the next; cells interleaved round by round (the
 * order reversed every other round), medians of the rounds' means, µs per
 * spawn + wait, and of this process's CPU per spawn + wait (getrusage):
 *   plain          no pidfd, a blocking waitpid (the C loop);
 *   clone-pidfd    CLONE_PIDFD, a blocking waitid(P_PIDFD), close;
 *   open-pidfd     pidfd_open after the clone, a blocking waitpid, close;
 *   linger         CLONE_PIDFD, ppoll on the pidfd with a LINGER_US
 *                  timeout, waitid(P_PIDFD), close (the package's linger);
 *   poll           no pidfd, waitid(WNOHANG) then a 10 µs nanosleep until
 *                  the child has exited (timer slack 1 ns).
 *
 *   cc -O2 -o target/pidfd_cost bindings/node/bench/pidfd_cost.c
 *   target/pidfd_cost PROGRAM [ROUNDS [N [LINGER_US]]]   (default 21 400 200)
 *   taskset -c 1 target/pidfd_cost ...   (parent and child on one CPU)
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif

enum { PLAIN, CLONE_FD, OPEN_FD, LINGER, POLL, CELLS };
static const char *names[CELLS] = {"plain", "clone-pidfd", "open-pidfd", "linger", "poll"};

static char *program;
static long linger_ns;
static char stack[64 * 1024] __attribute__((aligned(16)));

static int child(void *unused) {
    (void)unused;
    char *argv[] = {program, NULL};
    char *envp[] = {NULL};
    execve(program, argv, envp);
    _exit(127);
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void die(const char *what) {
    perror(what);
    exit(1);
}

static void waitid_pidfd(int pidfd) {
    siginfo_t info;
    if (syscall(SYS_waitid, P_PIDFD, pidfd, &info, WEXITED, NULL) < 0) die("waitid");
}

static void one(int cell) {
    int pidfd = -1;
    int flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
    if (cell == CLONE_FD || cell == LINGER) flags |= CLONE_PIDFD;
    int pid = clone(child, stack + sizeof stack, flags, NULL, &pidfd, NULL, NULL);
    if (pid < 0) die("clone");
    int status;
    switch (cell) {
    case PLAIN:
        if (waitpid(pid, &status, 0) < 0) die("waitpid");
        break;
    case CLONE_FD:
        waitid_pidfd(pidfd);
        close(pidfd);
        break;
    case OPEN_FD:
        pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
        if (pidfd < 0) die("pidfd_open");
        if (waitpid(pid, &status, 0) < 0) die("waitpid");
        close(pidfd);
        break;
    case LINGER: {
        struct pollfd p = {pidfd, POLLIN, 0};
        struct timespec timeout = {linger_ns / 1000000000, linger_ns % 1000000000};
        if (ppoll(&p, 1, &timeout, NULL) < 0) die("ppoll");
        waitid_pidfd(pidfd);
        close(pidfd);
        break;
    }
    case POLL:
        for (;;) {
            siginfo_t info;
            info.si_pid = 0;
            if (waitid(P_PID, pid, &info, WEXITED | WNOHANG) < 0) die("waitid");
            if (info.si_pid != 0) break;
            struct timespec pause = {0, 10000};
            nanosleep(&pause, NULL);
        }
        break;
    }
}

static double cpu_us(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + u.ru_utime.tv_usec + u.ru_stime.tv_usec;
}

/* Wall time per spawn + wait; this process's CPU per spawn + wait in *cpu. */
static double cell_us(int cell, int n, double *cpu) {
    double t0 = now_us(), c0 = cpu_us();
    for (int i = 0; i < n; i++) one(cell);
    *cpu = (cpu_us() - c0) / n;
    return (now_us() - t0) / n;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s PROGRAM [ROUNDS [N [LINGER_US]]]\n", argv[0]);
        return 2;
    }
    program = argv[1];
    int rounds = argc > 2 ? atoi(argv[2]) : 21;
    int n = argc > 3 ? atoi(argv[3]) : 400;
    linger_ns = (argc > 4 ? atol(argv[4]) : 200) * 1000;
    if (rounds < 1 || n < 1) return 2;
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    double *means = calloc((size_t)rounds * CELLS, sizeof(double));
    double *cpus = calloc((size_t)rounds * CELLS, sizeof(double));
    if (!means || !cpus) die("calloc");
    double unused;
    for (int c = 0; c < CELLS; c++) cell_us(c, 20, &unused);
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < CELLS; k++) {
            int c = r % 2 ? CELLS - 1 - k : k;
            means[c * rounds + r] = cell_us(c, n, &cpus[c * rounds + r]);
        }
    }
    double plain = 0, plain_cpu = 0;
    for (int c = 0; c < CELLS; c++) {
        qsort(means + c * rounds, (size_t)rounds, sizeof(double), by_value);
        qsort(cpus + c * rounds, (size_t)rounds, sizeof(double), by_value);
        double median = means[c * rounds + rounds / 2], cpu = cpus[c * rounds + rounds / 2];
        if (c == PLAIN) plain = median, plain_cpu = cpu;
        printf("%-12s %7.1f us per spawn + wait  %+6.1f us; CPU %5.1f us  %+5.1f us  (median of %d rounds of %d)\n",
               names[c], median, median - plain, cpu, cpu - plain_cpu, rounds, n);
    }
    free(means);
    free(cpus);
    return 0;
}
