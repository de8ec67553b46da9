/*
 * The floor of an event loop that never runs the clone itself: the
 * structure of the Node package's sequential spawn + 'close' with nothing
 * of Node in it. A loop thread asks a worker thread for a spawn through an
 * eventfd and waits in epoll_wait; the worker clone(CLONE_VM|CLONE_VFORK)s
 * and execs the child on a stack mapped once, waits for it with waitpid,
 * and hands the result back through a second eventfd, which wakes the loop
 * thread; then the next spawn. The loop thread does no other work, so what
 * this costs above the plain C loop (the same clone + waitpid on one thread)
 * is the two thread hand-overs alone.
 *
 *   handoff --mode sleep|spin|direct --n N [--warmup W] -- CHILD [ARGS...]
 *
 * sleep: the worker sleeps in read() on its eventfd between spawns (each
 * spawn wakes it). spin: the worker polls a flag without sleeping (as a
 * pool thread that watches its queue would), so only the result's
 * hand-over wakes a thread. direct: the plain loop on the calling thread.
 * Prints one JSON line {"mode": ..., "n": N, "total_ns": ...} (the peers'
 * protocol: the time of the N timed spawns).
 *
 * Build: cc -O2 -Wall -Wextra -Werror -pthread -o handoff handoff.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define STACK_SIZE (256 * 1024)

static char **child_argv;
static char *stack_top;
static int job_fd, done_fd;
static int spin_mode;
static atomic_int job_flag;
static atomic_int stop_flag;

static void die(const char *step)
{
	fprintf(stderr, "handoff: %s: %s\n", step, strerror(errno));
	exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int child_main(void *arg)
{
	(void)arg;
	execve(child_argv[0], child_argv, environ);
	_exit(127);
}

/* One spawn + wait, as the C clone loop does it. */
static void spawn_wait(void)
{
	int status;
	pid_t pid = clone(child_main, stack_top, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);

	if (pid < 0)
		die("clone");
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "handoff: the child failed (status %d)\n", status);
		exit(1);
	}
}

static void *worker(void *arg)
{
	uint64_t one = 1, v;

	(void)arg;
	for (;;) {
		if (spin_mode) {
			while (!atomic_load_explicit(&job_flag, memory_order_acquire)) {
				if (atomic_load_explicit(&stop_flag, memory_order_relaxed))
					return NULL;
				__builtin_ia32_pause();
			}
			atomic_store_explicit(&job_flag, 0, memory_order_relaxed);
		} else {
			if (read(job_fd, &v, sizeof v) != sizeof v) {
				if (errno == EINTR)
					continue;
				die("read job");
			}
			if (atomic_load_explicit(&stop_flag, memory_order_relaxed))
				return NULL;
		}
		spawn_wait();
		if (write(done_fd, &one, sizeof one) != sizeof one)
			die("write done");
	}
}

int main(int argc, char **argv)
{
	const char *mode = NULL;
	long n = 0, warmup = 20;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--mode") && i + 1 < argc) {
			mode = argv[++i];
		} else if (!strcmp(argv[i], "--n") && i + 1 < argc) {
			n = atol(argv[++i]);
		} else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) {
			warmup = atol(argv[++i]);
		} else {
			break;
		}
	}
	if (!mode || n < 1 || warmup < 0 || i >= argc ||
	    (strcmp(mode, "sleep") && strcmp(mode, "spin") && strcmp(mode, "direct"))) {
		fprintf(stderr, "usage: handoff --mode sleep|spin|direct --n N [--warmup W] -- CHILD [ARGS...]\n");
		return 2;
	}
	child_argv = argv + i;
	char *stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		die("mmap");
	stack_top = stack + STACK_SIZE;

	long long t0 = 0;
	if (!strcmp(mode, "direct")) {
		for (long k = 0; k < warmup + n; k++) {
			if (k == warmup)
				t0 = now_ns();
			spawn_wait();
		}
	} else {
		spin_mode = !strcmp(mode, "spin");
		job_fd = eventfd(0, EFD_CLOEXEC);
		done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		int ep = epoll_create1(EPOLL_CLOEXEC);
		if (job_fd < 0 || done_fd < 0 || ep < 0)
			die("eventfd/epoll");
		struct epoll_event ev = { .events = EPOLLIN, .data.fd = done_fd };
		if (epoll_ctl(ep, EPOLL_CTL_ADD, done_fd, &ev))
			die("epoll_ctl");
		pthread_t thread;
		if ((errno = pthread_create(&thread, NULL, worker, NULL)))
			die("pthread_create");
		uint64_t one = 1, v;
		for (long k = 0; k < warmup + n; k++) {
			if (k == warmup)
				t0 = now_ns();
			if (spin_mode)
				atomic_store_explicit(&job_flag, 1, memory_order_release);
			else if (write(job_fd, &one, sizeof one) != sizeof one)
				die("write job");
			struct epoll_event got;
			int r;
			while ((r = epoll_wait(ep, &got, 1, -1)) < 1)
				if (r < 0 && errno != EINTR)
					die("epoll_wait");
			if (read(done_fd, &v, sizeof v) != sizeof v)
				die("read done");
		}
		long long t1 = now_ns();
		atomic_store(&stop_flag, 1);
		if (!spin_mode && write(job_fd, &one, sizeof one) != sizeof one)
			die("write stop");
		pthread_join(thread, NULL);
		printf("{\"mode\":\"%s\",\"n\":%ld,\"total_ns\":%lld}\n", mode, n, t1 - t0);
		return 0;
	}
	printf("{\"mode\":\"%s\",\"n\":%ld,\"total_ns\":%lld}\n", mode, n, now_ns() - t0);
	return 0;
}
