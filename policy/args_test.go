package policy

import (
	"fmt"
	"testing"
)

func TestDecide_ArgPatterns(t *testing.T) {
	tests := []struct {
		name    string
		pattern string // JSON
		args    map[string][]string
		want    bool
	}{
		{"glob", `"./src/*"`, args("p", "./src/a/b.go"), true},
		{"glob miss", `"./src/*"`, args("p", "./srcx"), false},
		{"regex is anchored", `{"regex":"ab"}`, args("p", "xaby"), false},
		{"regex", `{"regex":"[0-9]+\\.[0-9]+"}`, args("p", "1.25"), true},
		{"regex dot matches newline", `{"regex":"a.b"}`, args("p", "a\nb"), true},
		{"regex alternation anchored as a whole", `{"regex":"a|b"}`, args("p", "ab"), false},
		{"exact", `{"exact":"TODO*"}`, args("p", "TODO*"), true},
		{"exact is literal", `{"exact":"TODO*"}`, args("p", "TODO list"), false},
		{"absent parameter", `"*"`, args("q", "x"), false},
		{"empty value", `""`, args("p", ""), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, decision := range []string{"allow", "deny"} {
				p := mustPolicy(t, `[{"id":"r","decision":"`+decision+`","args":{"p":`+tt.pattern+`}}]`)
				d := p.Decide(Input{Tool: "t", Args: tt.args})
				if got := d.Rule == "r"; got != tt.want {
					t.Errorf("%s rule %s on %q: matched = %v, want %v", decision, tt.pattern, tt.args, got, tt.want)
				}
			}
		})
	}
}

// A list parameter is judged conservatively for the rule's decision: a deny
// or ask rule catches one matching item, an allow rule needs every item.
func TestDecide_ListArgs(t *testing.T) {
	tests := []struct {
		name    string
		rule    string
		files   []string
		matched bool
	}{
		{"deny: one item is enough", `{"decision":"deny","args":{"files":"*.env"}}`, []string{"a.go", "b.env"}, true},
		{"deny: no item", `{"decision":"deny","args":{"files":"*.env"}}`, []string{"a.go", "b.go"}, false},
		{"ask: one item is enough", `{"decision":"ask","args":{"files":"*.env"}}`, []string{"a.go", "b.env"}, true},
		{"allow: every item", `{"decision":"allow","args":{"files":"*.go"}}`, []string{"a.go", "b.go"}, true},
		{"allow: one item outside", `{"decision":"allow","args":{"files":"*.go"}}`, []string{"a.go", "b.env"}, false},
		{"allow: empty list", `{"decision":"allow","args":{"files":"*"}}`, []string{}, false},
		{"deny: empty list", `{"decision":"deny","args":{"files":"*"}}`, []string{}, false},
		{"exact compares the list", `{"decision":"allow","args":{"files":{"exact":["a","b"]}}}`, []string{"a", "b"}, true},
		{"exact keeps order", `{"decision":"allow","args":{"files":{"exact":["a","b"]}}}`, []string{"b", "a"}, false},
		{"exact keeps length", `{"decision":"deny","args":{"files":{"exact":["a","b"]}}}`, []string{"a"}, false},
		{"exact empty list", `{"decision":"allow","args":{"files":{"exact":[]}}}`, []string{}, true},
		// except works against its rule, so it reads the other way round.
		{"deny except: every item must be exempt", `{"decision":"deny","args":{"files":"*"},"except":{"args":{"files":"*.tmp"}}}`, []string{"a.tmp", "b.txt"}, true},
		{"deny except: all exempt", `{"decision":"deny","args":{"files":"*"},"except":{"args":{"files":"*.tmp"}}}`, []string{"a.tmp", "b.tmp"}, false},
		{"allow except: one item is enough", `{"decision":"allow","args":{"files":"*"},"except":{"args":{"files":"*.key"}}}`, []string{"a", "b.key"}, false},
		{"allow except: none", `{"decision":"allow","args":{"files":"*"},"except":{"args":{"files":"*.key"}}}`, []string{"a", "b"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := mustRules(t, "["+tt.rule+"]")
			c := newCall(&Input{Tool: "t", Args: map[string][]string{"files": tt.files}})
			if got := rules[0].matches(&c); got != tt.matched {
				t.Errorf("rule %s on files %q: matched = %v, want %v", tt.rule, tt.files, got, tt.matched)
			}
		})
	}
}

func TestDecide_OnlyArgs(t *testing.T) {
	p := mustPolicy(t, `[{"id":"r","decision":"allow","tool":"grep","args":{"pattern":"*"},"only_args":true}]`)
	checkDecision(t, p.Decide(Input{Tool: "grep", Args: args("pattern", "x")}), Allow, "r")
	checkDecision(t, p.Decide(Input{Tool: "grep", Args: args("pattern", "x", "flags", "-r")}), Ask, "")
	none := mustPolicy(t, `[{"id":"none","decision":"allow","only_args":true}]`)
	checkDecision(t, none.Decide(Input{Tool: "date"}), Allow, "none")
	checkDecision(t, none.Decide(Input{Tool: "date", Args: args("format", "%s")}), Ask, "")
}

func TestDecide_Except(t *testing.T) {
	p := mustPolicy(t, `[{"id":"no-rm","decision":"deny","argv":["rm","**"],
		"except":[{"argv":["rm","-rf","./build"]},{"client":"trusted","tool":"rm_tmp"}]},
		{"id":"ok","decision":"allow"}]`)
	tests := []struct {
		name   string
		in     Input
		action Action
		rule   string
	}{
		{"covered", Input{Tool: "rm_any", Argv: []string{"rm", "-rf", "/"}}, Deny, "no-rm"},
		{"first exception", Input{Tool: "rm_any", Argv: []string{"rm", "-rf", "./build"}}, Allow, "ok"},
		{"second exception needs all its fields", Input{Tool: "rm_tmp", Client: "other", Argv: []string{"rm", "x"}}, Deny, "no-rm"},
		{"second exception", Input{Tool: "rm_tmp", Client: "trusted", Argv: []string{"rm", "x"}}, Allow, "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkDecision(t, p.Decide(tt.in), tt.action, tt.rule)
		})
	}
}

// One decision asks each regex about each value once; the remembered answer
// must belong to that value, and a full memo must still answer correctly.
func TestRegexMemo_AnswersPerValue(t *testing.T) {
	p := mustPolicy(t, `[
		{"id":"a","decision":"deny","args":{"a":{"regex":"x.*"}}},
		{"id":"b","decision":"deny","args":{"b":{"regex":"x.*"}}},
		{"id":"c","decision":"ask","args":{"a":{"regex":"x.*"}}}]`)
	checkDecision(t, p.Decide(Input{Tool: "t", Args: args("a", "y", "b", "xz")}), Deny, "b")
	checkDecision(t, p.Decide(Input{Tool: "t", Args: args("a", "y", "b", "y")}), Ask, "")

	rules := mustRules(t, `[{"decision":"deny","args":{"p":{"regex":"v[0-9]"}}}]`)
	re := &rules[0].match.args[0].p
	var memo regexMemo
	for i := range 12 { // more values than the memo holds
		val := fmt.Sprintf("v%d", i)
		for range 2 {
			if got, want := memo.match(re, val), i < 10; got != want {
				t.Errorf("memo says %q matches v[0-9]: %v, want %v", val, got, want)
			}
		}
	}
}
