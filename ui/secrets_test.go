package ui

import (
	"testing"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/queue"
)

// TestSecrets_NeverEraseTheCommand is issue 12's secret "e": a secret
// the agent chose must not erase the program or text it merely repeats.
// The secret is masked where its parameter filled the command (the env
// entry), and nowhere else, however long it is.
func TestSecrets_NeverEraseTheCommand(t *testing.T) {
	tests := []struct {
		name, token, format string
		want, notWant       []string
	}{
		{"one letter", "e", "%e",
			[]string{"/usr/bin/date", "  +%e", "env +TOKEN='" + secretMask + "'"}, []string{"TOKEN=e", "dat" + secretMask}},
		{"the program's name", "date", "%Y",
			[]string{"/usr/bin/date", "env +TOKEN='" + secretMask + "'"}, []string{"TOKEN=date", "/usr/bin/" + secretMask}},
		{"a long secret the agent repeats stays where repeated", "s3cr3t-value", "s3cr3t-value",
			[]string{"  +s3cr3t-value", "env +TOKEN='" + secretMask + "'"}, []string{"TOKEN=s3cr3t-value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			h := newHarness(t, f, nil)
			h.pending("deploy", map[string]any{"format": tt.format, "token": tt.token})
			h.expectScreen(tt.want, tt.notWant)
		})
	}
}

// TestSecrets_Positions checks that the console masks the command exactly
// where config says a secret parameter went, and only there.
func TestSecrets_Positions(t *testing.T) {
	c := &queue.Call{Secrets: []string{"evil.example.net"},
		Command:     queue.Call{}.Command,
		SecretSpans: []config.SecretSpan{{In: "argv", Index: 2, Start: 0, End: 16}, {In: "env", Index: 0, Start: 6, End: 22}}}
	c.Command.Env = []string{"TOKEN=evil.example.net"}
	tests := []struct {
		p          part
		text, want string
	}{
		{part{partArgv, 2}, "evil.example.net", secretMask},
		{part{partArgv, 4}, "https://evil.example.net/exfil", "https://evil.example.net/exfil"},
		{part{partEnv, 0}, "evil.example.net", secretMask},
		{part{kind: partPath}, "/usr/bin/echo", "/usr/bin/echo"},
		{part{kind: partOutput}, "got evil.example.net back", "got " + secretMask + " back"},
	}
	for _, tt := range tests {
		if got := maskSecrets(positionSecrets{}, c, tt.p, tt.text); got != tt.want {
			t.Errorf("part %+v of %q: %q, want %q", tt.p, tt.text, got, tt.want)
		}
	}
}

// TestSecrets_Spans checks where the substring source masks, part by part.
func TestSecrets_Spans(t *testing.T) {
	c := &queue.Call{Secrets: []string{"e", "hunter2", "long-secret-value"}}
	tests := []struct {
		p          part
		text, want string
	}{
		{part{kind: partPath}, "/usr/bin/hunter2", "/usr/bin/hunter2"},
		{part{partArgv, 0}, "hunter2", "hunter2"},
		{part{partArgv, 1}, "e", secretMask},
		{part{partArgv, 1}, "hello", "hello"},
		{part{partArgv, 1}, "x=hunter2;y=hunter2", "x=" + secretMask + ";y=" + secretMask},
		{part{partEnv, 0}, "Bearer e", "Bearer e"},
		{part{kind: partStdin}, "pw: hunter2\n", "pw: " + secretMask + "\n"},
		{part{kind: partOutput}, "hunter2 and long-secret-value", "hunter2 and " + secretMask},
		{part{kind: partOutput}, "e", "e"},
		{part{kind: partText}, "hunter2hunter2", secretMask}, // adjacent occurrences read as one
	}
	for _, tt := range tests {
		if got := maskSecrets(repeatedSecrets{}, c, tt.p, tt.text); got != tt.want {
			t.Errorf("part %+v of %q: %q, want %q", tt.p, tt.text, got, tt.want)
		}
	}
	overlapping := &queue.Call{Secrets: []string{"abcd", "cdef"}}
	if got := maskSecrets(repeatedSecrets{}, overlapping, part{partArgv, 1}, "xabcdefx"); got != "x"+secretMask+"x" {
		t.Errorf("overlapping secrets: %q", got)
	}
}
