package config

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestMasked_OnlyWhereTheSecretWent is the attack on substring masking:
// the agent chooses a secret that also occurs in other words of the call.
// Only the word the secret filled is masked; the URL the operator must see
// stays whole, and a one-letter secret hides one word, not every "e".
func TestMasked_OnlyWhereTheSecretWent(t *testing.T) {
	tool := oneTool(t, testOptions(t), `{"name": "fetch", "command": "echo -H {token} -- {url}", "params": {"token": {"secret": true}}}`)
	tests := []struct {
		token string
		want  []string
	}{
		{"evil.example.net", []string{"echo", "-H", "•••", "--", "https://evil.example.net/exfil"}},
		{"e", []string{"echo", "-H", "•••", "--", "https://evil.example.net/exfil"}},
		{"https", []string{"echo", "-H", "•••", "--", "https://evil.example.net/exfil"}},
	}
	for _, tt := range tests {
		e, err := tool.Prepare(map[string]any{"token": tt.token, "url": "https://evil.example.net/exfil"})
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Masked("•••"); !reflect.DeepEqual(got.Argv, tt.want) || got.Path != e.Command.Path {
			t.Errorf("token %q: masked argv %q, want %q", tt.token, got.Argv, tt.want)
		}
		if e.Command.Argv[2] != tt.token {
			t.Errorf("masking changed the command itself: %q", e.Command.Argv)
		}
	}
}

func TestMasked_EveryPlaceASecretCanGo(t *testing.T) {
	opts := testOptions(t)
	tool := oneTool(t, opts, `{"name": "t", "command": ["uname", "--token={token}:{token}", "{keys...}", "{user}"],
	  "env": {"AUTH": "Bearer {token}", "USER": "{user}"}, "stdin": "{body}",
	  "params": {"token": {"secret": true}, "keys": {"secret": true}, "body": {"secret": true}}}`)
	e, err := tool.Prepare(map[string]any{"token": "s3cr3t-token", "keys": []any{"k1", "k2"}, "user": "k1", "body": "line\nk1"})
	if err != nil {
		t.Fatal(err)
	}
	tokens := map[string]string{"s3cr3t-token": "<T>", "k1": "<K1>", "k2": "<K2>", "line\nk1": "<B>"}
	got := e.MaskedBy(func(s string) string { return tokens[s] })
	if want := []string{"uname", "--token=<T>:<T>", "<K1>", "<K2>", "k1"}; !reflect.DeepEqual(got.Argv, want) {
		t.Errorf("argv %q, want %q", got.Argv, want)
	}
	if want := []string{"AUTH=Bearer <T>", "USER=k1"}; !reflect.DeepEqual(got.Env, want) {
		t.Errorf("env %q, want %q", got.Env, want)
	}
	if got.Stdin != "<B>" {
		t.Errorf("stdin %q", got.Stdin)
	}
	if out := e.SecretsForOutput(); !reflect.DeepEqual(out, []string{"s3cr3t-token"}) {
		t.Errorf("SecretsForOutput = %q, want only the value of 8 characters or more", out)
	}
	args := tool.MaskedArgs(map[string]any{"token": "s3cr3t-token", "keys": []any{"k1"}, "user": "k1", "body": 5.0},
		func(s string) string { return "<" + s + ">" })
	want := map[string]any{"token": "<s3cr3t-token>", "keys": []any{"<k1>"}, "user": "k1", "body": "<5>"}
	if !reflect.DeepEqual(args, want) {
		t.Errorf("MaskedArgs = %#v, want %#v", args, want)
	}
}

func TestMasked_SecretPathAndCwd(t *testing.T) {
	opts := testOptions(t)
	tool := oneTool(t, opts, `{"name": "t", "command": "uname -- {key}", "cwd": "{dir}",
	  "params": {"key": {"type": "path", "secret": true}, "dir": {"secret": true, "type": "path"}}}`)
	e, err := tool.Prepare(map[string]any{"key": "private.pem", "dir": "."})
	if err != nil {
		t.Fatal(err)
	}
	got := e.Masked("•")
	if got.Argv[2] != "•" || got.Dir != "•" || len(got.Paths) != 2 || got.Paths[0].Given != "•" || got.Paths[1].Resolved != "•" {
		t.Errorf("masked %+v", got)
	}
	if e.Command.Paths[0].Resolved != opts.WorkDir+"/private.pem" {
		t.Errorf("unmasked paths %+v", e.Command.Paths)
	}
	if strings.Contains(got.String(), "private") || !slices.Contains(e.Paths, opts.WorkDir+"/private.pem") {
		t.Errorf("shown %s, paths %q", got.String(), e.Paths)
	}
}
