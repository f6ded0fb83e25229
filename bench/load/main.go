// Command load measures what assent adds to a command: it makes N
// auto-approved calls of `echo hello` through assent (in process, over
// stdio and over Streamable HTTP, against a freshly built binary) and runs
// the same command N times with bare os/exec, in the same run, in
// interleaved rounds so that a noisy machine slows every target alike. It
// reports p50, p95, p99 and calls/s for each, and each p50 against bare
// exec's. The floor target is a bare mcp-go stdio server whose handler
// runs the command with os/exec: what the MCP round trip alone costs.
//
//	go run ./bench/load -n 2000 -c 1
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// target is one way of running the command.
type target struct {
	name string
	// call makes one call and returns an error if it did not run cleanly.
	call func(ctx context.Context) error
	// close releases what the target holds.
	close func() error
}

func main() {
	for env, serve := range map[string]func() error{floorEnv: serveFloor, handEnv: serveHand, handHTTPEnv: serveHandHTTP} {
		if os.Getenv(env) != "" {
			if err := serve(); err != nil {
				fmt.Fprintln(os.Stderr, "load server:", err)
				os.Exit(1)
			}
			return
		}
	}
	n := flag.Int("n", 2000, "calls per target")
	conc := flag.String("c", "1", "calls in flight at once; a comma-separated list sweeps them (1,16,64)")
	rounds := flag.Int("rounds", 10, "interleaved rounds the calls are split into")
	warmup := flag.Int("warmup", 50, "calls per target before measuring")
	only := flag.String("targets", "exec,hand,hand-http,floor,raw-stdio,raw-http,inprocess,stdio,http", "targets to measure, comma-separated")
	protocol := flag.String("protocol", "", "MCP protocol version the clients pin (default the newest, 2026-07-28; 2025-11-25 uses initialize)")
	bin := flag.String("bin", "", "an assent binary to measure (default: build ./cmd/assent)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of this process (the in-process target's server and every client) to the file")
	startupTools := flag.Int("startup", 0, "instead of calls, measure startup to the first tools/list answer with a file of this many tools")
	against := flag.String("against", "", "also measure this assent binary, interleaved with -bin's (an earlier build, say): every target that starts assent, and with -startup the start")
	flag.Parse()
	// The servers start in the rig's own directory: a binary named
	// relative to this one is named absolutely.
	for _, p := range []*string{bin, against} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "load:", err)
			os.Exit(2)
		}
		*p = abs
	}
	if *startupTools > 0 {
		if err := runStartup(*bin, *against, *startupTools, 21); err != nil {
			fmt.Fprintln(os.Stderr, "load:", err)
			os.Exit(1)
		}
		return
	}
	if *profile != "" {
		stop, err := startProfile(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "load:", err)
			os.Exit(1)
		}
		defer stop()
	}
	levels, err := parseLevels(*conc)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(2)
	}
	var sweep []sweepRow
	for _, c := range levels {
		rows, err := run(*bin, *against, *protocol, *n, c, *rounds, *warmup, strings.Split(*only, ","))
		if err != nil {
			fmt.Fprintln(os.Stderr, "load:", err)
			os.Exit(1)
		}
		sweep = append(sweep, rows...)
	}
	if len(levels) > 1 {
		reportSweep(os.Stdout, levels, sweep)
	}
}

// parseLevels reads -c.
func parseLevels(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		var c int
		if _, err := fmt.Sscan(f, &c); err != nil || c < 1 {
			return nil, fmt.Errorf("-c %q: want positive numbers, comma-separated", s)
		}
		out = append(out, c)
	}
	return out, nil
}

func run(bin, against, protocol string, n, c, rounds, warmup int, names []string) ([]sweepRow, error) {
	ctx := context.Background()
	env, err := newRig(bin, protocol)
	if err != nil {
		return nil, err
	}
	defer env.cleanup()
	if against != "" {
		if names, err = env.withAgainst(against, names); err != nil {
			return nil, err
		}
	}
	var targets []target
	defer func() {
		for _, t := range targets {
			if err := t.close(); err != nil {
				fmt.Fprintf(os.Stderr, "load: closing %s: %v\n", t.name, err)
			}
		}
	}()
	for _, name := range names {
		t, err := env.target(ctx, name, c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		targets = append(targets, t)
		if _, err := measure(ctx, t, warmup, c); err != nil {
			return nil, fmt.Errorf("%s warm-up: %w", name, err)
		}
	}
	results := make([]samples, len(targets))
	per := max(n/rounds, 1)
	for range rounds {
		for i, t := range targets {
			s, err := measure(ctx, t, per, c)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", t.name, err)
			}
			results[i].add(s)
		}
	}
	if protocol == "" {
		protocol = "newest (2026-07-28)"
	}
	fmt.Printf("%d calls of `echo hello` per target, %d in flight, %d interleaved rounds, protocol %s, GOMAXPROCS %d\n\n",
		per*rounds, c, rounds, protocol, gomaxprocs())
	rows := report(os.Stdout, targets, results)
	fmt.Println()
	for i := range rows {
		rows[i].c = c
	}
	return rows, nil
}

// measure makes count calls, c at a time, and returns their latencies and
// the wall time they took.
func measure(ctx context.Context, t target, count, c int) (samples, error) {
	lat := make([]time.Duration, count)
	errs := make(chan error, c)
	next := make(chan int)
	start := time.Now()
	for range c {
		go func() {
			var first error
			for i := range next {
				t0 := time.Now()
				if err := t.call(ctx); err != nil && first == nil {
					first = err
				}
				lat[i] = time.Since(t0)
			}
			errs <- first
		}()
	}
	for i := range count {
		next <- i
	}
	close(next)
	var err error
	for range c {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	return samples{lat: lat, wall: time.Since(start)}, err
}
