/*
 * echo.c - a static echo without libc, the task program of the
 * `distributed` benchmark.
 *
 * Prints its arguments separated by spaces and a newline, like echo(1)
 * without options, then exits 0. `echo -s MS ARGS...` first sleeps MS
 * milliseconds (the worker-kill test needs children that are still running
 * when their worker dies). Like noop.c it has no dynamic loader and
 * no libc start-up, so a task's cost is the spawner's plus the kernel's
 * execve and one write, and its output proves that it ran.
 *
 * Build: gcc -O2 -static -nostdlib -fno-stack-protector -o echo echo.c
 */

#if !defined(__x86_64__)
#error "echo.c: only x86_64 is supported"
#endif

static long sys3(long nr, long a, long b, long c)
{
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

static void put(const char *s, long n)
{
	while (n > 0) {
		long w = sys3(1 /* write */, 1, (long)s, n);
		if (w <= 0)
			sys3(231 /* exit_group */, 1, 0, 0);
		s += w;
		n -= w;
	}
}

/* Called by _start with the initial stack: argc, then argv[]. */
__attribute__((noreturn, used)) void echo_main(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	char buf[4096];
	long len = 0;
	long first = 1;

	if (argc > 2 && argv[1][0] == '-' && argv[1][1] == 's' && argv[1][2] == 0) {
		long ms = 0;
		for (const char *d = argv[2]; *d >= '0' && *d <= '9'; d++)
			ms = ms * 10 + (*d - '0');
		long ts[2] = {ms / 1000, (ms % 1000) * 1000000};
		sys3(35 /* nanosleep */, (long)ts, 0, 0);
		first = 3;
	}
	for (long i = first; i < argc; i++) {
		const char *a = argv[i];
		if (i > first) {
			if (len == (long)sizeof(buf)) {
				put(buf, len);
				len = 0;
			}
			buf[len++] = ' ';
		}
		for (; *a; a++) {
			if (len == (long)sizeof(buf)) {
				put(buf, len);
				len = 0;
			}
			buf[len++] = *a;
		}
	}
	if (len == (long)sizeof(buf)) {
		put(buf, len);
		len = 0;
	}
	buf[len++] = '\n';
	put(buf, len);
	sys3(231 /* exit_group */, 0, 0, 0);
	for (;;) {
	}
}

/* The kernel enters with rsp at argc; keep it, align the stack, call. */
__asm__(".globl _start\n"
	"_start:\n"
	"\tmov %rsp, %rdi\n"
	"\tand $-16, %rsp\n"
	"\tcall echo_main\n");
