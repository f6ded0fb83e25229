package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestBlob_StoredUpToTheCap(t *testing.T) {
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:])
	}
	long := strings.Repeat("abcdefgh", 20) // 160 bytes
	accented := strings.Repeat("é", 40)    // 80 bytes, 2 per rune
	binary := "\xff\xfe\x00binary\x80"     // not UTF-8
	tests := []struct {
		name      string
		in        *Blob
		cap       int
		text      string
		base64    string
		bytes     int64
		sha       string
		truncated bool
	}{
		{name: "short", in: NewBlob([]byte("ok\n"), 0), cap: 64, text: "ok\n", bytes: 3, sha: hash("ok\n")},
		{name: "exactly the cap", in: NewBlob([]byte(long[:64]), 0), cap: 64, text: long[:64], bytes: 64, sha: hash(long[:64])},
		{name: "over the cap", in: NewBlob([]byte(long), 0), cap: 64, text: long[:64], bytes: 160, sha: hash(long), truncated: true},
		{name: "cut before the journal", in: NewBlob([]byte(long[:100]), 1<<20), cap: 200,
			text: long[:100], bytes: 1 << 20, sha: hash(long[:100]), truncated: true},
		{name: "cap inside a rune", in: NewBlob([]byte(accented), 0), cap: 63, text: accented[:62], bytes: 80, sha: hash(accented), truncated: true},
		{name: "binary", in: NewBlob([]byte(binary), 0), cap: 64, base64: binary, bytes: int64(len(binary)), sha: hash(binary)},
		{name: "nothing kept", in: NewBlob([]byte(long), 0), cap: -1, bytes: 160, sha: hash(long), truncated: true},
		{name: "empty stream", in: NewBlob(nil, 0), cap: 64, bytes: 0, sha: hash("")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.store(tt.cap, nil)
			if got.Text != tt.text || string(got.Base64) != tt.base64 || got.Bytes != tt.bytes ||
				got.SHA256 != tt.sha || got.Truncated != tt.truncated {
				t.Errorf("stored %+v;\nwant text %q base64 %q bytes %d sha %s truncated %v",
					got, tt.text, tt.base64, tt.bytes, tt.sha, tt.truncated)
			}
			if !utf8.ValidString(got.Text) {
				t.Errorf("stored text is not valid UTF-8: %q", got.Text)
			}
			if string(got.Data()) != tt.text+tt.base64 {
				t.Errorf("Data() = %q", got.Data())
			}
		})
	}
}

func TestAppend_OutputCapFromOptions(t *testing.T) {
	out := strings.Repeat("x", DefaultOutputCap+1000)
	tests := []struct {
		name string
		cap  int
		kept int
	}{
		{"default 64 KiB", 0, DefaultOutputCap},
		{"set to 1 KiB", 1024, 1024},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := openTest(t, Options{OutputCap: tt.cap})
			mustAppend(t, j, Record{Call: "c", Event: Finished,
				Stdout: NewBlob([]byte(out), 0), Stderr: NewBlob([]byte("e"), 0)})
			j.Close()
			recs, err := Read(j.Path())
			if err != nil {
				t.Fatal(err)
			}
			so, se := recs[0].Stdout, recs[0].Stderr
			if len(so.Text) != tt.kept || !so.Truncated || so.Bytes != int64(len(out)) {
				t.Errorf("stdout kept %d of %d bytes (truncated %v), want %d", len(so.Text), so.Bytes, so.Truncated, tt.kept)
			}
			if se.Text != "e" || se.Truncated {
				t.Errorf("stderr = %+v, want it whole", se)
			}
		})
	}
}
