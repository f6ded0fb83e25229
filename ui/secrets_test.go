package ui

import (
	"reflect"
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
	c := &queue.Call{Secrets: []string{"evil.example.net"}, OutputSecrets: []string{"evil.example.net"},
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
		if got := maskSecrets(c, tt.p, tt.text); got != tt.want {
			t.Errorf("part %+v of %q: %q, want %q", tt.p, tt.text, got, tt.want)
		}
	}
}

// TestSecrets_OutsideTheCommand: text that is not the command, and output,
// have no positions; a secret is masked there where it occurs whole and is
// long enough not to occur by chance, as the journal masks it.
func TestSecrets_OutsideTheCommand(t *testing.T) {
	secrets := []string{"e", "hunter2", "long-secret-value"}
	c := &queue.Call{Secrets: secrets, OutputSecrets: config.SecretsForOutput(secrets)}
	tests := []struct {
		p          part
		text, want string
	}{
		{part{kind: partOutput}, "hunter2 and long-secret-value", "hunter2 and " + secretMask},
		{part{kind: partOutput}, "e", "e"},
		{part{kind: partText}, "refused: long-secret-valuelong-secret-value", "refused: " + secretMask}, // adjacent read as one
		{part{kind: partText}, "hello", "hello"},
	}
	for _, tt := range tests {
		if got := maskSecrets(c, tt.p, tt.text); got != tt.want {
			t.Errorf("part %+v of %q: %q, want %q", tt.p, tt.text, got, tt.want)
		}
	}
	overlapping := &queue.Call{Secrets: []string{"abcdefgh", "efghijkl"}, OutputSecrets: []string{"abcdefgh", "efghijkl"}}
	if got := maskSecrets(overlapping, part{kind: partOutput}, "xabcdefghijklx"); got != "x"+secretMask+"x" {
		t.Errorf("overlapping secrets: %q", got)
	}
}

// TestSecrets_ArgumentsByName: an argument is masked because its parameter
// is secret, never because its text holds a secret's value, so an agent
// cannot hide one argument behind another.
func TestSecrets_ArgumentsByName(t *testing.T) {
	c := &queue.Call{Secrets: []string{"rm -rf"}, SecretParams: []string{"token"}}
	if got := maskArg(c, "token", "rm -rf"); got != secretMask {
		t.Errorf("the secret argument shows %v", got)
	}
	if got := maskArg(c, "token", []any{"a", "b"}); !reflect.DeepEqual(got, []any{secretMask, secretMask}) {
		t.Errorf("the secret list shows %v", got)
	}
	if got := maskArg(c, "command", "rm -rf /"); got != "rm -rf /" {
		t.Errorf("an argument that repeats the secret shows %v", got)
	}
}
