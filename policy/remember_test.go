package policy

import (
	"strings"
	"testing"
)

// grepCall is a call an operator might approve and remember.
func grepCall() Input {
	return Input{Tool: "grep_search", Args: args("pattern", "TODO*", "path", "./src/a.go"),
		Path: "/usr/bin/grep", Argv: []string{"grep", "-rn", "--", "TODO*", "./src/a.go"}, Client: "claude-code"}
}

func TestNarrowest_CoversOnlyThisCall(t *testing.T) {
	r := Narrowest(grepCall())
	want := `{"decision":"allow","tool":"grep_search","args":{"path":{"exact":"./src/a.go"},"pattern":{"exact":"TODO*"}},` +
		`"only_args":true,"reason":"approved earlier by the operator"}`
	if got := r.String(); got != want {
		t.Errorf("Narrowest = %s\nwant %s", got, want)
	}
	tests := []struct {
		name string
		edit func(*Input)
		want bool
	}{
		{"the same call", func(*Input) {}, true},
		{"another client", func(in *Input) { in.Client = "other" }, true},
		{"agent's star stays literal", func(in *Input) { in.Args["pattern"] = []string{"TODO list"} }, false},
		{"another path", func(in *Input) { in.Args["path"] = []string{"./src/b.go"} }, false},
		{"an added argument", func(in *Input) { in.Args["flags"] = []string{"-i"} }, false},
		{"a missing argument", func(in *Input) { delete(in.Args, "path") }, false},
		{"another tool", func(in *Input) { in.Tool = "grep_searchx" }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := grepCall()
			tt.edit(&in)
			c := newCall(&in)
			if got := r.matches(&c); got != tt.want {
				t.Errorf("narrowest rule matched %+v = %v, want %v", in, got, tt.want)
			}
		})
	}
}

func TestNarrowest_ToolNameIsLiteral(t *testing.T) {
	r := Narrowest(Input{Tool: "odd*name"})
	for _, tc := range []struct {
		tool string
		want bool
	}{{"odd*name", true}, {"oddXname", false}} {
		c := newCall(&Input{Tool: tc.tool})
		if got := r.matches(&c); got != tc.want {
			t.Errorf("rule for tool %q matched %q = %v", "odd*name", tc.tool, got)
		}
	}
	back := mustRules(t, "["+r.String()+"]")
	if back[0].sameMatches() != r.sameMatches() {
		t.Errorf("escaped tool reads back differently: %s vs %s", back[0], r)
	}
}

func TestRule_WidenArg(t *testing.T) {
	r, err := Narrowest(grepCall()).WidenArg("path", "./src/*")
	if err != nil {
		t.Fatal(err)
	}
	in := grepCall()
	in.Args["path"] = []string{"./src/deep/b.go"}
	c := newCall(&in)
	if !r.matches(&c) {
		t.Errorf("widened rule %s does not match path ./src/deep/b.go", r)
	}
	in.Args["pattern"] = []string{"TODO list"}
	c = newCall(&in)
	if r.matches(&c) {
		t.Errorf("widening path also widened pattern: %s", r)
	}
	if !strings.Contains(r.String(), `"path":"./src/*"`) {
		t.Errorf("widened rule = %s, want path written as a glob", r)
	}
	if _, err := r.WidenArg("nope", "*"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("widening a missing argument: error = %v", err)
	}
	if _, err := r.WidenArg("path", "[x]"); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("widening to a bad glob: error = %v", err)
	}
}

func TestPolicy_RememberSession(t *testing.T) {
	p := mustPolicy(t, `[{"id":"no-etc","decision":"deny","args":{"path":"/etc/*"}}]`)
	call := grepCall()
	checkDecision(t, p.Decide(call), Ask, "")
	if err := p.RememberSession(Narrowest(call)); err != nil {
		t.Fatal(err)
	}
	d := p.Decide(call)
	checkDecision(t, d, Allow, "session#0")
	if d.Remembered != Session || d.Source != "session" || d.Index != 0 {
		t.Errorf("decision = %+v, want a session rule", d)
	}
	if err := p.RememberSession(Narrowest(call)); err != nil {
		t.Fatal(err)
	}
	if got := p.Remembered(); len(got) != 1 || got[0].Kept() != Session {
		t.Errorf("Remembered() = %v, want the one session rule once", got)
	}

	shell := call
	shell.Shell = true
	checkDecision(t, p.Decide(shell), Ask, "session#0")

	etc := Input{Tool: "cat", Args: args("path", "/etc/shadow")}
	if err := p.RememberSession(Narrowest(etc)); err != nil {
		t.Fatal(err)
	}
	checkDecision(t, p.Decide(etc), Deny, "no-etc")

	deny := mustRules(t, `[{"decision":"deny"}]`)[0]
	if err := p.RememberSession(deny); err == nil {
		t.Error("a deny rule was remembered")
	}
}

func TestPolicy_RememberRefusesRulesThatWouldNotReadBack(t *testing.T) {
	p := mustPolicy(t, `[]`)
	for _, in := range []Input{{Tool: ""}, {Tool: "t", Args: args("", "x")}} {
		if err := p.RememberSession(Narrowest(in)); err == nil || !strings.Contains(err.Error(), "would not read back") {
			t.Errorf("remembering %s: error = %v, want it refused", Narrowest(in), err)
		}
	}
	if got := p.Remembered(); len(got) != 0 {
		t.Errorf("Remembered() = %v, want none", got)
	}
}

func TestNarrowest_EmptyListsAddNothing(t *testing.T) {
	in := Input{Tool: "system_command", Args: map[string][]string{"command": {"ls"}, "env": {}, "args": {"-l"}}}
	r := Narrowest(in)
	if strings.Contains(r.String(), `"env"`) {
		t.Errorf("rule %s stores the empty env", r)
	}
	if !r.Matches(in) {
		t.Errorf("rule %s does not cover the call it was made from", r)
	}
	without := Input{Tool: "system_command", Args: map[string][]string{"command": {"ls"}, "args": {"-l"}}}
	if !r.Matches(without) {
		t.Errorf("rule %s does not cover the same call without the empty list", r)
	}
	with := Input{Tool: "system_command", Args: map[string][]string{"command": {"ls"}, "env": {"A=1"}, "args": {"-l"}}}
	if r.Matches(with) {
		t.Errorf("rule %s covers a call that sets env", r)
	}
}

func TestRule_ForClient(t *testing.T) {
	in := grepCall()
	in.Client = "claude*code"
	r := Narrowest(in).ForClient(in.Client)
	if !r.Matches(in) {
		t.Errorf("rule %s does not cover its own client's call", r)
	}
	other := in
	other.Client = "claude-code"
	if r.Matches(other) {
		t.Errorf("rule %s covers another client (the * must be literal)", r)
	}
	if err := rememberable(r); err != nil {
		t.Errorf("a client-scoped rule cannot be remembered: %v", err)
	}
}

func TestRule_Mentions(t *testing.T) {
	in := Input{Tool: "deploy*", Args: map[string][]string{"token": {`x"<y&z>`}, "files": {"a", "b"}}}
	r := Narrowest(in)
	for _, s := range []string{`x"<y&z>`, `<y&`, "b"} {
		if !r.Mentions(s) {
			t.Errorf("the narrowest rule %s does not mention %q", r, s)
		}
	}
	if r.Mentions("c") || r.Mentions("") || r.Mentions("deploy") || r.Mentions("token") {
		t.Errorf("the narrowest rule %s mentions what it does not hold", r)
	}
	widened, err := r.WidenArg("token", "x*")
	if err != nil {
		t.Fatal(err)
	}
	if widened.Mentions(`<y&`) {
		t.Errorf("the widened rule %s still mentions the value it no longer holds", widened)
	}
}

func TestRule_StringMasked(t *testing.T) {
	r := Narrowest(Input{Tool: "deploy", Args: map[string][]string{"token": {"s3cr3t"}, "format": {"%Y"}}})
	want := `{"decision":"allow","tool":"deploy","args":{"format":{"exact":"%Y"},"token":{"exact":"•••"}},` +
		`"only_args":true,"reason":"approved earlier by the operator"}`
	if got := r.StringMasked([]string{"token"}, "•••"); got != want {
		t.Errorf("masked:\n%s\nwant\n%s", got, want)
	}
	widened, err := r.WidenArg("token", "s*")
	if err != nil {
		t.Fatal(err)
	}
	if got := widened.StringMasked([]string{"token"}, "•••"); !strings.Contains(got, `"token":"s*"`) {
		t.Errorf("a widened glob is the operator's text, shown: %s", got)
	}
	if !strings.Contains(r.String(), "s3cr3t") {
		t.Errorf("StringMasked changed the rule: %s", r)
	}
}

// A secret with glob characters, inside a glob the operator widened to
// (the console pre-fills one that covers the values), is found unescaped.
func TestRule_MentionsASecretInsideAWidenedGlob(t *testing.T) {
	in := Input{Tool: "t", Args: map[string][]string{"files": {"tok*en123-a-tok*en123", "tok*en123-b-tok*en123"}}}
	r, err := Narrowest(in).WidenArg("files", `tok\*en123-*-tok\*en123`)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Matches(in) || !r.Mentions("tok*en123") {
		t.Errorf("the widened rule %s: matches %v, mentions the secret %v; want both", r, r.Matches(in), r.Mentions("tok*en123"))
	}
}
