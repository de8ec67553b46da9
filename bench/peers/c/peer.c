/*
 * peer.c - fastspawn bench peer for C and glibc (see docs/peer-protocol.md).
 *
 * Measures the spawn primitives themselves, with nothing of a runtime on top:
 *   c-fork                  fork() + execve()
 *   c-vfork                 vfork() + execve()
 *   c-clone                 glibc clone(CLONE_VM|CLONE_VFORK|SIGCHLD) on a
 *                           stack mapped once and reused, + execve()
 *   c-posix-spawn           posix_spawn()
 *   c-posix-spawn-usevfork  posix_spawn() with POSIX_SPAWN_USEVFORK
 *   c-fork-exit, c-vfork-exit, c-clone-exit
 *                           the child calls _exit(0) at once (no exec, CHILD
 *                           ignored): the process-creation cost alone
 *   c-clone3                raw clone3(CLONE_VM|CLONE_VFORK) on a reused
 *                           stack + execve: the plain twin of the next one
 *   c-clone3-contained      the same with CLONE_INTO_CGROUP, into one cgroup
 *                           the peer makes at start (under its own cgroup v2
 *                           directory, or --cgroup-parent DIR) and removes at
 *                           exit: the kernel's own price of a contained spawn
 *   c-clone3-contained-reads
 *                           the same, and after each child is reaped a
 *                           pread of the cgroup's cgroup.events and cpu.stat:
 *                           what a spawner that reuses the cgroup must read
 *                           to know it is empty and where the next tree's
 *                           CPU count starts (fastspawn's Command::contain)
 *   c-clone3-same-work      the kernel work of fastspawn's default child:
 *                           clone3(CLONE_VM|CLONE_FILES|CLONE_VFORK|
 *                           CLONE_CLEAR_SIGHAND), SIGPIPE back to its default
 *                           (the peer ignores it first, as Rust's runtime
 *                           does), close_range(3, ~0, CLOSE_RANGE_UNSHARE),
 *                           execve: what the C loops skip and std's
 *                           semantics need
 *
 * --pool-threads K (c-clone, spawn mode): K threads, each with its own clone
 * stack, start the N children together (thread i takes every K-th share):
 * the kernel's own scaling of concurrent spawns, the ceiling for a pool.
 *
 * Everything a spawn needs (argv, envp, fd sources, file actions, clone
 * stack) is built once before the clock starts. Wall time comes from
 * clock_gettime(CLOCK_MONOTONIC), CPU from getrusage(RUSAGE_SELF). An exec
 * failure in a forked child shows up as exit status 127 and is reported as
 * an error, as is any non-zero child status.
 *
 * Build: gcc -O2 -Wall -Wextra -Werror -pthread -o c-peer peer.c (x86-64:
 * the clone3 runners switch stacks in inline assembly).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum runner {
	R_FORK, R_VFORK, R_CLONE, R_POSIX_SPAWN, R_POSIX_SPAWN_USEVFORK,
	R_FORK_EXIT, R_VFORK_EXIT, R_CLONE_EXIT, R_CLONE3, R_CLONE3_CONTAINED,
	R_CLONE3_SAME_WORK, R_CLONE3_CONTAINED_READS, R_COUNT
};

static const char *const runner_names[R_COUNT] = {
	"c-fork", "c-vfork", "c-clone", "c-posix-spawn",
	"c-posix-spawn-usevfork", "c-fork-exit", "c-vfork-exit", "c-clone-exit",
	"c-clone3", "c-clone3-contained", "c-clone3-same-work",
	"c-clone3-contained-reads",
};

#define CLONE_STACK_SIZE (256 * 1024)

/* Prepared once, read by every spawn (and by vfork/clone children). */
static const char *runner_name = "c-peer";
static char **child_argv;
static char **child_envp;
static int n_extra;
static int *extra_src;		/* parent fds, all >= 3 + n_extra */
static char *clone_stack_top;
static posix_spawn_file_actions_t file_actions;
static posix_spawn_file_actions_t *file_actions_p;
static posix_spawnattr_t spawn_attr;
static void *volatile rss_keep;	/* keeps the --rss-mib block alive */
static struct clone_args clone3_args;	/* the clone3 runners' arguments */
static char cgroup_path[4096];	/* c-clone3-contained's cgroup, removed at exit */
static int cgroup_events = -1, cgroup_cpu_stat = -1; /* c-clone3-contained-reads */

static void usage(const char *why)
{
	if (why)
		fprintf(stderr, "c-peer: %s\n", why);
	fprintf(stderr,
		"usage: c-peer --runner NAME --mode wait|spawn --n N [--warmup W]\n"
		"              [--rss-mib M] [--set-env] [--extra-fds K] [--samples]\n"
		"              [--cgroup-parent DIR]\n"
		"              -- CHILD [CHILD_ARGS...]\n"
		"runners:");
	for (int i = 0; i < R_COUNT; i++)
		fprintf(stderr, " %s", runner_names[i]);
	fprintf(stderr, "\n");
	exit(2);
}

/*
 * Removes c-clone3-contained's cgroup once every child is reaped. The
 * cgroup is empty then, or about to be: the kernel may still be finishing
 * the last exit (EBUSY), hence the retries. Returns 0, or -1 with errno.
 */
static int remove_cgroup(void)
{
	for (int i = 0; cgroup_path[0] && rmdir(cgroup_path) < 0; i++) {
		if (errno != EBUSY || i == 1000)
			return -1;
		usleep(1000);
	}
	cgroup_path[0] = 0;
	return 0;
}

/* Reports a failure and exits 1, after reaping every child still around
 * and removing the cgroup (a failed run leaves nothing behind either). */
static void die(const char *step, int err)
{
	fprintf(stderr, "%s: %s: %s\n", runner_name, step, strerror(err));
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	if (remove_cgroup() < 0)
		fprintf(stderr, "%s: rmdir %s: %s\n", runner_name,
			cgroup_path, strerror(errno));
	exit(1);
}

static long parse_num(const char *opt, const char *s, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min) {
		fprintf(stderr, "c-peer: bad value for --%s: '%s'\n", opt, s);
		usage(NULL);
	}
	return v;
}

static int err_or_zero(int err)
{
	errno = err;
	return err;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long tv_ns(struct timeval tv)
{
	return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL;
}

/* Runs in the child (forked, vforked or cloned): only dup2, execve, _exit. */
static void __attribute__((noreturn)) child_exec(void)
{
	for (int i = 0; i < n_extra; i++)
		if (dup2(extra_src[i], 3 + i) < 0)
			_exit(127);
	execve(child_argv[0], child_argv, child_envp);
	_exit(127);
}

static int clone_exec_fn(void *arg)
{
	(void)arg;
	child_exec();
}

static int clone_exit_fn(void *arg)
{
	(void)arg;
	_exit(0);
}

/*
 * c-clone3-same-work's child: what fastspawn's child does by default. The
 * fd table is the parent's until close_range unshares it, keeping only
 * what lies below the first fd nobody needs (stdio, --extra-fds' sources).
 */
static unsigned int first_unneeded_fd = 3;

static void __attribute__((noreturn)) same_work_exec(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	if (sigaction(SIGPIPE, &dfl, NULL) < 0 ||
	    syscall(SYS_close_range, first_unneeded_fd, ~0U, CLOSE_RANGE_UNSHARE) < 0)
		_exit(127);
	child_exec();
}

/*
 * clone3 with CLONE_VM and a stack of its own: glibc has no wrapper, and a
 * C function cannot go on after the syscall in a child that runs on another
 * stack. So the child's side never returns from the assembly: it calls
 * fn() (which execs or _exits) on the new stack, its frame pointer cleared.
 * fn stays in r12, which the kernel keeps for both sides.
 */
static pid_t clone3_run(struct clone_args *args, void (*fn)(void))
{
#if defined(__x86_64__)
	register void (*r12)(void) __asm__("r12") = fn;
	long ret;

	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "call *%%r12\n\t"
			 "ud2\n"
			 "1:"
			 : "=a"(ret)
			 : "a"((long)SYS_clone3), "D"(args), "S"(sizeof(*args)), "r"(r12)
			 : "rcx", "r11", "memory");
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return (pid_t)ret;
#else
	(void)args;
	(void)fn;
	errno = ENOSYS;
	return -1;
#endif
}

/*
 * c-clone3-contained's cgroup: a new directory under --cgroup-parent or,
 * by default, under this process's own cgroup v2 directory (the "0::" line
 * of /proc/self/cgroup under the cgroup2 mount of /proc/self/mounts), as
 * fastspawn's Command::contain picks its parent.
 */
static int make_cgroup(const char *parent)
{
	char own[4096] = "", mnt[4096] = "", line[8192];
	FILE *f;
	int fd;

	if (!parent) {
		if (!(f = fopen("/proc/self/cgroup", "re")))
			die("open /proc/self/cgroup", errno);
		while (fgets(line, sizeof(line), f))
			if (strncmp(line, "0::", 3) == 0)
				sscanf(line + 3, "%4095[^\n]", own);
		fclose(f);
		if (!(f = fopen("/proc/self/mounts", "re")))
			die("open /proc/self/mounts", errno);
		while (fgets(line, sizeof(line), f)) {
			char dir[4096], type[64];

			if (sscanf(line, "%*s %4095s %63s", dir, type) == 2 &&
			    strcmp(type, "cgroup2") == 0 && !mnt[0])
				strcpy(mnt, dir);
		}
		fclose(f);
		if (!own[0] || !mnt[0])
			die("find this process's cgroup v2 directory", ENOENT);
	}
	if (snprintf(cgroup_path, sizeof(cgroup_path), "%s%s/c-peer-%d",
		     parent ? parent : mnt, parent ? "" : own,
		     (int)getpid()) >= (int)sizeof(cgroup_path))
		die("cgroup path", ENAMETOOLONG);
	if (mkdir(cgroup_path, 0755) < 0) {
		int err = errno;

		cgroup_path[0] = 0;
		die("mkdir the cgroup", err);
	}
	if ((fd = open(cgroup_path, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		die("open the cgroup", errno);
	return fd;
}

static char *map_stack(void)
{
	char *stack = mmap(NULL, CLONE_STACK_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	if (stack == MAP_FAILED)
		die("mmap", errno);
	return stack + CLONE_STACK_SIZE; /* stacks grow down */
}

/* --pool-threads: one thread's share of a c-clone spawn-mode round. */
struct share {
	pthread_t thread;
	char *stack_top;
	pid_t *pids;
	long count;
	int err;
};

static pthread_barrier_t start_line;

static void *spawn_share(void *arg)
{
	struct share *sh = arg;

	pthread_barrier_wait(&start_line);
	for (long i = 0; i < sh->count; i++) {
		sh->pids[i] = clone(clone_exec_fn, sh->stack_top,
				    CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
		if (sh->pids[i] < 0) {
			sh->err = errno;
			sh->count = i;
			break;
		}
	}
	return NULL;
}

static pid_t spawn_one(enum runner r)
{
	pid_t pid = -1;
	int err;

	switch (r) {
	case R_FORK:
		pid = fork();
		if (pid == 0)
			child_exec();
		break;
	case R_VFORK:
		pid = vfork();
		if (pid == 0)
			child_exec();
		break;
	case R_CLONE:
		pid = clone(clone_exec_fn, clone_stack_top,
			    CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
		break;
	case R_POSIX_SPAWN:
	case R_POSIX_SPAWN_USEVFORK:
		err = posix_spawn(&pid, child_argv[0], file_actions_p,
				  &spawn_attr, child_argv, child_envp);
		if (err)
			die("posix_spawn", err);
		return pid;
	case R_FORK_EXIT:
		pid = fork();
		if (pid == 0)
			_exit(0);
		break;
	case R_VFORK_EXIT:
		pid = vfork();
		if (pid == 0)
			_exit(0);
		break;
	case R_CLONE_EXIT:
		pid = clone(clone_exit_fn, clone_stack_top,
			    CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
		break;
	case R_CLONE3:
	case R_CLONE3_CONTAINED:
	case R_CLONE3_CONTAINED_READS:
		pid = clone3_run(&clone3_args, child_exec);
		break;
	case R_CLONE3_SAME_WORK:
		pid = clone3_run(&clone3_args, same_work_exec);
		break;
	case R_COUNT:
		break;
	}
	if (pid < 0)
		die(r >= R_CLONE3 ? "clone3" :
		    r == R_CLONE || r == R_CLONE_EXIT ? "clone" :
		    r == R_FORK || r == R_FORK_EXIT ? "fork" : "vfork", errno);
	return pid;
}

static void reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid", errno);
	if (cgroup_events >= 0) {
		char buf[512];

		if (pread(cgroup_events, buf, sizeof(buf), 0) < 0 ||
		    pread(cgroup_cpu_stat, buf, sizeof(buf), 0) < 0)
			die("pread the cgroup's files", errno);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "%s: wait: child %s %d%s\n", runner_name,
			WIFEXITED(status) ? "exited with status" : "killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			WIFEXITED(status) && WEXITSTATUS(status) == 127 ?
			" (exec failed?)" : "");
		while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
			;
		if (remove_cgroup() < 0)
			fprintf(stderr, "%s: rmdir %s: %s\n", runner_name,
				cgroup_path, strerror(errno));
		exit(1);
	}
}

static void prepare(enum runner r, int set_env, const char *cgroup_parent)
{
	int err;

	/* --set-env: a copy of environ plus one variable, built once. */
	child_envp = environ;
	if (set_env) {
		size_t n = 0;

		while (environ[n])
			n++;
		child_envp = malloc((n + 2) * sizeof(char *));
		if (!child_envp)
			die("malloc", errno);
		memcpy(child_envp, environ, n * sizeof(char *));
		child_envp[n] = "FASTSPAWN_BENCH=1";
		child_envp[n + 1] = NULL;
	}

	/* --extra-fds: K pipe read ends, moved above 3+K so that the child's
	 * dup2(src, 3+i) can never overwrite a source it still needs. */
	extra_src = calloc(n_extra ? n_extra : 1, sizeof(int));
	if (!extra_src)
		die("calloc", errno);
	for (int i = 0; i < n_extra; i++) {
		int p[2];

		if (pipe2(p, O_CLOEXEC) < 0)
			die("pipe2", errno);
		extra_src[i] = fcntl(p[0], F_DUPFD_CLOEXEC, 3 + n_extra);
		if (extra_src[i] < 0)
			die("fcntl", errno);
		close(p[0]);
		close(p[1]);
	}

	if (r == R_CLONE || r == R_CLONE_EXIT)
		clone_stack_top = map_stack();

	if (r >= R_CLONE3) {
		clone3_args = (struct clone_args){
			.flags = CLONE_VM | CLONE_VFORK,
			.exit_signal = SIGCHLD,
			.stack_size = CLONE_STACK_SIZE,
		};
		clone3_args.stack = (uintptr_t)(map_stack() - CLONE_STACK_SIZE);
		if (r == R_CLONE3_CONTAINED || r == R_CLONE3_CONTAINED_READS) {
			int dir = make_cgroup(cgroup_parent);

			clone3_args.flags |= CLONE_INTO_CGROUP;
			clone3_args.cgroup = (uint64_t)dir;
			if (r == R_CLONE3_CONTAINED_READS &&
			    ((cgroup_events = openat(dir, "cgroup.events", O_RDONLY | O_CLOEXEC)) < 0 ||
			     (cgroup_cpu_stat = openat(dir, "cpu.stat", O_RDONLY | O_CLOEXEC)) < 0))
				die("open the cgroup's cgroup.events and cpu.stat", errno);
		}
		if (r == R_CLONE3_SAME_WORK) {
			clone3_args.flags |= CLONE_FILES | CLONE_CLEAR_SIGHAND;
			signal(SIGPIPE, SIG_IGN);
			for (int i = 0; i < n_extra; i++)
				if ((unsigned int)extra_src[i] >= first_unneeded_fd)
					first_unneeded_fd = extra_src[i] + 1;
		}
	}

	if (r == R_POSIX_SPAWN || r == R_POSIX_SPAWN_USEVFORK) {
		if ((err = posix_spawnattr_init(&spawn_attr)))
			die("posix_spawnattr_init", err);
		if (r == R_POSIX_SPAWN_USEVFORK &&
		    (err = posix_spawnattr_setflags(&spawn_attr, POSIX_SPAWN_USEVFORK)))
			die("posix_spawnattr_setflags", err);
		if (n_extra) {
			if ((err = posix_spawn_file_actions_init(&file_actions)))
				die("posix_spawn_file_actions_init", err);
			for (int i = 0; i < n_extra; i++)
				if ((err = posix_spawn_file_actions_adddup2(
					     &file_actions, extra_src[i], 3 + i)))
					die("posix_spawn_file_actions_adddup2", err);
			file_actions_p = &file_actions;
		}
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "runner", required_argument, NULL, 'r' },
		{ "mode", required_argument, NULL, 'm' },
		{ "n", required_argument, NULL, 'n' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "rss-mib", required_argument, NULL, 'R' },
		{ "set-env", no_argument, NULL, 'e' },
		{ "extra-fds", required_argument, NULL, 'f' },
		{ "samples", no_argument, NULL, 's' },
		{ "async-mode", required_argument, NULL, 'a' },
		{ "pool-threads", required_argument, NULL, 'p' },
		{ "cgroup-parent", required_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mode = NULL, *async_mode = NULL, *cgroup_parent = NULL;
	long n = -1, warmup = 20, rss_mib = 0, threads = 0;
	int set_env = 0, want_samples = 0, spawn_mode, r = -1, c;

	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			for (int i = 0; i < R_COUNT; i++)
				if (strcmp(optarg, runner_names[i]) == 0)
					r = i;
			if (r < 0) {
				fprintf(stderr, "c-peer: unknown runner '%s'\n", optarg);
				usage(NULL);
			}
			break;
		case 'm': mode = optarg; break;
		case 'n': n = parse_num("n", optarg, 1); break;
		case 'w': warmup = parse_num("warmup", optarg, 0); break;
		case 'R': rss_mib = parse_num("rss-mib", optarg, 0); break;
		case 'e': set_env = 1; break;
		case 'f': n_extra = (int)parse_num("extra-fds", optarg, 0); break;
		case 's': want_samples = 1; break;
		case 'a': async_mode = optarg; break;
		case 'p': threads = parse_num("pool-threads", optarg, 1); break;
		case 'g': cgroup_parent = optarg; break;
		default: usage(NULL);
		}
	}
	if (r < 0 || !mode || n < 0)
		usage("--runner, --mode and --n are required");
	if (strcmp(mode, "wait") && strcmp(mode, "spawn"))
		usage("--mode must be wait or spawn");
	if (async_mode)
		usage("--async-mode applies only to async runners");
	if (n_extra > 1000)
		usage("--extra-fds must be at most 1000");
	spawn_mode = strcmp(mode, "spawn") == 0;
	if (threads && (r != R_CLONE || !spawn_mode || want_samples || threads > 64))
		usage("--pool-threads (1..64) applies to c-clone in spawn mode, without --samples");
	if (cgroup_parent && r != R_CLONE3_CONTAINED && r != R_CLONE3_CONTAINED_READS)
		usage("--cgroup-parent applies only to the c-clone3-contained runners");
	runner_name = runner_names[r];
	child_argv = argv + optind;
	if ((r < R_FORK_EXIT || r >= R_CLONE3) && !child_argv[0])
		usage("missing -- CHILD [CHILD_ARGS...]");

	/* --rss-mib: make M MiB resident before anything else. */
	if (rss_mib > 0) {
		size_t size = (size_t)rss_mib << 20;
		char *block = malloc(size);

		if (!block)
			die("malloc (--rss-mib)", errno);
		for (size_t off = 0; off < size; off += 4096)
			block[off] = 1;
		rss_keep = block;
	}

	prepare(r, set_env, cgroup_parent);

	for (long i = 0; i < warmup; i++)
		reap(spawn_one(r));

	pid_t *pids = spawn_mode ? malloc(n * sizeof(pid_t)) : NULL;
	long long *samples = want_samples ? malloc(n * sizeof(long long)) : NULL;
	if ((spawn_mode && !pids) || (want_samples && !samples))
		die("malloc", errno);

	struct share shares[64];
	for (long k = 0; k < threads; k++) {
		shares[k] = (struct share){
			.stack_top = map_stack(),
			.pids = pids + n / threads * k + (k < n % threads ? k : n % threads),
			.count = n / threads + (k < n % threads),
		};
	}
	if (threads && (err_or_zero(pthread_barrier_init(&start_line, NULL, threads + 1))))
		die("pthread_barrier_init", errno);
	for (long k = 0; k < threads; k++) {
		int err = pthread_create(&shares[k].thread, NULL, spawn_share, &shares[k]);

		if (err)
			die("pthread_create", err);
	}

	struct rusage ru0, ru1;
	getrusage(RUSAGE_SELF, &ru0);
	long long t0 = now_ns(), t = t0;
	if (threads) {
		pthread_barrier_wait(&start_line);
		for (long k = 0; k < threads; k++)
			pthread_join(shares[k].thread, NULL);
	}
	for (long i = 0; !threads && i < n; i++) {
		pid_t pid = spawn_one(r);

		if (spawn_mode)
			pids[i] = pid;
		else
			reap(pid);
		if (want_samples) {
			long long t1 = now_ns();

			samples[i] = t1 - t;
			t = t1;
		}
	}
	long long total = now_ns() - t0;
	getrusage(RUSAGE_SELF, &ru1);

	if (threads) {
		int err = 0;

		for (long k = 0; k < threads; k++) {
			for (long i = 0; i < shares[k].count; i++)
				reap(shares[k].pids[i]);
			err = err ? err : shares[k].err;
		}
		if (err)
			die("clone", err);
	} else {
		for (long i = 0; spawn_mode && i < n; i++)
			reap(pids[i]);
	}

	printf("{\"runner\":\"%s\",\"mode\":\"%s\",\"n\":%ld,\"total_ns\":%lld,"
	       "\"cpu_user_ns\":%lld,\"cpu_sys_ns\":%lld",
	       runner_name, mode, n, total,
	       tv_ns(ru1.ru_utime) - tv_ns(ru0.ru_utime),
	       tv_ns(ru1.ru_stime) - tv_ns(ru0.ru_stime));
	if (want_samples) {
		printf(",\"samples_ns\":[");
		for (long i = 0; i < n; i++)
			printf(i ? ",%lld" : "%lld", samples[i]);
		printf("]");
	}
	printf("}\n");
	if (remove_cgroup() < 0) {
		fprintf(stderr, "%s: rmdir %s: %s\n", runner_name,
			cgroup_path, strerror(errno));
		return 1;
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
