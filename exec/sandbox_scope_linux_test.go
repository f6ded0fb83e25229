//go:build linux

package exec

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestSandbox_SignalsReachNothingOutside(t *testing.T) {
	// From Landlock ABI 6 a sandboxed program may signal only processes of
	// its own sandbox: not assent, which it could stop or kill, nor the
	// programs of other calls. Signal 0 is checked as any other and harms
	// nothing when it gets through. The process outside is this test's
	// own child, in its group, which the runner is told to leave alone.
	l := sandboxLocal(t, Options{ForeignChildren: true})
	if abi := l.Probe().Landlock; abi < 6 {
		t.Skipf("Landlock ABI %d keeps signals in no sandbox", abi)
	}
	outside := osexec.Command("/bin/sleep", "60")
	if err := outside.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		outside.Process.Kill()
		outside.Wait()
	})
	self := strconv.Itoa(os.Getpid())
	tests := []struct {
		name    string
		pid     string
		sandbox *Sandbox
		wantErr string // on stderr; empty: the signal was sent
	}{
		{name: "assent, from a sandbox", pid: self, sandbox: &Sandbox{}, wantErr: "operation not permitted"},
		{name: "a process outside, from a sandbox", pid: strconv.Itoa(outside.Process.Pid), sandbox: &Sandbox{},
			wantErr: "operation not permitted"},
		{name: "itself, from a sandbox", pid: "self", sandbox: &Sandbox{}},
		{name: "assent, unsandboxed", pid: self},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := helperCmd(t, "kill", tt.pid)
			cmd.Sandbox = tt.sandbox
			res := l.Run(context.Background(), cmd, nil)
			stderr := strings.ToLower(string(res.Stderr.Data))
			if tt.wantErr == "" && res.ExitCode != 0 {
				t.Errorf("exit %d, stderr %q; want the signal sent", res.ExitCode, stderr)
			}
			if tt.wantErr != "" && (res.ExitCode == 0 || !strings.Contains(stderr, tt.wantErr)) {
				t.Errorf("exit %d, stderr %q; want it refused with %q", res.ExitCode, stderr, tt.wantErr)
			}
		})
	}
}

func TestSandbox_NoDeviceNodes(t *testing.T) {
	// A device node made in a write root would reach its driver under
	// every rule (a block device: the whole disk). Landlock refuses it
	// with EACCES before the kernel asks for CAP_MKNOD, so the refusal is
	// the sandbox's, for root and others alike; a FIFO stays allowed.
	l := sandboxLocal(t, Options{})
	root := realTempDir(t)
	tests := []struct {
		kind   string
		wantOK bool
	}{
		{kind: "char"},
		{kind: "block"},
		{kind: "fifo", wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			target := filepath.Join(root, tt.kind)
			cmd := helperCmd(t, "mknod", target, tt.kind)
			cmd.Sandbox = &Sandbox{Write: []string{root}}
			res := l.Run(context.Background(), cmd, nil)
			if !tt.wantOK {
				requireDenied(t, res)
				requireAbsent(t, target)
			} else if res.ExitCode != 0 {
				t.Errorf("exit %d, stderr %q; want the node made", res.ExitCode, res.Stderr.Data)
			}
		})
	}
}
