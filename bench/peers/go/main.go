// Command go-peer is the fastspawn bench peer for Go (see docs/peer-protocol.md).
//
// Runner go-os-exec measures os/exec as Go programs use it: one exec.Cmd per
// spawn, Cmd.Start, then Cmd.Wait. The child's stdin, stdout and stderr are
// the peer's own *os.File values, so Go passes the fds straight through (no
// copying goroutines, no /dev/null opened per spawn). --extra-fds uses
// Cmd.ExtraFiles (child fds 3..3+K); --set-env gives every Cmd the same
// Env slice, os.Environ() plus FASTSPAWN_BENCH=1, built once before timing.
// Wall time uses time.Now/time.Since (monotonic clock), CPU time
// syscall.Getrusage(RUSAGE_SELF), which covers every thread of the process.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

const runnerName = "go-os-exec"

type result struct {
	Runner    string  `json:"runner"`
	Mode      string  `json:"mode"`
	N         int     `json:"n"`
	TotalNs   int64   `json:"total_ns"`
	CPUUserNs int64   `json:"cpu_user_ns"`
	CPUSysNs  int64   `json:"cpu_sys_ns"`
	SamplesNs []int64 `json:"samples_ns,omitempty"`
}

var rssKeep []byte // keeps the --rss-mib block alive until exit

func usage(why string) {
	if why != "" {
		fmt.Fprintf(os.Stderr, "go-peer: %s\n", why)
	}
	fmt.Fprintln(os.Stderr, "usage: go-peer --runner go-os-exec --mode wait|spawn --n N [--warmup W]\n"+
		"               [--rss-mib M] [--set-env] [--extra-fds K] [--samples] -- CHILD [CHILD_ARGS...]")
	os.Exit(2)
}

// fail reports a failure and exits 1, after reaping every child still around.
func fail(step string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %s: %v\n", runnerName, step, err)
	for {
		if _, err := syscall.Wait4(-1, nil, 0, nil); err != nil && err != syscall.EINTR {
			break
		}
	}
	os.Exit(1)
}

func cpuNs() (user, sys int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fail("getrusage", err)
	}
	return ru.Utime.Nano(), ru.Stime.Nano()
}

type spawner struct {
	argv  []string
	env   []string   // nil: inherit the peer's environment
	extra []*os.File // mapped to child fds 3..3+K
}

func (s *spawner) start() *exec.Cmd {
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = s.env
	cmd.ExtraFiles = s.extra
	if err := cmd.Start(); err != nil {
		fail("start", err)
	}
	return cmd
}

func wait(cmd *exec.Cmd) {
	if err := cmd.Wait(); err != nil {
		fail("wait", err)
	}
}

func main() {
	fs := flag.NewFlagSet("go-peer", flag.ContinueOnError)
	fs.Usage = func() {}
	runner := fs.String("runner", "", "")
	mode := fs.String("mode", "", "")
	n := fs.Int("n", -1, "")
	warmup := fs.Int("warmup", 20, "")
	rssMiB := fs.Int("rss-mib", 0, "")
	setEnv := fs.Bool("set-env", false, "")
	extraFds := fs.Int("extra-fds", 0, "")
	samples := fs.Bool("samples", false, "")
	asyncMode := fs.String("async-mode", "", "")
	if err := fs.Parse(os.Args[1:]); err != nil {
		usage("")
	}
	switch {
	case *runner != runnerName:
		usage(fmt.Sprintf("unknown runner %q", *runner))
	case *mode != "wait" && *mode != "spawn":
		usage("--mode must be wait or spawn")
	case *n < 1 || *warmup < 0 || *rssMiB < 0 || *extraFds < 0:
		usage("--n must be >= 1; --warmup, --rss-mib and --extra-fds >= 0")
	case *asyncMode != "":
		usage("--async-mode applies only to async runners")
	case fs.NArg() == 0:
		usage("missing -- CHILD [CHILD_ARGS...]")
	}

	// --rss-mib: make M MiB resident before anything else.
	if *rssMiB > 0 {
		rssKeep = make([]byte, *rssMiB<<20)
		for off := 0; off < len(rssKeep); off += 4096 {
			rssKeep[off] = 1
		}
	}

	s := &spawner{argv: fs.Args()}
	if *setEnv {
		s.env = append(os.Environ(), "FASTSPAWN_BENCH=1")
	}
	for i := 0; i < *extraFds; i++ {
		r, w, err := os.Pipe()
		if err != nil {
			fail("pipe", err)
		}
		w.Close()
		s.extra = append(s.extra, r)
	}

	for i := 0; i < *warmup; i++ {
		wait(s.start())
	}

	spawnMode := *mode == "spawn"
	var cmds []*exec.Cmd
	if spawnMode {
		cmds = make([]*exec.Cmd, 0, *n)
	}
	var sampleNs []int64
	if *samples {
		sampleNs = make([]int64, 0, *n)
	}

	u0, s0 := cpuNs()
	t0 := time.Now()
	t := t0
	for i := 0; i < *n; i++ {
		cmd := s.start()
		if spawnMode {
			cmds = append(cmds, cmd)
		} else {
			wait(cmd)
		}
		if *samples {
			t1 := time.Now()
			sampleNs = append(sampleNs, int64(t1.Sub(t)))
			t = t1
		}
	}
	total := time.Since(t0)
	u1, s1 := cpuNs()

	for _, cmd := range cmds {
		wait(cmd)
	}

	out, err := json.Marshal(result{
		Runner: runnerName, Mode: *mode, N: *n, TotalNs: int64(total),
		CPUUserNs: u1 - u0, CPUSysNs: s1 - s0, SamplesNs: sampleNs,
	})
	if err != nil {
		fail("json", err)
	}
	fmt.Println(string(out))
}
