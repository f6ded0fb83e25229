package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
)

// lines returns the buffer's complete lines, then its unfinished ones.
func (b *outputBuffer) all() []string {
	var out []string
	for i := b.first; i < b.end(); i++ {
		out = append(out, fmt.Sprintf("%d:%s", b.line(i).kind, b.line(i).text))
	}
	for _, l := range b.tail() {
		out = append(out, fmt.Sprintf("%d+%s", l.kind, l.text))
	}
	return out
}

// testBuffer is a buffer of maxLines that masks the secrets as a call's
// output is masked.
func testBuffer(maxLines int, secrets []string) *outputBuffer {
	return &outputBuffer{maxLines: maxLines, call: &queue.Call{Secrets: secrets, OutputSecrets: config.SecretsForOutput(secrets)}}
}

func TestOutputBuffer_Lines(t *testing.T) {
	type chunk struct {
		stream exec.Stream
		data   string
	}
	tests := []struct {
		name    string
		secrets []string
		chunks  []chunk
		want    []string
	}{
		{"lines split across chunks", nil,
			[]chunk{{exec.Stdout, "hel"}, {exec.Stdout, "lo\nwor"}, {exec.Stdout, "ld\n"}},
			[]string{"0:hello", "0:world"}},
		{"an unfinished line is shown", nil,
			[]chunk{{exec.Stdout, "a\nb"}},
			[]string{"0:a", "0+b"}},
		{"streams keep their own unfinished lines", nil,
			[]chunk{{exec.Stdout, "out"}, {exec.Stderr, "err\n"}, {exec.Stdout, "put\n"}},
			[]string{"1:err", "0:output"}},
		{"CRLF ends a line", nil,
			[]chunk{{exec.Stdout, "dos\r\nline\r\n"}},
			[]string{"0:dos", "0:line"}},
		{"a lone CR is shown, not obeyed", nil,
			[]chunk{{exec.Stdout, "rm -rf /\rls -la\n"}},
			[]string{`0:rm -rf /\rls -la`}},
		{"escape sequences are shown", nil,
			[]chunk{{exec.Stdout, "\x1b[2J\x1b]52;c;aGVsbG8=\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n"}},
			[]string{`0:\x1b[2J\x1b]52;c;aGVsbG8=\x07\x1b]8;;http://x\x1b\link\x1b]8;;\x1b\`}},
		{"bidi and zero-width characters are shown", nil,
			[]chunk{{exec.Stdout, "a\u202eb\u200bc\u2066d\ufeff\n"}},
			[]string{`0:a\u202eb\u200bc\u2066d\ufeff`}},
		{"invalid UTF-8 is shown byte by byte", nil,
			[]chunk{{exec.Stdout, "ok\xff\xfe\n"}},
			[]string{`0:ok\xff\xfe`}},
		{"a rune split across chunks is whole", nil,
			[]chunk{{exec.Stdout, "caf\xc3"}, {exec.Stdout, "\xa9\n"}},
			[]string{"0:café"}},
		{"tabs become spaces", nil,
			[]chunk{{exec.Stdout, "a\tb\n"}},
			[]string{"0:a       b"}},
		{"secrets are masked", []string{"hunter2-long"},
			[]chunk{{exec.Stdout, "token=hunt"}, {exec.Stdout, "er2-long\n"}},
			[]string{"0:token=" + secretMask}},
		{"a secret under 8 characters is not masked in output", []string{"hunter2"},
			[]chunk{{exec.Stdout, "token=hunter2\n"}},
			[]string{"0:token=hunter2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := testBuffer(100, tt.secrets)
			for _, c := range tt.chunks {
				b.add(c.stream, []byte(c.data))
			}
			got := b.all()
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestOutputBuffer_Bounds(t *testing.T) {
	t.Run("keeps the last lines", func(t *testing.T) {
		b := testBuffer(3, nil)
		for i := range 10 {
			b.add(exec.Stdout, fmt.Appendf(nil, "line %d\n", i))
		}
		if got := b.all(); strings.Join(got, ",") != "0:line 7,0:line 8,0:line 9" || b.first != 7 {
			t.Errorf("got %q, first %d", got, b.first)
		}
	})
	t.Run("breaks a line that never ends", func(t *testing.T) {
		b := testBuffer(100, nil)
		// The byte at the limit is the middle of an é.
		b.add(exec.Stdout, []byte("a"+strings.Repeat("é", maxLineBytes/2)))
		if n := b.end() - b.first; n != 1 {
			t.Fatalf("%d complete lines, want 1", n)
		}
		l, tail := b.line(b.first).text, b.tail()
		if len(l) != maxLineBytes-1 || strings.ContainsRune(l, '\\') || len(tail) != 1 || tail[0].text != "é" {
			t.Errorf("line of %d bytes, tail %q: a rune was split", len(l), tail)
		}
	})
	t.Run("bounds the bytes kept", func(t *testing.T) {
		b := testBuffer(1<<30, nil)
		line := []byte(strings.Repeat("x", 1000) + "\n")
		for range 2 * maxOutputBytes / len(line) {
			b.add(exec.Stdout, line)
		}
		if b.size > maxOutputBytes || b.size < maxOutputBytes-2*len(line) {
			t.Errorf("kept %d bytes, want just under %d", b.size, maxOutputBytes)
		}
	})
}
