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

// The caller masks the command and the arguments by position, with the
// journal's tokens (the queue knows which words a secret parameter
// filled); the journal masks what the caller cannot place: output, the
// reason and the error. Together no secret reaches the file, and one
// secret has one token wherever it appears.
func TestAppend_SecretsNeverReachTheFile(t *testing.T) {
	const (
		password = "hunter2-correct-horse"
		apiKey   = "sk-live-51Habc"
		pin      = "qz49" // not hex: hashes and tokens cannot hold it by chance
	)
	secrets := []string{password, apiKey, pin}
	j := openTest(t, Options{})
	tok := func(s string) string {
		t.Helper()
		v, err := j.Token(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	argv := []string{"curl", "-u", "admin:" + tok(password), "-H", "Authorization: Bearer " + tok(apiKey), "--", "https://x"}
	args := map[string]any{"password": tok(password), "pin": tok(pin), "headers": []any{"X-Key: " + tok(apiKey)}}
	// Output cut before the journal saw it, in the middle of the API key.
	cutOutput := "log line\nkey=" + apiKey[:9]

	records := []Record{
		{Call: "c1", Event: Received, Tool: "deploy", Args: args, Path: "/usr/bin/curl", Argv: argv,
			Env: []string{"API_KEY=" + tok(apiKey)}, Stdin: NewBlob([]byte("password="+tok(password)+"\n"), 0),
			Cwd: "/srv/" + tok(pin), Secrets: secrets},
		{Call: "c1", Event: Decided, Decision: Deny, Decider: ByOperator, Reason: "do not send " + apiKey, Secrets: secrets},
		{Call: "c1", Event: Finished, Exit: ExitCode(1), Error: "auth " + password + " refused",
			Stdout: NewBlob([]byte(strings.Repeat("y", 10)+password), 0),
			Stderr: NewBlob([]byte(cutOutput), int64(len(cutOutput))+500), Secrets: secrets},
	}
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
	// The journal's own masking gives the same token the caller put in.
	if got := tokenPattern.FindString(written[2].Error); got != tok(password) {
		t.Errorf("one password, two tokens: %q in the error, %q in argv", got, tok(password))
	}
	if a, b := tokenPattern.FindString(written[1].Reason), tok(password); a == b {
		t.Errorf("two secrets share the token %s", a)
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

// Masking by position is the caller's: the journal leaves the command and
// the arguments as they are given, so a value the agent merely repeated
// (here the host of a URL, equal to the secret) stays readable.
func TestAppend_CommandIsTheCallers(t *testing.T) {
	j := openTest(t, Options{})
	tok, err := j.Token("evil.example.net")
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{"echo", "-H", tok, "--", "https://evil.example.net/exfil"}
	got := mustAppend(t, j, Record{Call: "c1", Event: Received, Argv: argv, Secrets: []string{"evil.example.net"}})
	if !slices.Equal(got.Argv, argv) {
		t.Errorf("argv journaled as %q, want %q", got.Argv, argv)
	}
}

func TestOpen_SegmentsShareTheKey(t *testing.T) {
	a := openTest(t, Options{})
	b, err := Open(a.Dir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ta, errA := a.Token("pw")
	tb, errB := b.Token("pw")
	if errA != nil || errB != nil || ta != tb || !strings.HasPrefix(ta, secretPrefix) {
		t.Errorf("one secret masked as %q and %q by two processes (%v, %v)", ta, tb, errA, errB)
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
	got, err := j.Token("pw")
	if want := secretToken(bytes.Repeat([]byte{0xab}, 32), "pw"); err != nil || got != want {
		t.Errorf("token = %q (%v), want %q from the operator's key", got, err, want)
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
