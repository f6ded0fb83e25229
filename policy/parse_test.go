package policy

import (
	"errors"
	"strings"
	"testing"
)

func TestParseRules_Errors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // fragments the error must contain
	}{
		{"not an array", `{"decision":"allow"}`, []string{"test.json", "want an array, got an object"}},
		{"rule not an object", `["allow"]`, []string{"rules[0]", "want an object, got a string"}},
		{"unknown field", `[{"id":"r","decision":"allow","tool":"x","decison":"deny"}]`,
			[]string{"test.json: rules[0] (id \"r\")", `field "decison"`, "unknown field"}},
		{"id after the bad field", `[{"decision":"allow"},{"tool":7,"id":"late","decision":"ask"}]`,
			[]string{`rules[1] (id "late")`, `field "tool"`, "want a string, got a number"}},
		{"missing decision", `[{"tool":"x"}]`, []string{"rules[0]", `field "decision"`, "missing"}},
		{"bad decision", `[{"decision":"maybe"}]`, []string{`"maybe" is not a decision`}},
		{"null is not a string", `[{"decision":"allow","reason":null}]`, []string{`field "reason"`, "got null"}},
		{"duplicate key", `[{"decision":"allow","decision":"deny"}]`, []string{`field "decision"`, "duplicate key"}},
		{"empty id", `[{"id":"","decision":"allow"}]`, []string{`field "id"`, "empty id"}},
		{"duplicate id", `[{"id":"a","decision":"allow"},{"id":"a","decision":"deny"}]`,
			[]string{`rules[1] (id "a")`, "already used by rules[0]"}},
		{"empty tool glob", `[{"decision":"allow","tool":""}]`, []string{`field "tool"`, "empty glob"}},
		{"bad tool glob", `[{"decision":"allow","tool":"[ab]"}]`, []string{`field "tool"`, `"[" is not supported`}},
		{"bad regex", `[{"id":"re","decision":"deny","args":{"path":{"regex":"("}}}]`,
			[]string{`(id "re")`, `field "args.path.regex"`, "invalid regex \"(\": error parsing regexp: missing closing ): `(`"}},
		{"regex cannot close its anchoring group", `[{"decision":"allow","args":{"p":{"regex":"a)|(.*"}}}]`,
			[]string{`field "args.p.regex"`, "unexpected )"}},
		{"pattern with two kinds", `[{"decision":"deny","args":{"p":{"regex":"a","exact":"a"}}}]`,
			[]string{`field "args.p"`, "exactly one of"}},
		{"pattern unknown kind", `[{"decision":"deny","args":{"p":{"glob":"a"}}}]`,
			[]string{`field "args.p.glob"`, "unknown field"}},
		{"pattern wrong type", `[{"decision":"deny","args":{"p":3}}]`, []string{`field "args.p"`, "got a number"}},
		{"rest not last", `[{"decision":"deny","argv":["rm","**","x"]}]`, []string{`field "argv[1]"`, "may only come last"}},
		{"empty argv", `[{"decision":"deny","argv":[]}]`, []string{`field "argv"`, "empty argv"}},
		{"argv exact list", `[{"decision":"deny","argv":[{"exact":["a","b"]}]}]`, []string{`field "argv[0]"`, "one string"}},
		{"read_only not bool", `[{"decision":"allow","read_only":"yes"}]`, []string{`field "read_only"`, "want true or false"}},
		{"empty except", `[{"decision":"ask","tool":"rm","except":{}}]`, []string{`field "except"`, "cancel the rule"}},
		{"except bad field", `[{"decision":"ask","except":[{"tool":"a"},{"reason":"x"}]}]`,
			[]string{`field "except[1].reason"`, "unknown field"}},
		{"example wrong shape", `[{"decision":"ask","examples":{"match":[{"tool":"a","cwd":"/"}]}}]`,
			[]string{`field "examples.match[0].cwd"`, "unknown field"}},
		{"example number arg", `[{"decision":"ask","examples":{"match":[{"tool":"a","args":{"n":5}}]}}]`,
			[]string{`field "examples.match[0].args.n"`, "quote numbers"}},
		{"trailing data", `[] []`, []string{"unexpected data"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRules("test.json", []byte(tt.src))
			if err == nil {
				t.Fatalf("ParseRules(%s) loaded, want an error", tt.src)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestParseRules_ReportsEveryBadRule(t *testing.T) {
	_, err := ParseRules("p.json", []byte(`[{"decision":"x"},{"decision":"allow"},{"tool":1}]`))
	var re *RuleError
	if !errors.As(err, &re) {
		t.Fatalf("error %v is not a RuleError", err)
	}
	for _, w := range []string{"p.json: rules[0]", "p.json: rules[2]"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	if strings.Contains(err.Error(), "rules[1]") {
		t.Errorf("error %q blames the good rule", err)
	}
}

func TestParseRules_Places(t *testing.T) {
	rules := mustRules(t, `[{"decision":"allow"},{"id":"named","decision":"deny","reason":"why"}]`)
	if len(rules) != 2 {
		t.Fatalf("got %d rules, want 2", len(rules))
	}
	if got := rules[0].Label(); got != "test.json#0" {
		t.Errorf("unnamed rule label = %q, want test.json#0", got)
	}
	r := rules[1]
	if r.Label() != "named" || r.ID() != "named" || r.Source() != "test.json" || r.Index() != 1 ||
		r.Decision() != Deny || r.Reason() != "why" || r.Kept() != "" {
		t.Errorf("rule = %q %q %q %d %q %q %q", r.Label(), r.ID(), r.Source(), r.Index(), r.Decision(), r.Reason(), r.Kept())
	}
}

func TestParseFile_Forms(t *testing.T) {
	tests := []struct {
		name, src string
		rules     int
		err       string
	}{
		{"array", `[{"decision":"allow"}]`, 1, ""},
		{"object", `{"rules":[{"decision":"allow"},{"decision":"deny"}]}`, 2, ""},
		{"object unknown key", `{"rules":[],"tools":[]}`, 0, `field "tools"`},
		{"scalar", `"rules"`, 0, "want an array of rules"},
		{"empty", ``, 0, "empty input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, err := ParseFile("policy.json", []byte(tt.src))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "policy.json") {
					t.Fatalf("error = %v, want one naming policy.json and %q", err, tt.err)
				}
				return
			}
			if err != nil || len(rules) != tt.rules {
				t.Fatalf("got %d rules, %v; want %d", len(rules), err, tt.rules)
			}
		})
	}
}

func TestRule_MarshalRoundTrip(t *testing.T) {
	src := `[{"id":"r","decision":"ask","tool":"rm_*","args":{"b":{"regex":"x.*"},"a":"*.go","c":{"exact":["1","2"]},"d":{"exact":"*"},"e":"a&b<c>"},` +
		`"only_args":true,"argv":["rm","-rf","**"],"client":"","read_only":false,"reason":"careful",` +
		`"examples":{"match":[{"tool":"rm_x","args":{"a":"m.go","b":"xy","c":["1","2"],"d":"*","e":"a&b<c>"},"argv":["rm","-rf"]}],"not_match":["rm_x a=m.go"]},` +
		`"except":[{"tool":"rm_safe"},{"args":{"a":"keep\\*"}}]}]`
	rules := mustRules(t, src)
	first := rules[0].String()
	again := mustRules(t, "["+first+"]")
	if second := again[0].String(); second != first {
		t.Errorf("round trip changed the rule:\n first %s\nsecond %s", first, second)
	}
	for _, w := range []string{`"args":{"a":"*.go","b":{"regex":"x.*"},"c":{"exact":["1","2"]},"d":{"exact":"*"},"e":"a&b<c>"}`,
		`"client":""`, `"read_only":false`, `"argv":["rm","-rf","**"]`, `"not_match":["rm_x a=m.go"]`} {
		if !strings.Contains(first, w) {
			t.Errorf("written rule %s lacks %s", first, w)
		}
	}
}
