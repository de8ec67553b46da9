/* How a spawner learns of a child's exit, in C, three ways side by side:
 * what it costs in CPU per spawn (whole process, spawner threads, waiter
 * thread, children) and in spawns/s. Each spawn is clone(CLONE_VM |
 * CLONE_VFORK | SIGCHLD) on a per-thread stack + execve(PROGRAM), as the C
 * clone loop of the benchmarks does.
 *
 *   floor   no pidfd; one at a time a blocking waitid(P_PID); 16 in flight
 *           the waiter blocks in waitid(P_ALL, WEXITED) (a watcher of every
 *           child: the floor, not sound in a library).
 *   pidfd   what the packages do today: CLONE_PIDFD; one at a time poll()
 *           on the pidfd for at most LINGER_US, waitid(P_PIDFD), close;
 *           16 in flight the spawner thread adds the pidfd to the waiter's
 *           epoll, the waiter's epoll_wait reports it, waitid(P_PIDFD),
 *           close.
 *   uring   no pidfd; one io_uring (made once, shared) and one
 *           IORING_OP_WAITID per child (P_PID, WEXITED | WNOWAIT: the
 *           zombie stays, so the pid stays ours until a plain
 *           waitid(P_PID, WEXITED) reaps it); one at a time the waitid is
 *           linked (IOSQE_IO_LINK) to an IORING_OP_LINK_TIMEOUT of
 *           LINGER_US, both submitted by one io_uring_enter that waits for
 *           their two completions, then the reaping waitid; 16 in flight the
 *           spawner thread puts its SQE in the ring under a mutex and
 *           submits whatever is pending (one io_uring_enter for every SQE
 *           queued since the last), the waiter blocks in
 *           io_uring_enter(GETEVENTS), reads every completion, reaps each.
 *
 * 16 in flight: SPAWNERS spawner threads take a slot (a semaphore of 16),
 * spawn, hand the child to the one waiter thread; the waiter reaps and
 * frees the slot. The modes are interleaved round by round (the order
 * rotated each round); per round and mode N spawns; printed: medians and
 * quartiles over the rounds. CPU from getrusage: RUSAGE_THREAD at the end
 * of each thread (spawner, waiter), RUSAGE_SELF / RUSAGE_CHILDREN deltas
 * around the round. The load average is printed before and after.
 *
 *   cc -O2 -pthread -o target/exit_notify bindings/python/bench/exit_notify.c
 *   target/exit_notify target/peers/noop [ROUNDS [N [SPAWNERS [LINGER_US]]]]
 *       (default 11 2000 2 200)
 *   target/exit_notify target/peers/noop sigchld-ignored
 *       (what the op reports for a child the kernel reaped itself)
 *
 * The uapi headers on this machine predate IORING_OP_WAITID (Linux 6.7,
 * include/uapi/linux/io_uring.h, enum io_uring_op: ..., IORING_OP_SEND_ZC,
 * IORING_OP_SENDMSG_ZC, IORING_OP_READ_MULTISHOT, IORING_OP_WAITID, ...):
 * defined by hand below, and checked with IORING_REGISTER_PROBE. Its SQE
 * (io_uring/waitid.c, io_waitid_prep): fd = the id, len = the idtype,
 * file_index = the options, addr2 = the siginfo pointer (may be 0), the
 * other fields 0; the CQE's res is 0 or -errno.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Linux 6.7, include/uapi/linux/io_uring.h: the two ops after
 * IORING_OP_SENDMSG_ZC are IORING_OP_READ_MULTISHOT and IORING_OP_WAITID. */
#ifndef IORING_OP_WAITID
#define IORING_OP_WAITID_ (IORING_OP_SENDMSG_ZC + 2)
#else
#define IORING_OP_WAITID_ IORING_OP_WAITID
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x1000
#endif

static const char *program;
static int rounds = 11, n_spawns = 2000, n_spawners = 2, linger_us = 200;
#define IN_FLIGHT 16
#define STACK (64 * 1024)
#define LINK_TIMEOUT_TAG ((uint64_t)1 << 62)

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
static double tv_s(struct timeval t) { return t.tv_sec + t.tv_usec / 1e6; }
static double ru_s(int who)
{
	struct rusage r;
	getrusage(who, &r);
	return tv_s(r.ru_utime) + tv_s(r.ru_stime);
}
static void die(const char *what)
{
	fprintf(stderr, "exit_notify: %s (program %s): %s\n", what, program,
		strerror(errno));
	exit(1);
}

/* The child: exec the program (CLONE_VM|CLONE_VFORK: on the spawner's
 * stack, the spawner suspended until the exec). */
static int child_fn(void *arg)
{
	(void)arg;
	char *const envp[] = {NULL};
	char *argv[] = {(char *)program, NULL};
	execve(program, argv, envp);
	_exit(127);
}
static pid_t spawn(char *stack_top, int *pidfd)
{
	int flags = CLONE_VM | CLONE_VFORK | SIGCHLD | (pidfd ? CLONE_PIDFD : 0);
	pid_t pid = clone(child_fn, stack_top, flags, NULL, pidfd);
	if (pid < 0)
		die("clone");
	return pid;
}
static void reap(pid_t pid)
{
	siginfo_t si;
	if (waitid(P_PID, pid, &si, WEXITED) < 0)
		die("reaping waitid(P_PID)");
	if (si.si_code != CLD_EXITED || si.si_status != 0) {
		fprintf(stderr, "exit_notify: %s: child %d ended with code %d status %d\n",
			program, pid, si.si_code, si.si_status);
		exit(1);
	}
}

/* ---- io_uring by raw syscalls ---- */
struct ring {
	int fd;
	unsigned *sq_head, *sq_tail, *sq_mask, *sq_array;
	unsigned *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	unsigned sq_local_tail;
	pthread_mutex_t lock;
	unsigned pending;  /* SQEs published, not yet submitted (under lock) */
	int submitting;    /* a thread is in the submitting loop (under lock) */
};
static struct ring ring;

static int ring_setup(unsigned entries)
{
	struct io_uring_params p;
	memset(&p, 0, sizeof p);
	int fd = syscall(__NR_io_uring_setup, entries, &p);
	if (fd < 0)
		return -1;
	size_t sq_sz = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	size_t cq_sz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
		errno = ENOTSUP;
		return -1;
	}
	size_t sz = sq_sz > cq_sz ? sq_sz : cq_sz;
	char *sq = mmap(0, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -1;
	ring.sqes = mmap(0, p.sq_entries * sizeof(struct io_uring_sqe),
			 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			 IORING_OFF_SQES);
	if (ring.sqes == MAP_FAILED)
		return -1;
	ring.fd = fd;
	ring.sq_head = (unsigned *)(sq + p.sq_off.head);
	ring.sq_tail = (unsigned *)(sq + p.sq_off.tail);
	ring.sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	ring.sq_array = (unsigned *)(sq + p.sq_off.array);
	ring.cq_head = (unsigned *)(sq + p.cq_off.head);
	ring.cq_tail = (unsigned *)(sq + p.cq_off.tail);
	ring.cq_mask = (unsigned *)(sq + p.cq_off.ring_mask);
	ring.cqes = (struct io_uring_cqe *)(sq + p.cq_off.cqes);
	ring.sq_local_tail = *ring.sq_tail;
	pthread_mutex_init(&ring.lock, NULL);
	return 0;
}
static int ring_enter(unsigned to_submit, unsigned min_complete, unsigned flags)
{
	int r;
	do
		r = syscall(__NR_io_uring_enter, ring.fd, to_submit, min_complete, flags,
			    NULL, 0);
	while (r < 0 && errno == EINTR);
	return r;
}
/* Caller holds ring.lock (or is the only user). */
static struct io_uring_sqe *sqe_get(void)
{
	unsigned head = __atomic_load_n(ring.sq_head, __ATOMIC_ACQUIRE);
	if (ring.sq_local_tail - head > *ring.sq_mask) {
		fprintf(stderr, "exit_notify: submission queue full\n");
		exit(1);
	}
	unsigned i = ring.sq_local_tail & *ring.sq_mask;
	struct io_uring_sqe *s = &ring.sqes[i];
	memset(s, 0, sizeof *s);
	ring.sq_array[i] = i;
	ring.sq_local_tail++;
	return s;
}
static void sq_publish(void)
{
	__atomic_store_n(ring.sq_tail, ring.sq_local_tail, __ATOMIC_RELEASE);
}
static void prep_waitid(struct io_uring_sqe *s, pid_t pid)
{
	s->opcode = IORING_OP_WAITID_;
	s->fd = pid;
	s->len = P_PID;
	s->file_index = WEXITED | WNOWAIT;
	s->addr2 = 0;
	s->user_data = (uint64_t)pid;
}
/* Reads the completions there are; calls f for each. Returns how many. */
static int cq_drain(void (*f)(struct io_uring_cqe *))
{
	unsigned head = *ring.cq_head, n = 0;
	unsigned tail = __atomic_load_n(ring.cq_tail, __ATOMIC_ACQUIRE);
	while (head != tail) {
		f(&ring.cqes[head & *ring.cq_mask]);
		head++;
		n++;
	}
	__atomic_store_n(ring.cq_head, head, __ATOMIC_RELEASE);
	return n;
}
static int probe_waitid(void)
{
	size_t sz = sizeof(struct io_uring_probe) + 256 * sizeof(struct io_uring_probe_op);
	struct io_uring_probe *p = calloc(1, sz);
	if (syscall(__NR_io_uring_register, ring.fd, IORING_REGISTER_PROBE, p, 256) < 0)
		return 0;
	int ok = p->last_op >= IORING_OP_WAITID_ &&
		 (p->ops[IORING_OP_WAITID_].flags & IO_URING_OP_SUPPORTED);
	free(p);
	return ok;
}

/* ---- one at a time ---- */
enum { FLOOR, PIDFD, URING, URINGW, N_MODES };
static const char *mode_name[] = {"floor", "pidfd", "uring", "uringw"};
static char *stack_main;
static long early_timeouts; /* linger expired before the exit (pidfd, uring) */

static int cqe_waitid_res, cqe_timeout_res, cqe_seen;
static void one_cqe(struct io_uring_cqe *c)
{
	if (c->user_data & LINK_TIMEOUT_TAG)
		cqe_timeout_res = c->res;
	else
		cqe_waitid_res = c->res;
	cqe_seen++;
}
static void one_at_a_time(int mode)
{
	struct __kernel_timespec ts = {0, linger_us * 1000L};
	for (int i = 0; i < n_spawns; i++) {
		if (mode == FLOOR) {
			reap(spawn(stack_main + STACK, NULL));
		} else if (mode == PIDFD) {
			int pidfd;
			spawn(stack_main + STACK, &pidfd);
			struct pollfd pfd = {pidfd, POLLIN, 0};
			struct timespec t = {0, linger_us * 1000L};
			int r = ppoll(&pfd, 1, &t, NULL);
			if (r < 0)
				die("ppoll on the pidfd");
			if (r == 0)
				early_timeouts++;
			siginfo_t si;
			if (waitid(P_PIDFD, pidfd, &si, WEXITED) < 0)
				die("waitid(P_PIDFD)");
			close(pidfd);
		} else { /* URING, URINGW: the same one at a time */
			pid_t pid = spawn(stack_main + STACK, NULL);
			struct io_uring_sqe *s = sqe_get();
			prep_waitid(s, pid);
			s->flags = IOSQE_IO_LINK;
			s = sqe_get();
			s->opcode = IORING_OP_LINK_TIMEOUT;
			s->fd = -1;
			s->addr = (uint64_t)(uintptr_t)&ts;
			s->len = 1;
			s->user_data = LINK_TIMEOUT_TAG;
			sq_publish();
			cqe_seen = 0;
			if (ring_enter(2, 2, IORING_ENTER_GETEVENTS) != 2)
				die("io_uring_enter (waitid + link timeout)");
			while (cqe_seen < 2) {
				cq_drain(one_cqe);
				if (cqe_seen < 2 && ring_enter(0, 2 - cqe_seen, IORING_ENTER_GETEVENTS) < 0)
					die("io_uring_enter (wait)");
			}
			if (cqe_waitid_res == -ECANCELED)
				early_timeouts++;
			else if (cqe_waitid_res < 0) {
				errno = -cqe_waitid_res;
				die("IORING_OP_WAITID");
			}
			reap(pid);
		}
	}
}

/* ---- 16 in flight ---- */
static int cur_mode, epfd;
static sem_t slots;
static pthread_barrier_t round_end;
static long next_spawn; /* atomic */
static double spawner_cpu, waiter_cpu;
static long spawner_us; /* summed at each spawner thread's end */
static int reaped_here;
#define QCAP 256
#define EFD_TAG ((uint64_t)1 << 61)
static pid_t queued[QCAP];
static int n_queued, waiter_asleep, efd, efd_armed; /* under ring.lock but efd, efd_armed */
static uint64_t efd_buf;
static long wakes, w_submits, w_spawns;
static long submits, uring_spawns; /* io_uring_enter calls to submit, 16 in flight */

static void *spawner(void *arg)
{
	(void)arg;
	char *stack = malloc(STACK);
	double c0 = ru_s(RUSAGE_THREAD);
	while (__atomic_fetch_add(&next_spawn, 1, __ATOMIC_RELAXED) < n_spawns) {
		while (sem_wait(&slots) < 0)
			;
		if (cur_mode == FLOOR) {
			spawn(stack + STACK, NULL);
		} else if (cur_mode == PIDFD) {
			int pidfd;
			pid_t pid = spawn(stack + STACK, &pidfd);
			/* One-shot, as the packages: a closed pidfd's entry
			 * lives on while a vfork child's copy of the fd table
			 * holds its file, and must not fire again. */
			struct epoll_event ev = {.events = EPOLLIN | EPOLLONESHOT,
						 .data.u64 = ((uint64_t)pid << 32) | (unsigned)pidfd};
			if (epoll_ctl(epfd, EPOLL_CTL_ADD, pidfd, &ev) < 0)
				die("epoll_ctl ADD of the pidfd");
		} else if (cur_mode == URINGW) {
			/* The waiter submits: the pid goes on a list; the
			 * waiter is woken (an eventfd it reads through the
			 * ring) only if it sleeps in io_uring_enter. */
			pid_t pid = spawn(stack + STACK, NULL);
			pthread_mutex_lock(&ring.lock);
			if (n_queued == QCAP) {
				fprintf(stderr, "exit_notify: pid queue full\n");
				exit(1);
			}
			queued[n_queued++] = pid;
			int wake = waiter_asleep;
			waiter_asleep = 0;
			pthread_mutex_unlock(&ring.lock);
			if (wake) {
				uint64_t one = 1;
				if (write(efd, &one, 8) != 8)
					die("write to the waiter's eventfd");
				wakes++;
			}
		} else {
			pid_t pid = spawn(stack + STACK, NULL);
			/* Batched: the first thread to find no submitter
			 * submits every SQE published until none is left;
			 * the others only publish theirs. */
			pthread_mutex_lock(&ring.lock);
			prep_waitid(sqe_get(), pid);
			sq_publish();
			ring.pending++;
			if (!ring.submitting) {
				ring.submitting = 1;
				while (ring.pending) {
					unsigned n = ring.pending;
					ring.pending = 0;
					pthread_mutex_unlock(&ring.lock);
					if (ring_enter(n, 0, 0) < 0)
						die("io_uring_enter (submit)");
					submits++;
					pthread_mutex_lock(&ring.lock);
				}
				ring.submitting = 0;
			}
			pthread_mutex_unlock(&ring.lock);
		}
	}
	/* Alive until every child of the round is reaped: an io_uring
	 * request belongs to the task that submitted it, and a waitid whose
	 * submitter has exited is run by a kernel worker, which has no
	 * children (ECHILD). Its wake-ups' task work runs on this thread, so
	 * its CPU is read after the round. */
	pthread_barrier_wait(&round_end);
	double c1 = ru_s(RUSAGE_THREAD);
	__atomic_fetch_add(&spawner_us, (long)((c1 - c0) * 1e6), __ATOMIC_RELAXED);
	free(stack);
	return NULL;
}
static void flight_cqe(struct io_uring_cqe *c)
{
	if (c->user_data == EFD_TAG) {
		efd_armed = 0;
		return;
	}
	if (c->res < 0) {
		errno = -c->res;
		die("IORING_OP_WAITID (16 in flight)");
	}
	reap((pid_t)c->user_data);
	sem_post(&slots);
	reaped_here++;
}
static void *waiter(void *arg)
{
	(void)arg;
	double c0 = ru_s(RUSAGE_THREAD);
	int done = 0;
	while (done < n_spawns) {
		if (cur_mode == FLOOR) {
			siginfo_t si;
			if (waitid(P_ALL, 0, &si, WEXITED) < 0) {
				if (errno == EINTR)
					continue;
				if (errno == ECHILD) { /* none spawned yet */
					sched_yield();
					continue;
				}
				die("waitid(P_ALL)");
			}
			sem_post(&slots);
			done++;
		} else if (cur_mode == PIDFD) {
			struct epoll_event evs[64];
			int n = epoll_wait(epfd, evs, 64, -1);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				die("epoll_wait");
			for (int i = 0; i < n; i++) {
				int fd = (int)(unsigned)evs[i].data.u64;
				siginfo_t si;
				if (waitid(P_PIDFD, fd, &si, WEXITED) < 0)
					die("waitid(P_PIDFD) in the waiter");
				close(fd);
				sem_post(&slots);
				done++;
			}
		} else if (cur_mode == URINGW) {
			/* Only this thread touches the ring in this mode. */
			reaped_here = 0;
			cq_drain(flight_cqe);
			done += reaped_here;
			if (done >= n_spawns)
				break;
			if (!efd_armed) {
				struct io_uring_sqe *e = sqe_get();
				e->opcode = IORING_OP_READ;
				e->fd = efd;
				e->addr = (uint64_t)(uintptr_t)&efd_buf;
				e->len = 8;
				e->user_data = EFD_TAG;
				efd_armed = 1;
			}
			pthread_mutex_lock(&ring.lock);
			int n = n_queued;
			for (int i = 0; i < n; i++)
				prep_waitid(sqe_get(), queued[i]);
			n_queued = 0;
			/* Asleep only if nothing was taken and nothing has
			 * completed: else look again first. */
			int sleep = reaped_here == 0 && n == 0;
			waiter_asleep = sleep;
			pthread_mutex_unlock(&ring.lock);
			sq_publish();
			unsigned to_submit = ring.sq_local_tail - *ring.sq_head;
			if (to_submit)
				w_submits++;
			w_spawns += n;
			if (ring_enter(to_submit, sleep ? 1 : 0, sleep ? IORING_ENTER_GETEVENTS : 0) < 0)
				die("io_uring_enter (waiter submits)");
			if (sleep) {
				pthread_mutex_lock(&ring.lock);
				waiter_asleep = 0;
				pthread_mutex_unlock(&ring.lock);
			}
		} else {
			reaped_here = 0;
			cq_drain(flight_cqe);
			done += reaped_here;
			if (reaped_here == 0 && ring_enter(0, 1, IORING_ENTER_GETEVENTS) < 0)
				die("io_uring_enter (waiter)");
		}
	}
	waiter_cpu = ru_s(RUSAGE_THREAD) - c0;
	pthread_barrier_wait(&round_end);
	return NULL;
}
static void in_flight(int mode)
{
	cur_mode = mode;
	next_spawn = 0;
	sem_init(&slots, 0, IN_FLIGHT);
	pthread_barrier_init(&round_end, NULL, n_spawners + 1);
	pthread_t w, s[64];
	pthread_create(&w, NULL, waiter, NULL);
	for (int i = 0; i < n_spawners; i++)
		pthread_create(&s[i], NULL, spawner, NULL);
	for (int i = 0; i < n_spawners; i++)
		pthread_join(s[i], NULL);
	pthread_join(w, NULL);
	sem_destroy(&slots);
	pthread_barrier_destroy(&round_end);
}

/* `PROGRAM sigchld-ignored`: with SIGCHLD ignored the kernel reaps the
 * children at exit; what does a pending IORING_OP_WAITID (WNOWAIT) give
 * then, and one submitted after the exit? */
static int check_ignored(void)
{
	signal(SIGCHLD, SIG_IGN);
	for (int late = 0; late < 2; late++) {
		pid_t pid = spawn(stack_main + STACK, NULL);
		if (late)
			usleep(100000);
		prep_waitid(sqe_get(), pid);
		sq_publish();
		if (ring_enter(1, 1, IORING_ENTER_GETEVENTS) < 0)
			die("io_uring_enter");
		cqe_seen = 0;
		cq_drain(one_cqe);
		siginfo_t si;
		int r = waitid(P_PID, pid, &si, WEXITED | WNOHANG);
		printf("SIGCHLD ignored, waitid op submitted %s the exit: res %d (%s); "
		       "then waitid(P_PID): %d (%s)\n",
		       late ? "after" : "before (the child still running or in exec)",
		       cqe_waitid_res, cqe_waitid_res < 0 ? strerror(-cqe_waitid_res) : "ok",
		       r, r < 0 ? strerror(errno) : "reaped");
	}
	return 0;
}

/* ---- rounds ---- */
#define MAXR 101
struct cell { double wall, self, spawners, waiter, children; };
static struct cell cells[2][N_MODES][MAXR];

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}
static void quart(double *v, int n, double q[3])
{
	double s[MAXR];
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, cmpd);
	q[0] = s[n / 4];
	q[1] = s[n / 2];
	q[2] = s[(3 * n) / 4];
}
static void loadavg(char *out, size_t n)
{
	FILE *f = fopen("/proc/loadavg", "r");
	if (!f || !fgets(out, n, f))
		snprintf(out, n, "?");
	if (f)
		fclose(f);
	out[strcspn(out, "\n")] = 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s PROGRAM [ROUNDS [N [SPAWNERS [LINGER_US]]]]\n", argv[0]);
		return 2;
	}
	program = argv[1];
	int ignored = argc > 2 && !strcmp(argv[2], "sigchld-ignored");
	if (argc > 2 && !ignored) rounds = atoi(argv[2]);
	if (argc > 3) n_spawns = atoi(argv[3]);
	if (argc > 4) n_spawners = atoi(argv[4]);
	if (argc > 5) linger_us = atoi(argv[5]);
	if (rounds < 1 || rounds > MAXR || n_spawns < 1 || n_spawners < 1 || n_spawners > 64) {
		fprintf(stderr, "exit_notify: bad arguments\n");
		return 2;
	}
	if (access(program, X_OK) < 0)
		die("access");
	stack_main = malloc(STACK);
	if (ring_setup(64) < 0)
		die("io_uring_setup");
	if (!probe_waitid()) {
		fprintf(stderr, "exit_notify: IORING_OP_WAITID (%d) not supported by this kernel\n",
			IORING_OP_WAITID_);
		return 1;
	}
	if (ignored)
		return check_ignored();
	epfd = epoll_create1(EPOLL_CLOEXEC);
	efd = eventfd(0, EFD_CLOEXEC);
	if (efd < 0)
		die("eventfd");
	char l0[128], l1[128];
	loadavg(l0, sizeof l0);
	time_t t0 = time(NULL);
	for (int r = 0; r < rounds; r++)
		for (int load = 0; load < 2; load++)
			for (int k = 0; k < N_MODES; k++) {
				int m = (k + r) % N_MODES;
				spawner_cpu = waiter_cpu = 0;
				double self0 = ru_s(RUSAGE_SELF), ch0 = ru_s(RUSAGE_CHILDREN);
				double w0 = now_s();
				if (load == 0) {
					double c0 = ru_s(RUSAGE_THREAD);
					one_at_a_time(m);
					spawner_cpu = ru_s(RUSAGE_THREAD) - c0;
				} else {
					spawner_us = 0;
					in_flight(m);
					spawner_cpu = spawner_us / 1e6;
					if (m == URING)
						uring_spawns += n_spawns;
				}
				struct cell *c = &cells[load][m][r];
				c->wall = now_s() - w0;
				c->self = ru_s(RUSAGE_SELF) - self0;
				c->children = ru_s(RUSAGE_CHILDREN) - ch0;
				c->spawners = spawner_cpu;
				c->waiter = waiter_cpu;
			}
	loadavg(l1, sizeof l1);
	char tb[64];
	strftime(tb, sizeof tb, "%H:%M:%S UTC", gmtime(&t0));
	printf("exit_notify %s: %d rounds x %d spawns per mode and load, %d spawner threads, linger %d us\n",
	       program, rounds, n_spawns, n_spawners, linger_us);
	printf("start %s, load average before: %s; after: %s\n", tb, l0, l1);
	printf("linger expired before the exit (pidfd + uring, one at a time): %ld of %d\n",
	       early_timeouts, 2 * rounds * n_spawns);
	printf("16 in flight, uring: %ld submitting io_uring_enter calls for %ld spawns\n",
	       submits, uring_spawns);
	printf("16 in flight, uringw: %ld submitting io_uring_enter calls for %ld spawns, %ld eventfd wakes\n",
	       w_submits, w_spawns, wakes);
	printf("per spawn, median over rounds (quartiles); CPU in us\n");
	for (int load = 0; load < 2; load++) {
		printf("\n%s\n", load ? "16 in flight (spawner threads -> one waiter)"
				      : "one at a time (bounded wait, then reap, one thread)");
		printf("%-6s %26s %26s %26s %26s %26s\n", "mode", "spawns/s", "process CPU",
		       load ? "spawner threads" : "the thread", "waiter thread", "children CPU");
		for (int m = 0; m < N_MODES; m++) {
			double v[5][MAXR], q[3];
			for (int r = 0; r < rounds; r++) {
				struct cell *c = &cells[load][m][r];
				v[0][r] = n_spawns / c->wall;
				v[1][r] = c->self / n_spawns * 1e6;
				v[2][r] = c->spawners / n_spawns * 1e6;
				v[3][r] = c->waiter / n_spawns * 1e6;
				v[4][r] = c->children / n_spawns * 1e6;
			}
			printf("%-6s", mode_name[m]);
			for (int k = 0; k < 5; k++) {
				quart(v[k], rounds, q);
				char b[64];
				snprintf(b, sizeof b, "%.1f (%.1f/%.1f)", q[1], q[0], q[2]);
				printf(" %26s", b);
			}
			printf("\n");
		}
		/* paired by round: uring and uringw against pidfd */
		for (int m = URING; m <= URINGW; m++) {
			double d[5][MAXR], q[3];
			for (int r = 0; r < rounds; r++) {
				struct cell *a = &cells[load][PIDFD][r], *b = &cells[load][m][r];
				d[0][r] = a->wall / b->wall;
				d[1][r] = (b->self - a->self) / n_spawns * 1e6;
				d[2][r] = (b->self + b->children - a->self - a->children) / n_spawns * 1e6;
				d[3][r] = (b->spawners - a->spawners) / n_spawns * 1e6;
				d[4][r] = (b->waiter - a->waiter) / n_spawns * 1e6;
			}
			const char *dn[] = {"spawns/s x", "process CPU", "process+children CPU",
					    load ? "spawner threads CPU" : "the thread's CPU", "waiter CPU"};
			for (int k = 0; k < (load ? 5 : 4); k++) {
				quart(d[k], rounds, q);
				printf("  paired %s-pidfd %-22s %.3f (%.3f/%.3f)%s\n", mode_name[m], dn[k],
				       q[1], q[0], q[2], k ? " us" : "");
			}
		}
	}
	return 0;
}
