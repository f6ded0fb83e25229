package policy

import (
	"testing"
	"unicode/utf8"
)

// fuzzInputs are the calls every fuzzed policy is asked about.
var fuzzInputs = []Input{
	{Tool: "grep", Args: args("pattern", "TODO", "path", "./src"), Path: "/usr/bin/grep", Argv: []string{"grep", "-rn", "--", "TODO", "./src"}, Paths: []string{"/srv/app/src"}},
	{Tool: "wc", ReadOnly: true, Args: args("files", "a.go", "files", ".env"), Path: "/usr/bin/wc", Argv: []string{"wc", "--", "a.go", ".env"}, Paths: []string{"/srv/app/a.go", "/srv/app/.env"}},
	{Tool: "rm", Args: args("files", "a", "files", "b.env"), Path: "/bin/rm", Argv: []string{"rm", "a", "b.env"}, Client: "claude-code"},
	{Tool: "ls", ReadOnly: true, Args: args("dir", "*"), Path: "/bin/ls", Argv: []string{"ls", "*"}},
	{Tool: "sh", Shell: true, Args: args("script", "echo hi\nrm -rf /"), Path: "/bin/sh", Argv: []string{"sh", "-c", "echo hi\nrm -rf /"}},
	{Tool: "", Args: map[string][]string{"files": {}}},
}

// FuzzParseFile feeds arbitrary bytes to the policy-file parser. Whatever it
// accepts must write back as the same rules, build a policy, and decide every
// call exactly as the plain walk over the rules does.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte(defaultRules))
	f.Add([]byte(workedRules))
	f.Add([]byte(`[{"decision":"deny","paths":["*.env","/srv/*"],"except":{"paths":"/srv/ok/*"}},{"decision":"allow","paths":"*.go"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, err := ParseFile("fuzz.json", data)
		if err != nil {
			if !located(err) {
				t.Fatalf("error %v (%T) does not say where it is", err, err)
			}
			return
		}
		for _, r := range rules {
			back, err := ParseRules("fuzz.json", []byte("["+r.String()+"]"))
			if err != nil {
				t.Fatalf("rule %s does not read back: %v", r, err)
			}
			if back[0].String() != r.String() {
				t.Fatalf("rule changed on the way back:\n%s\n%s", r, back[0])
			}
		}
		p, err := New(rules, nil)
		if err != nil {
			return // duplicate ids are refused by New, not ParseFile, only across files
		}
		for _, in := range fuzzInputs {
			action, rule := naiveDecide(rules, in)
			if got := p.Decide(in); got.Action != action || got.Rule != rule {
				t.Fatalf("Decide(%+v) = %s by %q, naive walk says %s by %q", in, got.Action, got.Rule, action, rule)
			}
		}
	})
}

// located reports whether err is a RuleError or a join of them.
func located(err error) bool {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			if !located(e) {
				return false
			}
		}
		return true
	}
	_, ok := err.(*RuleError)
	return ok
}

// FuzzGlob checks the glob matcher against the regex it should behave like.
func FuzzGlob(f *testing.F) {
	f.Add("*.go", "main.go")
	f.Add("a*b?c*", "axxbyczz")
	f.Add(`\*x*`, "*xy")
	f.Add("*a*a*a*b", "aaaaaaaaaaaaab")
	f.Fuzz(func(t *testing.T, glob, s string) {
		if !utf8.ValidString(glob) || !utf8.ValidString(s) {
			t.Skip("regexp reads invalid UTF-8 as U+FFFD; the glob compares bytes")
		}
		g, err := compileGlob(glob)
		re, ok := globRegexp(glob)
		if (err == nil) != ok {
			t.Fatalf("glob %q: compile error %v, but regexp translation ok=%v", glob, err, ok)
		}
		if err != nil {
			return
		}
		if got, want := g.match(s), re.MatchString(s); got != want {
			t.Fatalf("glob %q match %q = %v, regexp %s says %v", glob, s, got, re, want)
		}
		if lit := literalGlob(s); !lit.match(s) {
			t.Fatalf("literalGlob(%q) does not match itself", s)
		}
	})
}
