package policy

import (
	"strings"
	"testing"
)

// One paths rule covers every path argument of every tool: the three calls
// that slipped past a rule naming one parameter are all caught.
func TestDecide_PathsCoverEveryPathArgument(t *testing.T) {
	p := mustPolicy(t, `[
		{"id":"ro","decision":"allow","read_only":true},
		{"id":"no-env","decision":"deny","paths":["*.env",".env"]}]`)
	tests := []struct {
		name   string
		in     Input
		action Action
		rule   string
	}{
		{"read_file path", Input{Tool: "read_file", ReadOnly: true, Args: args("path", "prod.env"), Paths: []string{"/srv/app/prod.env"}}, Deny, "no-env"},
		{"grep_search path", Input{Tool: "grep_search", ReadOnly: true, Args: args("pattern", "", "path", ".env"), Paths: []string{"/srv/app/.env"}}, Deny, "no-env"},
		{"word_count list item", Input{Tool: "word_count", ReadOnly: true, Paths: []string{"/srv/app/a.go", "/srv/app/prod.env"}}, Deny, "no-env"},
		{"no secret", Input{Tool: "word_count", ReadOnly: true, Paths: []string{"/srv/app/a.go", "/srv/app/env.go"}}, Allow, "ro"},
		{"a directory named like one is judged by its own name", Input{Tool: "list_files", ReadOnly: true, Paths: []string{"/srv/app.env/x"}}, Allow, "ro"},
		{"no path arguments", Input{Tool: "get_info", ReadOnly: true}, Allow, "ro"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkDecision(t, p.Decide(tt.in), tt.action, tt.rule)
		})
	}
}

func TestRule_PathsMatching(t *testing.T) {
	tests := []struct {
		name    string
		rule    string
		paths   []string
		matched bool
	}{
		{"base name glob at any depth", `{"decision":"deny","paths":"id_rsa*"}`, []string{"/home/me/.ssh/id_rsa.pub"}, true},
		{"base name glob sees only the base name", `{"decision":"deny","paths":"ssh*"}`, []string{"/home/me/.ssh/x"}, false},
		{"a glob with a slash sees the whole path", `{"decision":"deny","paths":"/srv/app/*"}`, []string{"/srv/app/a/b"}, true},
		{"whole path by components is the author's to write", `{"decision":"deny","paths":"/srv/app/*"}`, []string{"/srv/app-evil/x"}, false},
		{"a literal path", `{"decision":"deny","paths":"/etc/shadow"}`, []string{"/etc/shadow"}, true},
		{"any glob of the list", `{"decision":"deny","paths":["*.pem","*.key"]}`, []string{"/k/server.key"}, true},
		{"deny: one path is enough", `{"decision":"deny","paths":"*.key"}`, []string{"/a.go", "/b.key"}, true},
		{"ask: one path is enough", `{"decision":"ask","paths":"*.key"}`, []string{"/a.go", "/b.key"}, true},
		{"allow: every path", `{"decision":"allow","paths":"/srv/app/*"}`, []string{"/srv/app/a", "/srv/app/b"}, true},
		{"allow: one path outside", `{"decision":"allow","paths":"/srv/app/*"}`, []string{"/srv/app/a", "/etc/passwd"}, false},
		{"allow: each path may match a different glob", `{"decision":"allow","paths":["*.go","*.md"]}`, []string{"/a.go", "/b.md"}, true},
		{"allow: no path arguments", `{"decision":"allow","paths":"*"}`, nil, false},
		{"deny: no path arguments", `{"decision":"deny","paths":"*"}`, nil, false},
		{"deny except: every path must be exempt", `{"decision":"deny","paths":"*","except":{"paths":"/tmp/*"}}`, []string{"/tmp/a", "/etc/b"}, true},
		{"deny except: all exempt", `{"decision":"deny","paths":"*","except":{"paths":"/tmp/*"}}`, []string{"/tmp/a", "/tmp/b"}, false},
		{"allow except: one path is enough", `{"decision":"allow","paths":"*","except":{"paths":"*.key"}}`, []string{"/a", "/b.key"}, false},
		{"allow except: none", `{"decision":"allow","paths":"*","except":{"paths":"*.key"}}`, []string{"/a", "/b"}, true},
		{"escaped wildcard is literal", `{"decision":"deny","paths":"a\\*"}`, []string{"/x/ab"}, false},
		{"with other matchers", `{"decision":"deny","tool":"cat","paths":"*.key"}`, []string{"/b.key"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := mustRules(t, "["+tt.rule+"]")
			c := newCall(&Input{Tool: "t", Paths: tt.paths})
			if got := rules[0].matches(&c); got != tt.matched {
				t.Errorf("rule %s on paths %q: matched = %v, want %v", tt.rule, tt.paths, got, tt.matched)
			}
		})
	}
}

func TestParseRules_PathsErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"empty list", `[{"decision":"deny","paths":[]}]`, `field "paths": empty paths list`},
		{"empty glob", `[{"decision":"deny","paths":""}]`, `field "paths": glob "": empty glob`},
		{"bad glob in a list", `[{"decision":"deny","paths":["*.go","[ab]"]}]`, `field "paths[1]": glob "[ab]": "[" is not supported`},
		{"not a string", `[{"decision":"deny","paths":7}]`, `field "paths": want a string or an array of strings, got a number`},
		{"item not a string", `[{"decision":"deny","paths":["a",null]}]`, `field "paths[1]": want a string, got null`},
		{"in an except block", `[{"decision":"deny","except":{"paths":[]}}]`, `field "except.paths": empty paths list`},
		{"example paths not strings", `[{"decision":"deny","paths":"*","examples":{"match":[{"tool":"a","paths":[1]}]}}]`,
			`field "examples.match[0].paths[0]": want a string`},
		{"example that does not match", `[{"decision":"deny","paths":"*.key","examples":{"match":[{"tool":"a","paths":["/a.pem"]}]}}]`,
			`example {"tool":"a","paths":["/a.pem"]} does not match the rule`},
		{"example without paths cannot match", `[{"decision":"deny","paths":"*","examples":{"match":["cat path=/a.key"]}}]`,
			`example "cat path=/a.key" does not match the rule`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRules("test.json", []byte(tt.src))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestRule_PathsRoundTrip(t *testing.T) {
	tests := []struct{ src, written string }{
		{`{"decision":"deny","paths":"*.pem"}`, `{"decision":"deny","paths":"*.pem"}`},
		{`{"decision":"deny","paths":["*.pem"]}`, `{"decision":"deny","paths":"*.pem"}`},
		{`{"decision":"allow","tool":"cat","paths":["/srv/\\*/x","*.go"],"examples":{"match":[{"tool":"cat","paths":["/srv/*/x"]}]},"except":{"paths":"*_test.go"}}`,
			`{"decision":"allow","tool":"cat","paths":["/srv/\\*/x","*.go"],"examples":{"match":[{"tool":"cat","paths":["/srv/*/x"]}]},"except":{"paths":"*_test.go"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			first := mustRules(t, "["+tt.src+"]")[0].String()
			if first != tt.written {
				t.Errorf("written as %s, want %s", first, tt.written)
			}
			if again := mustRules(t, "["+first+"]")[0].String(); again != first {
				t.Errorf("round trip changed the rule:\n first %s\nsecond %s", first, again)
			}
		})
	}
}

func TestDiffRules_ShowsPaths(t *testing.T) {
	prev := mustRules(t, `[{"id":"keys","decision":"deny","paths":"*.key"}]`)
	next := mustRules(t, `[{"id":"keys","decision":"deny","paths":["*.key","*.pem"]}]`)
	got := DiffRules(prev, next)
	if len(got) != 1 || got[0].String() != `~ rule keys: {"id":"keys","decision":"deny","paths":["*.key","*.pem"]}` {
		t.Fatalf("diff = %v", got)
	}
}
