#!/usr/bin/env python3
"""Writes bench/http/main.c, the payload of the HTTP benchmark's `cat` workload.

The seed served SQLite's shell `main.c` (163 KB) with `cat main.c`; this
project ships its own C file of that size instead: a self-checking program
that runs a chain of generated mixing stages over a small state and compares
the result with the checksum this script computes by simulating the same
stages. Deterministic (fixed seed, no dependence on the Python version's
`random` internals), so `python3 gen_main_c.py | cmp - main.c` checks it.

Usage: python3 gen_main_c.py > main.c
"""

import sys

TARGET_BYTES = 163_000
MASK = 0xFFFFFFFF


class Lcg:
    """A 64-bit linear congruential generator (Knuth's MMIX constants)."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next32(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return self.state >> 32

    def below(self, n):
        return self.next32() % n


REGS = ["a", "b", "c", "d"]


def rotl(x, r):
    return ((x << r) | (x >> (32 - r))) & MASK


def make_op(rng):
    """One operation: (C text, Python function over the register dict)."""
    kind = rng.below(6)
    dst = REGS[rng.below(4)]
    src = REGS[(REGS.index(dst) + 1 + rng.below(3)) % 4]
    if kind == 0:
        k = rng.next32()

        def f(s, k_in, dst=dst, src=src, k=k):
            s[dst] = (s[dst] + (s[src] ^ k)) & MASK

        return f"s->{dst} += s->{src} ^ 0x{k:08x}u;", f
    if kind == 1:
        r = 1 + rng.below(31)

        def f(s, k_in, dst=dst, src=src, r=r):
            s[dst] = rotl(s[dst] ^ s[src], r)

        return f"s->{dst} = rotl32(s->{dst} ^ s->{src}, {r});", f
    if kind == 2:
        m = rng.next32() | 1

        def f(s, k_in, dst=dst, m=m):
            s[dst] = (s[dst] * m) & MASK

        return f"s->{dst} *= 0x{m:08x}u;", f
    if kind == 3:

        def f(s, k_in, dst=dst):
            s[dst] = (s[dst] + k_in) & MASK

        return f"s->{dst} += k;", f
    if kind == 4:
        sh = 1 + rng.below(15)

        def f(s, k_in, dst=dst, src=src, sh=sh):
            s[dst] ^= s[src] >> sh

        return f"s->{dst} ^= s->{src} >> {sh};", f
    k = rng.next32()

    def f(s, k_in, dst=dst, src=src, k=k):
        s[dst] = (s[dst] - (s[src] & k)) & MASK

    return f"s->{dst} -= s->{src} & 0x{k:08x}u;", f


def key_op(dst):
    def f(s, k_in, dst=dst):
        s[dst] ^= k_in

    return f"s->{dst} ^= k;", f


HEADER = """\
/*
 * main.c - the payload of fastspawn's HTTP benchmark (`fastspawn bench http`).
 *
 * The servers of bench/http answer every request of the `cat` workload with
 * the output of `cat main.c`, as in the article the benchmark reproduces,
 * which served SQLite's 163 KB shell source. This file is about that size and
 * was generated for this project by gen_main_c.py (do not edit it by hand:
 * run `python3 gen_main_c.py > main.c`).
 *
 * It is a real program: it runs %(count)d generated mixing stages over a
 * 128-bit state, several rounds, and checks the result against the value the
 * generator computed by simulating the same stages. Build and run:
 *
 *     cc -O2 -o main main.c && ./main      # prints the checksum, exit 0
 *     ./main 7                             # a different number of rounds
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    uint32_t a, b, c, d;
} state_t;

typedef void (*stage_fn)(state_t *s, uint32_t k);

static uint32_t rotl32(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

"""

FOOTER = """\
static const stage_fn stages[] = {
%(table)s
};

#define STAGE_COUNT (sizeof(stages) / sizeof(stages[0]))
#define DEFAULT_ROUNDS %(rounds)d
#define EXPECTED_CHECKSUM 0x%(expected)08xu

/* Runs every stage `rounds` times; stage i of round r gets k = i * 0x9e3779b9 + r. */
static uint32_t run(unsigned rounds)
{
    state_t s = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au};
    for (unsigned r = 0; r < rounds; r++) {
        for (size_t i = 0; i < STAGE_COUNT; i++) {
            stages[i](&s, (uint32_t)i * 0x9e3779b9u + r);
        }
    }
    return s.a ^ rotl32(s.b, 8) ^ rotl32(s.c, 16) ^ rotl32(s.d, 24);
}

int main(int argc, char **argv)
{
    unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : DEFAULT_ROUNDS;
    uint32_t sum = run(rounds);
    printf("%%zu stages x %%u rounds: checksum 0x%%08x\\n", (size_t)STAGE_COUNT, rounds, sum);
    if (rounds == DEFAULT_ROUNDS && sum != EXPECTED_CHECKSUM) {
        fprintf(stderr, "checksum mismatch: expected 0x%%08x\\n", EXPECTED_CHECKSUM);
        return 1;
    }
    return 0;
}
"""

ROUNDS = 3


def generate():
    rng = Lcg(0x66617374_7370776E)  # "fastspwn"
    stages = []  # (C text, [python ops])
    size_estimate = len(HEADER) + len(FOOTER) + 200
    index = 0
    while size_estimate < TARGET_BYTES:
        index += 1
        ops = [make_op(rng) for _ in range(6 + rng.below(7))]
        ops.insert(index % len(ops), key_op(REGS[index % 4]))  # every stage uses its key
        body = "\n".join(f"    {text}" for text, _ in ops)
        text = (
            f"/* stage {index}: {len(ops)} operations */\n"
            f"static void stage_{index:04d}(state_t *s, uint32_t k)\n{{\n{body}\n}}\n\n"
        )
        stages.append((text, [f for _, f in ops]))
        size_estimate += len(text) + len(f"    stage_{index:04d},\n")

    state = {"a": 0x6A09E667, "b": 0xBB67AE85, "c": 0x3C6EF372, "d": 0xA54FF53A}
    for r in range(ROUNDS):
        for i, (_, fns) in enumerate(stages):
            k = (i * 0x9E3779B9 + r) & MASK
            for f in fns:
                f(state, k)
    expected = state["a"] ^ rotl(state["b"], 8) ^ rotl(state["c"], 16) ^ rotl(state["d"], 24)

    out = [HEADER % {"count": len(stages)}]
    out.extend(text for text, _ in stages)
    table = "\n".join(f"    stage_{i + 1:04d}," for i in range(len(stages)))
    out.append(FOOTER % {"table": table, "rounds": ROUNDS, "expected": expected})
    return "".join(out)


if __name__ == "__main__":
    sys.stdout.write(generate())
