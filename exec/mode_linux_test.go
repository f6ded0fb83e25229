//go:build linux

package exec

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLocalRun_SandboxModes(t *testing.T) {
	root := realTempDir(t)
	const noFork = "the runner cannot start a confined child here (it needs clone3, Linux 5.5, on amd64 or arm64)"
	tests := []struct {
		name        string
		opts        Options
		sim         simulated
		sandbox     *Sandbox
		wantRefused string // substring of the refusal; empty: it runs
		wantCreated bool   // the command's file write went through
		wantConf    Confinement
	}{
		{name: "required, without Landlock, is refused with the reason",
			opts: Options{Sandbox: SandboxRequired}, sim: simulated{noLandlock: true}, sandbox: &Sandbox{},
			wantRefused: "sandbox required, but the kernel has no Landlock (simulated): the filesystem is not confined",
			wantConf: Confinement{Network: NetworkDenied, NetworkBy: []string{"seccomp"}, Containment: ContainSubreaper,
				Unconfined: "the kernel has no Landlock (simulated): the filesystem is not confined"}},
		{name: "required, for a tool without a sandbox, is refused",
			opts: Options{Sandbox: SandboxRequired}, wantRefused: "sandbox required, but the tool runs without one (sandbox: false)",
			wantConf: Confinement{Network: NetworkUnconfined, Containment: ContainSubreaper, Unconfined: "the tool runs without a sandbox"}},
		{name: "required, with Landlock, runs confined",
			opts: Options{Sandbox: SandboxRequired}, sandbox: &Sandbox{},
			wantConf: Confinement{Landlock: 7, Network: NetworkDenied, NetworkBy: []string{"seccomp", "landlock"}, Containment: ContainSubreaper}},
		{name: "best effort, without Landlock, runs and says so",
			sim: simulated{noLandlock: true}, sandbox: &Sandbox{}, wantCreated: true,
			wantConf: Confinement{Network: NetworkDenied, NetworkBy: []string{"seccomp"}, Containment: ContainSubreaper,
				Unconfined: "the kernel has no Landlock (simulated): the filesystem is not confined"}},
		{name: "required, without the runner's own fork, is refused with the reason",
			opts: Options{Sandbox: SandboxRequired}, sim: simulated{noRawFork: true}, sandbox: &Sandbox{},
			wantRefused: "sandbox required, but it could not be applied: " + noFork,
			wantConf:    Confinement{Network: NetworkUnconfined, Containment: ContainSubreaper, Unconfined: noFork}},
		{name: "best effort, without the runner's own fork, runs unconfined and says so",
			sim: simulated{noRawFork: true}, sandbox: &Sandbox{}, wantCreated: true,
			wantConf: Confinement{Network: NetworkUnconfined, Containment: ContainSubreaper, Unconfined: noFork}},
		{name: "off runs unconfined",
			opts: Options{Sandbox: SandboxOff}, sandbox: &Sandbox{}, wantCreated: true,
			wantConf: Confinement{Network: NetworkUnconfined, Containment: ContainSubreaper, Unconfined: "the sandbox is off"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := simulatedLocal(t, tt.opts, tt.sim)
			target := filepath.Join(root, strings.Repeat("f", i+1))
			cmd := helperCmd(t, "create", target)
			cmd.Sandbox = tt.sandbox
			res := l.Run(context.Background(), cmd, nil)
			if tt.wantRefused != "" {
				if !res.Refused || !strings.Contains(res.StartError, tt.wantRefused) {
					t.Errorf("Refused %v, start error %q; want refused: %q", res.Refused, res.StartError, tt.wantRefused)
				}
			} else if res.Refused || res.StartError != "" {
				t.Errorf("refused: %s", res.StartError)
			}
			if created := res.ExitCode == 0 && !res.Refused; created != tt.wantCreated {
				t.Errorf("the write went through: %v, want %v (exit %d, stderr %q)", created, tt.wantCreated, res.ExitCode, res.Stderr.Data)
			}
			if tt.wantConf.Landlock != 0 {
				tt.wantConf.Landlock = l.Probe().Landlock
			}
			if got := res.Confinement; got.String() != tt.wantConf.String() {
				t.Errorf("confinement\n %s\nwant\n %s", got, tt.wantConf)
			}
		})
	}
}

func TestLocalProbe_ReportsThisMachine(t *testing.T) {
	l := sandboxLocal(t, Options{})
	sup := l.Probe()
	t.Logf("%s", sup)
	if sup.Mode != SandboxBestEffort || sup.Containment != ContainSubreaper {
		t.Errorf("probe %+v", sup)
	}
	if !strings.HasPrefix(sup.String(), "sandbox best-effort: landlock v") {
		t.Errorf("summary %q", sup)
	}
	if sup.Seccomp && (sup.NetNamespace || l.os.sandbox.netnsFD >= 0) {
		t.Errorf("the probe made a network namespace, which no run joins where the socket filter holds: %+v", sup)
	}
	if (os.Geteuid() != 0 && sup.DropsCapabilities) || strings.Contains(sup.String(), "root's capabilities dropped") != sup.DropsCapabilities {
		t.Errorf("capabilities: %+v, %q", sup, sup)
	}
	noLandlock := simulatedLocal(t, Options{Sandbox: SandboxRequired}, simulated{noLandlock: true})
	if s := noLandlock.Probe(); s.Landlock != 0 || !strings.Contains(s.String(), "unconfined (the kernel has no Landlock (simulated))") {
		t.Errorf("simulated probe %+v, %q", s, s)
	}
	// Without the runner's own fork no part of the sandbox reaches a child,
	// the network included, whatever the kernel has.
	noFork := simulatedLocal(t, Options{}, simulated{noRawFork: true})
	if s := noFork.Probe(); s.Landlock != 0 || s.Seccomp || s.NetNamespace || s.Network() != NetworkUnconfined {
		t.Errorf("probe without the runner's fork %+v, %q", s, s)
	}
}

func TestLocalRun_StagedKillInAPIDNamespace(t *testing.T) {
	// The leader is the namespace's init: SIGTERM reaches it only through a
	// handler of its own; one that leaves SIGTERM at its default is ended as
	// that default would, and the end reported as SIGTERM.
	const slack = 3 * time.Second
	l := NewLocal(Options{Containment: ContainPIDNamespace, Grace: 10 * time.Second})
	t.Cleanup(func() { l.Close() })
	if l.Probe().Containment != ContainPIDNamespace {
		t.Skip("no PID namespaces here")
	}
	tests := []struct {
		name     string
		cmd      Command
		cancel   bool
		wantCode int
		wantSig  string
	}{
		{name: "default SIGTERM, timed out", cmd: Command{Path: "/bin/sleep", Argv: []string{"sleep", "10"}, Timeout: 200 * time.Millisecond},
			wantCode: 143, wantSig: "SIGTERM"},
		{name: "a SIGTERM handler gets it", cmd: helperCmd(t, "termexit"), cancel: true, wantCode: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel, out := endOnReady()
			defer cancel()
			if !tt.cancel {
				out = nil
			}
			start := time.Now()
			res := l.Run(ctx, tt.cmd, out)
			if res.ExitCode != tt.wantCode || res.Signal != tt.wantSig || res.Confinement.Containment != ContainPIDNamespace {
				t.Errorf("exit %d, signal %q, containment %s; want %d, %q", res.ExitCode, res.Signal, res.Confinement.Containment, tt.wantCode, tt.wantSig)
			}
			if took := time.Since(start); took > slack {
				t.Errorf("Run took %v: the leader sat out the grace", took)
			}
		})
	}
}
