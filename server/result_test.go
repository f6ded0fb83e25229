package server

import (
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/exec"
)

func TestStatusLine(t *testing.T) {
	tests := []struct {
		name string
		r    exec.Result
		want string
	}{
		{"exit", exec.Result{ExitCode: 1, Duration: 12 * time.Millisecond}, "exit 1 · 12ms"},
		{"seconds", exec.Result{Duration: 1500 * time.Millisecond}, "exit 0 · 1.5s"},
		{"whole seconds", exec.Result{Duration: 2 * time.Second}, "exit 0 · 2s"},
		{"minutes", exec.Result{Duration: 123 * time.Second}, "exit 0 · 2m03s"},
		{"signal", exec.Result{ExitCode: 137, Signal: "SIGKILL", Duration: time.Millisecond}, "ended by SIGKILL · 1ms"},
		{"truncated", exec.Result{Duration: time.Millisecond,
			Stdout: exec.Output{Data: make([]byte, 1<<20), Bytes: 3435973837, Truncated: true},
			Stderr: exec.Output{Data: make([]byte, 64<<10), Bytes: 100000, Truncated: true}},
			"exit 0 · 1ms · stdout truncated at 1 MiB of 3.2 GiB · stderr truncated at 64 KiB of 97.7 KiB"},
		{"small sizes", exec.Result{Stdout: exec.Output{Data: make([]byte, 10), Bytes: 900, Truncated: true}},
			"exit 0 · 0ms · stdout truncated at 10 bytes of 900 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := statusLine(tc.r); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNewestLines(t *testing.T) {
	long := strings.Repeat("x", 3000)
	tests := []struct{ name, in, want string }{
		{"one line", "hello\n", "hello"},
		{"last ten lines", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "3\n4\n5\n6\n7\n8\n9\n10\n11\n12"},
		{"no newline", "partial", "partial"},
		{"a long line is cut from the front", long, "…" + long[:1000]},
		{"invalid UTF-8 dropped", "a\xffb\n", "ab"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := newestLines([]byte(tc.in)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTranscript_InvalidUTF8IsReplaced(t *testing.T) {
	r := exec.Result{Stdout: exec.Output{Data: []byte("ok\xff"), Bytes: 3}}
	sc := callResult{Stdout: text(r.Stdout.Data)}
	if got := transcript(sc, r); got != "ok\uFFFD\n[exit 0 · 0ms]" {
		t.Fatalf("got %q", got)
	}
}
