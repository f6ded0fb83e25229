package exec

import (
	"strings"
	"testing"
	"time"
)

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"/usr/bin/grep", "/usr/bin/grep"},
		{"--color=never", "--color=never"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
		{"$(id)", "'$(id)'"},
		{"*.go", "'*.go'"},
		{"héllo", "'héllo'"},
		{"TODO\x1b[2K", `$'TODO\x1b[2K'`},
		{"a\nb", `$'a\nb'`},
		{"tab\there", `$'tab\there'`},
		{"txt\u202eexe", `$'txt\u202eexe'`},
		{"zero\u200bwidth", `$'zero\u200bwidth'`},
		{"quote ' and \\ \x07", `$'quote \' and \\ \x07'`},
		{"bad\xffutf8", `$'bad\xffutf8'`},
		{"tag\U000E0041", `$'tag\U000e0041'`},
		{"\u0085", `$'\u0085'`},
		{"A0=", "'A0='"},
		{"GREP_COLOR=never", "'GREP_COLOR=never'"},
		{"if", "'if'"},
		{"--color=never", "--color=never"},
		{"0=x", "0=x"},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestEscape_NothingRawReachesTheTerminal(t *testing.T) {
	hostile := "ok \x1b]52;c;ZXZpbA==\x07 \x1b]8;;http://x\x1b\\link \r\x1b[2K \u202e \u200b \x9b31m done"
	got := Escape(hostile)
	for _, r := range got {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == 0x202e || r == 0x200b {
			t.Fatalf("Escape left %U in %q", r, got)
		}
	}
	if !strings.HasPrefix(got, `ok \x1b]52;c;ZXZpbA==\x07`) || !strings.HasSuffix(got, " done") {
		t.Fatalf("Escape(%q) = %q", hostile, got)
	}
	if Escape("plain text ✓") != "plain text ✓" {
		t.Fatal("Escape changed printable text")
	}
}

func TestCommandHash_CoversEveryField(t *testing.T) {
	base := Command{Path: "/bin/ls", Argv: []string{"ls", "-la"}, Dir: "/tmp", Env: []string{"A=1"},
		Stdin: "x", Timeout: time.Second, MaxOutput: 10, OnOverflow: Drain}
	variants := []func(c *Command){
		func(c *Command) { c.Path = "/bin/rm" },
		func(c *Command) { c.Argv = []string{"ls", "-l", "a"} },
		func(c *Command) { c.Argv = []string{"ls", "-laa"} },
		func(c *Command) { c.Argv = []string{"ls -la"} },
		func(c *Command) { c.Dir = "/" },
		func(c *Command) { c.Env = []string{"A=2"} },
		func(c *Command) { c.Env = nil },
		func(c *Command) { c.Stdin = "" },
		func(c *Command) { c.Timeout = 2 * time.Second },
		func(c *Command) { c.MaxOutput = 11 },
		func(c *Command) { c.OnOverflow = Kill },
	}
	h := base.Hash()
	for i, v := range variants {
		c := base
		c.Argv = append([]string(nil), base.Argv...)
		v(&c)
		if c.Hash() == h {
			t.Errorf("variant %d has the same hash", i)
		}
	}
	same := base
	if same.Hash() != h {
		t.Error("hash is not stable")
	}
}

func TestCommandValidate(t *testing.T) {
	ok := Command{Path: "/bin/ls", Argv: []string{"ls"}, Dir: "/tmp"}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		c    Command
		want string
	}{
		{Command{Path: "ls", Argv: []string{"ls"}}, "not absolute"},
		{Command{Path: "/bin/ls"}, "argv is empty"},
		{Command{Path: "/bin/ls", Argv: []string{"ls", "a\x00b"}}, "argv[1] contains a NUL"},
		{Command{Path: "/bin/ls", Argv: []string{"ls"}, Dir: "rel"}, "working directory \"rel\" is not absolute"},
		{Command{Path: "/bin/ls", Argv: []string{"ls"}, Env: []string{"NOEQUALS"}}, "not KEY=VALUE"},
		{Command{Path: "/bin/ls", Argv: []string{"ls"}, OnOverflow: "boom"}, "unknown overflow"},
	}
	for _, b := range bad {
		if err := b.c.Validate(); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("Validate(%+v) = %v, want %q", b.c, err, b.want)
		}
	}
}
