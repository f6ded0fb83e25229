package journal

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var tokenPattern = regexp.MustCompile(`‹secret:[0-9a-f]{8}›`)

func TestAppend_SecretsNeverReachTheFile(t *testing.T) {
	const (
		password = "hunter2-correct-horse"
		apiKey   = "sk-live-51Habc"
		pin      = "4921"
	)
	secrets := []string{password, apiKey, pin}
	argv := []string{"curl", "-u", "admin:" + password, "-H", "Authorization: Bearer " + apiKey, "--", "https://x"}
	argvCopy := append([]string{}, argv...)
	args := map[string]any{"password": password, "pin": 4921, "headers": []any{"X-Key: " + apiKey},
		"nested": map[string]any{"k": password}}
	// Output cut before the journal saw it, in the middle of the API key.
	cutOutput := "log line\nkey=" + apiKey[:9]

	records := []Record{
		{Call: "c1", Event: Received, Tool: "deploy", Args: args, Path: "/usr/bin/curl", Argv: argv,
			Env: []string{"API_KEY=" + apiKey}, Stdin: NewBlob([]byte("password="+password+"\n"), 0),
			Cwd: "/srv/" + pin, Secrets: secrets},
		{Call: "c1", Event: Edited, Edit: &Edit{Before: argv, After: []string{"curl", password}}, Secrets: secrets},
		{Call: "c1", Event: Decided, Decision: Deny, Decider: ByOperator, Reason: "do not send " + apiKey, Secrets: secrets},
		{Call: "c1", Event: Finished, Exit: ExitCode(1), Error: "auth " + password + " refused",
			Stdout: NewBlob([]byte(strings.Repeat("y", 10)+password), 0),
			Stderr: NewBlob([]byte(cutOutput), int64(len(cutOutput))+500), Secrets: secrets},
		{Call: "c2", Event: Received, Argv: []string{"echo", password}, Secrets: []string{password}},
	}
	j := openTest(t, Options{})
	var written []Record
	for _, r := range records {
		written = append(written, mustAppend(t, j, r))
	}
	j.Close()

	data, err := os.ReadFile(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(secrets, apiKey[:9]) {
		if bytes.Contains(data, []byte(s)) {
			t.Errorf("the journal holds %q", s)
		}
		if strings.Contains(mustJSON(t, written), s) {
			t.Errorf("the records Append returned hold %q", s)
		}
	}
	if n := len(tokenPattern.FindAll(data, -1)); n < 12 {
		t.Errorf("found %d secret tokens in the file, want one for each masked value (≥ 12)", n)
	}
	// The same secret gets the same token in every record; others differ.
	tok := func(r Record) string { return tokenPattern.FindString(r.Argv[len(r.Argv)-1]) }
	if a, b := tok(written[4]), tokenPattern.FindString(written[3].Error); a == "" || a != b {
		t.Errorf("one password, two tokens: %q and %q", a, b)
	}
	if written[0].Args["pin"] != tokenPattern.FindString(written[0].Cwd) {
		t.Errorf("a secret number is not masked like the same text: %v vs %q", written[0].Args["pin"], written[0].Cwd)
	}
	if a, b := tokenPattern.FindString(written[2].Reason), tokenPattern.FindString(written[3].Error); a == b {
		t.Errorf("two secrets share the token %s", a)
	}
	if !slices.Equal(argv, argvCopy) {
		t.Errorf("Append changed the caller's argv to %q", argv)
	}
	mustVerify(t, j.Dir())

	key, err := os.Stat(filepath.Join(j.Dir(), keyName))
	if err != nil {
		t.Fatalf("no key file in the journal: %v", err)
	}
	if key.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", key.Mode().Perm())
	}
}

func TestOpen_SegmentsShareTheKey(t *testing.T) {
	a := openTest(t, Options{})
	b, err := Open(a.Dir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ra := mustAppend(t, a, Record{Call: "c1", Event: Received, Argv: []string{"x", "pw"}, Secrets: []string{"pw"}})
	rb := mustAppend(t, b, Record{Call: "c1", Event: Received, Argv: []string{"x", "pw"}, Secrets: []string{"pw"}})
	if ra.Argv[1] != rb.Argv[1] || !strings.HasPrefix(ra.Argv[1], secretPrefix) {
		t.Errorf("one secret masked as %q and %q by two processes", ra.Argv[1], rb.Argv[1])
	}
}

func TestOpen_KeyFileOthersCanRead(t *testing.T) {
	dir := t.TempDir()
	keyPath := filepath.Join(dir, "shared.key")
	os.WriteFile(keyPath, []byte(strings.Repeat("ab", 32)+"\n"), 0o644)
	os.Chmod(keyPath, 0o644)
	_, err := Open(filepath.Join(dir, "journal"), Options{KeyPath: keyPath})
	if err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("Open with a world-readable key: err = %v, want a refusal naming the fix", err)
	}
	os.Chmod(keyPath, 0o600)
	j := openTest(t, Options{KeyPath: keyPath})
	got := mustAppend(t, j, Record{Call: "c1", Event: Received, Argv: []string{"x", "pw"}, Secrets: []string{"pw"}})
	if want := secretToken(bytes.Repeat([]byte{0xab}, 32), "pw"); got.Argv[1] != want {
		t.Errorf("argv[1] = %q, want %q from the operator's key", got.Argv[1], want)
	}
}

func TestMasker_OverlappingSecrets(t *testing.T) {
	key := []byte("k")
	tests := []struct {
		name    string
		secrets []string
		in      string
		want    string
	}{
		{"longer wins", []string{"abc", "abcdef"}, "xabcdefx", "x" + secretToken(key, "abcdef") + "x"},
		{"both", []string{"abc", "abcdef"}, "abc abcdef", secretToken(key, "abc") + " " + secretToken(key, "abcdef")},
		{"repeated", []string{"s"}, "sss", strings.Repeat(secretToken(key, "s"), 3)},
		{"token text is not re-masked", []string{"secret", "hunter"}, "hunter", secretToken(key, "hunter")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := newMasker(key, tt.secrets).mask(tt.in); got != tt.want {
				t.Errorf("mask(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMasked(t *testing.T) {
	tok := secretToken([]byte("k"), "hunter2")
	for _, tc := range []struct {
		name string
		v    any
		want bool
	}{
		{"plain", map[string]any{"a": "x", "n": 1.0}, false},
		{"top", map[string]any{"a": tok}, true},
		{"inside", map[string]any{"a": "Bearer " + tok}, true},
		{"list", map[string]any{"a": []any{"x", tok}}, true},
		{"nested", map[string]any{"a": map[string]any{"b": []any{tok}}}, true},
		{"nil", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Masked(tc.v); got != tc.want {
				t.Errorf("Masked(%v) = %v, want %v", tc.v, got, tc.want)
			}
		})
	}
}
