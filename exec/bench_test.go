//go:build unix

package exec

import (
	"context"
	osexec "os/exec"
	"testing"

	"github.com/assent-sh/assent/bench/pair"
)

// runOK returns a func that runs cmd with l and fails b unless it exits 0.
func runOK(b *testing.B, l *Local, cmd Command) func() {
	ctx := context.Background()
	return func() {
		if res := l.Run(ctx, cmd, nil); res.ExitCode != 0 {
			b.Fatalf("runner: exit %d: %s", res.ExitCode, res.StartError)
		}
	}
}

// bareTrue returns a bare os/exec run of /bin/true in the environment l
// gives its children: the same program started the same way, but for
// what the runner does around it.
func bareTrue(b *testing.B, l *Local) func() {
	env := l.Environ(nil)
	return func() {
		cmd := osexec.Command("/bin/true")
		cmd.Env = env
		if err := cmd.Run(); err != nil {
			b.Fatalf("bare: %v", err)
		}
	}
}

// BenchmarkRun compares the runner, as it runs by default, with a bare
// os/exec run of the same program: /bin/true, once each way per iteration.
// The ratio (runner over bare) is the runner's overhead, the number to
// watch.
func BenchmarkRun(b *testing.B) {
	l := NewLocal(Options{})
	b.Cleanup(func() { l.Close() })
	pair.Compare(b, "runner", runOK(b, l, Command{Path: "/bin/true", Argv: []string{"true"}}), "bare", bareTrue(b, l))
}

// BenchmarkRunSandboxed compares a sandboxed run of /bin/true (a read-only
// sandbox with no network: Landlock, the empty network namespace, the
// socket filter, as far as this system has them) with the same run
// unsandboxed, on one runner. The difference of the medians is the
// sandbox's cost per call. Both pin the program, as config does for every
// call: a run that opens its program anyway pays no more for that when
// sandboxed.
func BenchmarkRunSandboxed(b *testing.B) {
	l := NewLocal(Options{})
	b.Cleanup(func() { l.Close() })
	id, err := IdentityOf("/bin/true", true)
	if err != nil {
		b.Fatal(err)
	}
	plain := Command{Path: "/bin/true", Argv: []string{"true"}, Program: id}
	boxed := plain
	boxed.Sandbox = &Sandbox{Read: []string{b.TempDir()}}
	if res := l.Run(context.Background(), boxed, nil); !res.Confinement.Confined() {
		b.Logf("the sandbox does not hold here: %s", res.Confinement)
	}
	pair.Compare(b, "sandboxed", runOK(b, l, boxed), "unsandboxed", runOK(b, l, plain))
}

// BenchmarkContainment compares each way of holding a call's processes
// with the process group alone, on /bin/true: what each costs per call.
func BenchmarkContainment(b *testing.B) {
	cmd := Command{Path: "/bin/true", Argv: []string{"true"}}
	group := NewLocal(Options{Containment: ContainGroup})
	b.Cleanup(func() { group.Close() })
	for _, c := range []Containment{ContainSubreaper, ContainPIDNamespace} {
		b.Run(string(c), func(b *testing.B) {
			l := NewLocal(Options{Containment: c})
			b.Cleanup(func() { l.Close() })
			if got := l.Run(context.Background(), cmd, nil).Confinement.Containment; got != c {
				b.Skipf("%s is not available here (runs get %s)", c, got)
			}
			pair.Compare(b, string(c), runOK(b, l, cmd), "group", runOK(b, group, cmd))
		})
	}
}
