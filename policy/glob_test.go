package policy

import (
	"regexp"
	"strings"
	"testing"
)

func TestGlob_Match(t *testing.T) {
	tests := []struct {
		glob, s string
		want    bool
	}{
		{"grep", "grep", true},
		{"grep", "grep2", false},
		{"", "", true},
		{"", "x", false},
		{"*", "", true},
		{"*", "any/thing at all", true},
		{"git_*", "git_status", true},
		{"git_*", "git_", true},
		{"git_*", "gitx", false},
		{"*.go", "main.go", true},
		{"*.go", "main.go.bak", false},
		{"*TODO*", "a TODO b", true},
		{"*TODO*", "todo", false},
		{"/srv/*", "/srv/a/b/c", true}, // * crosses '/': globs are plain string patterns
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"a?c", "aéc", true}, // ? is one character, not one byte
		{"a*b*c", "aXXbYYc", true},
		{"a*b*c", "aXXbYY", false},
		{"a*b?d", "abbbcd", true},
		{"*a*a*a*", "aaa", true},
		{"*a*a*a*", "aa", false},
		{"a**b", "ab", true},
		{`\*`, "*", true},
		{`\*`, "x", false},
		{`a\?`, "a?", true},
		{`a\?`, "ab", false},
		{`\[x]`, "[x]", true},
		{`\\`, `\`, true},
		{"?", "", false},
		{"?*", "x", true},
	}
	for _, tt := range tests {
		t.Run(tt.glob+"~"+tt.s, func(t *testing.T) {
			g, err := compileGlob(tt.glob)
			if err != nil {
				t.Fatalf("compileGlob(%q): %v", tt.glob, err)
			}
			if got := g.match(tt.s); got != tt.want {
				t.Errorf("glob %q match %q = %v, want %v", tt.glob, tt.s, got, tt.want)
			}
		})
	}
}

func TestGlob_Errors(t *testing.T) {
	tests := []struct{ glob, want string }{
		{`abc\`, "lone backslash"},
		{"[abc]", `"[" is not supported`},
		{"x[", `"[" is not supported`},
	}
	for _, tt := range tests {
		t.Run(tt.glob, func(t *testing.T) {
			_, err := compileGlob(tt.glob)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("compileGlob(%q) error = %v, want it to mention %q", tt.glob, err, tt.want)
			}
		})
	}
}

func TestLiteralGlob_MatchesOnlyItself(t *testing.T) {
	for _, s := range []string{"plain", "*", "a?b", `back\slash`, "[x]", "*.go", ""} {
		t.Run(s, func(t *testing.T) {
			g := literalGlob(s)
			if !g.match(s) {
				t.Errorf("literalGlob(%q) does not match itself", s)
			}
			if g.match(s + "x") {
				t.Errorf("literalGlob(%q) matches %q", s, s+"x")
			}
			// The escaped text must compile back to the same literal, so a
			// saved rule reads back as the same rule.
			back, err := compileGlob(g.text)
			if err != nil || !back.isLiteral() || back.lit != s {
				t.Errorf("escaped %q reads back as %+v, %v", g.text, back, err)
			}
		})
	}
}

// globRegexp translates a glob into the regex it should behave like; the
// fuzz target and this test compare the two.
func globRegexp(text string) (*regexp.Regexp, bool) {
	var b, lit strings.Builder
	flush := func() {
		b.WriteString(regexp.QuoteMeta(lit.String()))
		lit.Reset()
	}
	b.WriteString(`\A`)
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '\\':
			if i+1 == len(text) {
				return nil, false
			}
			i++
			lit.WriteByte(text[i])
		case '*':
			flush()
			b.WriteString(`(?s:.*)`)
		case '?':
			flush()
			b.WriteString(`(?s:.)`)
		case '[':
			return nil, false
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	b.WriteString(`\z`)
	re, err := regexp.Compile(b.String())
	return re, err == nil
}

func TestGlob_AgreesWithRegexp(t *testing.T) {
	globs := []string{"*", "a*", "*a", "*a*", "a?b*c", "*?*", "??", "a*a*b", "x\\*y*", "*/*", "é?"}
	strs := []string{"", "a", "ab", "aab", "abc", "axbyc", "a/b", "x*yz", "éé", "aaab", "ba"}
	for _, gs := range globs {
		g, err := compileGlob(gs)
		re, ok := globRegexp(gs)
		if err != nil || !ok {
			t.Fatalf("glob %q: compile %v, regexp ok %v", gs, err, ok)
		}
		for _, s := range strs {
			if got, want := g.match(s), re.MatchString(s); got != want {
				t.Errorf("glob %q match %q = %v, regexp says %v", gs, s, got, want)
			}
		}
	}
}

// GlobMatcher reads a glob exactly as a rule does, so a filter on the
// command line (`assent log --tool`, `assent replay --tool`) chooses what a
// rule with that glob would match.
func TestGlobMatcher_IsTheRulesDialect(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
		err        string
	}{
		{"git_*", "git_status", true, ""},
		{"git_*", "gh_pr", false, ""},
		{"*_file", "head_file", true, ""},
		{`a\*`, "a*", true, ""},
		{`a\*`, "ab", false, ""},
		{"[ab]", "a", false, `"[" is not supported`},
		{`x\`, "x", false, "lone backslash"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+"~"+tt.s, func(t *testing.T) {
			match, err := GlobMatcher(tt.pattern)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || match(tt.s) != tt.want {
				t.Errorf("GlobMatcher(%q)(%q) = %v (err %v); want %v", tt.pattern, tt.s, err == nil && match(tt.s), err, tt.want)
			}
		})
	}
}
