/*
 * noop.c - the do-nothing child of the fastspawn benchmarks.
 *
 * A static binary with no libc and no dynamic loader: _start makes the
 * exit_group(0) system call and nothing else, so spawning it measures the
 * spawner plus the kernel's execve, not the child's start-up.
 *
 * Build: gcc -O2 -static -nostdlib -o noop noop.c
 */

void _start(void) __attribute__((noreturn, used));

void _start(void)
{
#if defined(__x86_64__)
	/* exit_group is syscall 231 on x86_64: rax = nr, rdi = status. */
	__asm__ volatile("mov $231, %%eax\n\t"
			 "xor %%edi, %%edi\n\t"
			 "syscall"
			 : : : "rax", "rdi", "rcx", "r11", "memory");
#elif defined(__aarch64__)
	/* exit_group is syscall 94 on aarch64: x8 = nr, x0 = status. */
	__asm__ volatile("mov x0, #0\n\t"
			 "mov x8, #94\n\t"
			 "svc #0"
			 : : : "x0", "x8", "memory");
#else
#error "noop.c: only x86_64 and aarch64 are supported"
#endif
	for (;;) {
	}
}
