package policy

import (
	"slices"
	"strings"
	"testing"
)

func TestParseRules_FailingExamplesDoNotLoad(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"match example that does not match",
			`[{"id":"grep-src","decision":"allow","tool":"grep","args":{"path":"./src/*"},
			   "examples":{"match":["grep path=./src/a.go",{"tool":"grep","args":{"path":"./lib/x"}}]}}]`,
			[]string{`rules[0] (id "grep-src")`, `field "examples.match[1]"`,
				`example {"tool":"grep","args":{"path":"./lib/x"}} does not match the rule`}},
		{"not_match example that matches",
			`[{"decision":"deny","argv":["rm","**"],"examples":{"not_match":[{"argv":["ls"]},{"argv":["rm","-f","x"]}]}}]`,
			[]string{"rules[0]", `field "examples.not_match[1]"`, `example {"argv":["rm","-f","x"]} matches the rule, but is listed under not_match`}},
		{"example that trips an except",
			`[{"decision":"deny","tool":"rm","except":{"args":{"p":"./build"}},"examples":{"match":["rm p=./build"]}}]`,
			[]string{`field "examples.match[0]"`, `example "rm p=./build" does not match`}},
		{"shorthand without equals",
			`[{"decision":"ask","examples":{"match":["grep pattern"]}}]`,
			[]string{`field "examples.match[0]"`, `"pattern" is not key=value`}},
		{"unknown examples list",
			`[{"decision":"ask","examples":{"matches":[]}}]`,
			[]string{`field "examples.matches"`, "unknown field"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRules("test.json", []byte(tt.src))
			if err == nil {
				t.Fatal("rule loaded, want an example error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestParseExampleInput_Forms(t *testing.T) {
	tests := []struct {
		name, src string
		want      Input
	}{
		{"shorthand", `"grep pattern=a=b path=./src"`, Input{Tool: "grep", Args: args("pattern", "a=b", "path", "./src")}},
		{"shorthand list", `"cat files=a files=b"`, Input{Tool: "cat", Args: args("files", "a", "files", "b")}},
		{"object", `{"tool":"t","args":{"a":"1","b":["x","y"]},"argv":["t","1"],"client":"c","read_only":true,"shell":true,"path":"/bin/t"}`,
			Input{Tool: "t", Args: args("a", "1", "b", "x", "b", "y"), Argv: []string{"t", "1"}, Client: "c", ReadOnly: true, Shell: true, Path: "/bin/t"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseExampleInput([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if got.Tool != tt.want.Tool || got.Client != tt.want.Client || got.Path != tt.want.Path ||
				got.ReadOnly != tt.want.ReadOnly || got.Shell != tt.want.Shell || !slices.Equal(got.Argv, tt.want.Argv) ||
				len(got.Args) != len(tt.want.Args) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for k, v := range tt.want.Args {
				if !slices.Equal(got.Args[k], v) {
					t.Errorf("args[%s] = %q, want %q", k, got.Args[k], v)
				}
			}
		})
	}
}

func TestPolicy_CheckExamples(t *testing.T) {
	p := mustPolicy(t, `[
		{"id":"ro","decision":"allow","read_only":true,"examples":{"match":[{"tool":"ls","read_only":true}],"not_match":["ls"]}},
		{"decision":"deny","tool":"rm","examples":{"match":["rm path=/"]}},
		{"id":"quiet","decision":"ask"}]`)
	got := p.CheckExamples()
	want := []struct {
		rule, example string
		want          bool
	}{
		{"ro", `{"tool":"ls","read_only":true}`, true},
		{"ro", `"ls"`, false},
		{"test.json#1", `"rm path=/"`, true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d results, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Rule != w.rule || g.Example != w.example || g.Want != w.want || !g.OK() || g.Matched != w.want {
			t.Errorf("result %d = %+v, want rule %s example %s want %v, OK", i, g, w.rule, w.example, w.want)
		}
	}
	if got[1].Input.Tool != "ls" || got[1].Input.ReadOnly {
		t.Errorf("shorthand example input = %+v, want tool ls, not read-only", got[1].Input)
	}
}

func TestExampleResult_OK(t *testing.T) {
	tests := []struct {
		want, matched, ok bool
	}{
		{true, true, true}, {true, false, false}, {false, false, true}, {false, true, false},
	}
	for _, tt := range tests {
		if got := (ExampleResult{Want: tt.want, Matched: tt.matched}).OK(); got != tt.ok {
			t.Errorf("OK() with want %v matched %v = %v", tt.want, tt.matched, got)
		}
	}
}
