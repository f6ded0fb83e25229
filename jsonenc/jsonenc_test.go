package jsonenc

import (
	"bytes"
	"encoding/json"
	"testing"
)

var cases = []string{
	"", "plain", `quote " and \ backslash`, "\b\f\n\r\t", "\x00\x01\x1f\x7f",
	"<a href='x'>&amp;</a>", "bad \xff byte", "\xe2\x80", "line\u2028sep\u2029", "é ü 日本 🙂",
}

func TestString_AsEncodingJSON(t *testing.T) {
	for _, s := range cases {
		for _, html := range []bool{false, true} {
			if got, want := String(nil, s, html), encoded(t, s, html); !bytes.Equal(got, want) {
				t.Errorf("String(%q, html %v) = %s, encoding/json %s", s, html, got, want)
			}
		}
	}
}

func FuzzString(f *testing.F) {
	for _, s := range cases {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, html bool) {
		if got, want := String([]byte("x"), s, html), append([]byte("x"), encoded(t, s, html)...); !bytes.Equal(got, want) {
			t.Fatalf("String(%q, html %v) = %s, encoding/json %s", s, html, got, want)
		}
	})
}

func TestStrings_AsEncodingJSON(t *testing.T) {
	for _, list := range [][]string{nil, {}, {"a"}, cases} {
		for _, html := range []bool{false, true} {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(html)
			if err := enc.Encode(list); err != nil {
				t.Fatal(err)
			}
			want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			if got := Strings(nil, list, html); !bytes.Equal(got, want) {
				t.Errorf("Strings(%q, html %v) = %s, encoding/json %s", list, html, got, want)
			}
		}
	}
}
