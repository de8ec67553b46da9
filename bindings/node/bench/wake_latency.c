/* What one wake-up of a thread on another CPU costs on this machine, and
 * how much more when that CPU was idle: a parent and a child process pass
 * one byte back and forth over two pipes (a blocking read each), timed per
 * round trip by the parent. Four cells, interleaved round by round, medians
 * of the rounds' means (µs per round trip):
 *   cross      parent on CPU 0, child on CPU 1, back to back;
 *   same       both on CPU 0, back to back;
 *   cross-idle as cross, after GAP_US of sleep before each round trip, so
 *              both CPUs have gone idle (a guest without a cpuidle driver
 *              halts to the host);
 *   same-idle  as same, after the same sleep.
 * The package's sequential cycle hands a spawn to a pool thread and its
 * exit back to the JS thread, each a wake-up of a thread that slept while
 * the child ran; a C clone loop makes none of those.
 *
 *   cc -O2 -o target/wake_latency bindings/node/bench/wake_latency.c
 *   target/wake_latency [ROUNDS [N [GAP_US]]]      (default 5 3000 200)
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        perror("sched_setaffinity");
        exit(1);
    }
}

static void must(int ok, const char *what) {
    if (!ok) {
        perror(what);
        exit(1);
    }
}

/* Mean µs per round trip of n trips, the child on child_cpu. */
static double trips(int n, int child_cpu, int gap_us) {
    int there[2], back[2];
    must(pipe(there) == 0 && pipe(back) == 0, "pipe");
    pid_t pid = fork();
    must(pid >= 0, "fork");
    char byte = 0;
    if (pid == 0) {
        pin(child_cpu);
        for (int i = 0; i < n; i++) {
            if (read(there[0], &byte, 1) != 1 || write(back[1], &byte, 1) != 1)
                _exit(1);
        }
        _exit(0);
    }
    double total = 0;
    struct timespec gap = {0, gap_us * 1000L};
    for (int i = 0; i < n; i++) {
        if (gap_us)
            nanosleep(&gap, NULL);
        double t0 = now_us();
        must(write(there[1], &byte, 1) == 1, "write");
        must(read(back[0], &byte, 1) == 1, "read");
        total += now_us() - t0;
    }
    int status;
    must(waitpid(pid, &status, 0) == pid && status == 0, "child");
    close(there[0]), close(there[1]), close(back[0]), close(back[1]);
    return total / n;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    int n = argc > 2 ? atoi(argv[2]) : 3000;
    int gap_us = argc > 3 ? atoi(argv[3]) : 200;
    if (rounds < 1 || rounds > 100 || n < 1 || gap_us < 0) {
        fprintf(stderr, "usage: wake_latency [ROUNDS (1-100) [N [GAP_US]]]\n");
        return 2;
    }
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
        fprintf(stderr, "wake_latency: needs 2 CPUs\n");
        return 2;
    }
    pin(0);
    const char *names[4] = {"cross", "same", "cross-idle", "same-idle"};
    double means[4][100];
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 4; k++) {
            int c = r % 2 ? 3 - k : k; /* odd rounds in reverse */
            int idle = c >= 2;
            means[c][r] = trips(idle ? n / 5 : n, c % 2 ? 0 : 1, idle ? gap_us : 0);
        }
    }
    printf("µs per round trip, median of %d rounds (%d trips each, %d after a %d µs sleep)\n",
           rounds, n, n / 5, gap_us);
    for (int c = 0; c < 4; c++) {
        qsort(means[c], rounds, sizeof(double), cmp);
        printf("  %-10s %6.1f\n", names[c], means[c][rounds / 2]);
    }
    return 0;
}
