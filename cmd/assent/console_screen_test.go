package main

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// screen drives a program in a detached tmux session on a private server
// (its own socket), at a fixed size, and reads what the terminal shows.
type screen struct {
	t    *testing.T
	tmux string
	sock string
	env  []string
	// socket is the server's socket file, which kill-server leaves.
	socket string
}

// newScreen starts argv in a w×h tmux window in dir. The pane stays after
// the program exits, so its exit status can be read; the tmux server is
// killed, and its socket removed, when the test ends.
func newScreen(t *testing.T, tmux, dir string, env []string, w, h int, argv ...string) *screen {
	t.Helper()
	s := &screen{t: t, tmux: tmux, sock: fmt.Sprintf("assent-test-%d-%d", os.Getpid(), time.Now().UnixNano()),
		env: env}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the screen at the end:\n%s", s.capture())
		}
		_, _ = s.run("kill-server")
		if s.socket != "" {
			_ = os.Remove(s.socket)
		}
	})
	args := []string{"-f", "/dev/null", "new-session", "-d", "-s", "console", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h),
		"-c", dir}
	// Given as separate words, tmux runs the program itself, with no
	// shell; env sets the variables tmux would otherwise choose (TERM).
	args = append(args, append(append([]string{"env"}, env...), argv...)...)
	args = append(args, ";", "set-option", "-t", "console", "remain-on-exit", "on")
	if out, err := s.run(args...); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	out, err := s.run("display-message", "-p", "#{socket_path}")
	if err != nil {
		t.Fatalf("tmux socket path: %v\n%s", err, out)
	}
	s.socket = strings.TrimSpace(out)
	return s
}

func (s *screen) run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := osexec.CommandContext(ctx, s.tmux, append([]string{"-L", s.sock}, args...)...)
	// The tmux server this starts inherits only this, whatever the
	// test's own environment holds (TMUX, a user's settings).
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir()}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// capture is the screen's text, without colours.
func (s *screen) capture() string {
	out, err := s.run("capture-pane", "-p", "-t", "console")
	if err != nil {
		return "(no screen: " + err.Error() + ": " + out + ")"
	}
	return out
}

// waitFor polls the screen until cond holds, for at most 10 s, and
// returns the screen that satisfied it.
func (s *screen) waitFor(what string, cond func(screen string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		text := s.capture()
		if cond(text) {
			return text
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %s:\n%s", what, text)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitForText waits until the screen contains text.
func (s *screen) waitForText(text string) string {
	s.t.Helper()
	return s.waitFor(fmt.Sprintf("%q", text), func(sc string) bool { return strings.Contains(sc, text) })
}

// keys sends tmux key names ("a", "Enter", "Escape").
func (s *screen) keys(keys ...string) {
	s.t.Helper()
	if out, err := s.run(append([]string{"send-keys", "-t", "console"}, keys...)...); err != nil {
		s.t.Fatalf("send-keys %v: %v\n%s", keys, err, out)
	}
}

// typeText sends text literally, as typed.
func (s *screen) typeText(text string) {
	s.t.Helper()
	if out, err := s.run("send-keys", "-t", "console", "-l", text); err != nil {
		s.t.Fatalf("send-keys -l %q: %v\n%s", text, err, out)
	}
}

// exitStatus waits until the program has exited and returns its status.
func (s *screen) exitStatus() string {
	s.t.Helper()
	out, err := s.run("display-message", "-p", "#{pid}")
	server, perr := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || perr != nil {
		s.t.Fatalf("tmux server pid: %v %v: %s", err, perr, out)
	}
	var status string
	s.waitFor("the program's exit", func(string) bool {
		out, err := s.run("display-message", "-p", "-t", "console", "#{pane_dead} #{pane_dead_status}")
		dead, st, _ := strings.Cut(strings.TrimSpace(out), " ")
		status = st
		if err == nil && dead == "1" && status == "" {
			// The pane is dead when its terminal closes, and its status
			// comes when tmux reaps the process on SIGCHLD. A tmux built
			// with utempter sometimes misses that signal and leaves a
			// zombie (tmux issues 311, 4559); another SIGCHLD reaps it.
			_ = syscall.Kill(server, syscall.SIGCHLD)
		}
		return err == nil && dead == "1" && status != ""
	})
	return status
}
