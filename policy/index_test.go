package policy

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The index must give exactly the answer of a plain walk over every rule in
// load order, on rule sets nobody wrote by hand.
func TestDecide_IndexedEqualsNaive(t *testing.T) {
	for seed := range uint64(150) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			g := newRuleGen(seed, 6)
			src := g.rules(1 + g.r.IntN(40))
			p := mustPolicy(t, src)
			for range 3 { // remembered rules join the same precedence
				if err := p.RememberSession(Narrowest(g.input())); err != nil {
					t.Fatal(err)
				}
			}
			all := append(p.Rules(), p.Remembered()...)
			for range 60 {
				in := g.input()
				action, rule := naiveDecide(all, in)
				got := p.Decide(in)
				if got.Action != action || got.Rule != rule {
					t.Fatalf("Decide(%+v) = %s by %q, naive walk says %s by %q\nrules: %s",
						in, got.Action, got.Rule, action, rule, src)
				}
			}
		})
	}
}

func TestIndex_FilesLiteralToolsByName(t *testing.T) {
	rules := mustRules(t, `[{"decision":"deny","tool":"a"},{"decision":"deny","tool":"a*"},{"decision":"deny"},{"decision":"allow","tool":"odd\\*"}]`)
	ix := newIndex(rules)
	var positions []int
	for _, e := range ix.deny.byTool["a"] {
		positions = append(positions, e.pos)
	}
	if !slices.Equal(positions, []int{0, 1, 2}) {
		t.Errorf("rules filed under tool a: %v, want 0, 1, 2 (its own, then the wildcards that match it)", positions)
	}
	if got := len(ix.deny.wild); got != 2 {
		t.Errorf("wildcard deny rules: %d, want 2", got)
	}
	if got := len(ix.allow.byTool["odd*"]); got != 1 {
		t.Errorf("escaped literal tool not filed by name: %v", ix.allow.byTool)
	}
}

// ruleGen writes random rules (as JSON, so the parser is exercised too) and
// random calls from small vocabularies, so that rules and calls often meet.
type ruleGen struct {
	r     *rand.Rand
	tools []string
	// exactPct and globPct are the percentages of rules naming one tool and
	// naming tools by a glob (from toolGlobs); the rest name no tool.
	exactPct, globPct int
	toolGlobs         []string
}

func newRuleGen(seed uint64, tools int) *ruleGen {
	g := &ruleGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		exactPct: 60, globPct: 20, toolGlobs: []string{"tool_0*", "*_1?", "*", "tool_*"}}
	for i := range tools {
		g.tools = append(g.tools, fmt.Sprintf("tool_%02d", i))
	}
	return g
}

func (g *ruleGen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

var (
	genArgNames   = []string{"path", "pattern", "files"}
	genValues     = []string{"a", "b.go", "./src/main.go", "/etc/passwd", "*", "x y", "README.md", ""}
	genArgvs      = [][]string{{"git", "status"}, {"git", "push", "origin"}, {"rm", "-rf", "./build"}, {"rm", "x"}, {"grep", "-rn", "--", "TODO", "./src"}, {"ls"}}
	genPaths      = []string{"/usr/bin/git", "/bin/rm", "/usr/bin/grep", "/bin/ls", ""}
	genClients    = []string{"claude-code", "cursor", ""}
	argPatterns   = []string{`"*.go"`, `"./src/*"`, `"/etc/*"`, `"a"`, `"*"`, `"?"`, `{"regex":"[a-z]+\\.(go|md)"}`, `{"regex":"[ab].*"}`, `{"exact":"a"}`, `{"exact":["a","b.go"]}`, `{"exact":"*"}`}
	pathsPatterns = []string{`"*.env"`, `".env"`, `["*.pem","/srv/*"]`, `"/srv/app/*"`, `"*"`, `"/etc/passwd"`, `["id_rsa*"]`}
	genPathArgs   = []string{"/srv/app/main.go", "/srv/app/.env", "/srv/app/prod.env", "/etc/passwd", "/home/me/.ssh/id_rsa", "/srv/x.pem", "/"}
	argvPatterns  = []string{`["git","status","**"]`, `["git","**"]`, `["rm","-rf","*"]`, `["rm","**"]`, `["*","**"]`, `["/usr/bin/*","**"]`, `[{"regex":"g.*"},"**"]`, `["grep","-rn","--","*","*"]`, `["ls"]`}
)

// matchers writes the body of a random matcher set (without braces); it may
// be empty.
func (g *ruleGen) matchers(wildTool bool) []string {
	var f []string
	switch n := g.r.IntN(100); {
	case n < g.exactPct:
		f = append(f, fmt.Sprintf(`"tool":%q`, g.tools[g.r.IntN(len(g.tools))]))
	case n < g.exactPct+g.globPct && wildTool:
		f = append(f, fmt.Sprintf(`"tool":%q`, g.pick(g.toolGlobs...)))
	}
	if g.r.IntN(2) == 0 {
		var a []string
		for _, name := range genArgNames {
			if g.r.IntN(3) == 0 {
				a = append(a, fmt.Sprintf("%q:%s", name, argPatterns[g.r.IntN(len(argPatterns))]))
			}
		}
		if len(a) > 0 {
			f = append(f, `"args":{`+strings.Join(a, ",")+`}`)
		}
	}
	if g.r.IntN(4) == 0 {
		f = append(f, `"only_args":true`)
	}
	if g.r.IntN(3) == 0 {
		f = append(f, `"paths":`+pathsPatterns[g.r.IntN(len(pathsPatterns))])
	}
	if g.r.IntN(3) == 0 {
		f = append(f, `"argv":`+argvPatterns[g.r.IntN(len(argvPatterns))])
	}
	if g.r.IntN(6) == 0 {
		f = append(f, fmt.Sprintf(`"client":%q`, g.pick("claude-*", "", "cursor")))
	}
	if g.r.IntN(5) == 0 {
		f = append(f, `"read_only":`+g.pick("true", "false"))
	}
	return f
}

// rules writes a JSON array of n random rules.
func (g *ruleGen) rules(n int) string {
	out := make([]string, n)
	for i := range out {
		f := append([]string{fmt.Sprintf(`"decision":%q`, g.pick("allow", "allow", "ask", "deny"))}, g.matchers(true)...)
		if g.r.IntN(4) == 0 {
			if ex := g.matchers(false); len(ex) > 0 {
				f = append(f, `"except":{`+strings.Join(ex, ",")+`}`)
			}
		}
		out[i] = "{" + strings.Join(f, ",") + "}"
	}
	return "[" + strings.Join(out, ",\n") + "]"
}

// input makes a random call.
func (g *ruleGen) input() Input {
	in := Input{
		Tool:     g.tools[g.r.IntN(len(g.tools))],
		ReadOnly: g.r.IntN(2) == 0,
		Shell:    g.r.IntN(8) == 0,
		Argv:     genArgvs[g.r.IntN(len(genArgvs))],
		Path:     genPaths[g.r.IntN(len(genPaths))],
		Client:   genClients[g.r.IntN(len(genClients))],
		Args:     map[string][]string{},
	}
	for _, name := range genArgNames {
		if g.r.IntN(2) == 0 {
			n := g.r.IntN(3) + 1
			if name == "files" { // a list parameter, possibly empty
				n = g.r.IntN(4)
			}
			vals := make([]string, n)
			for i := range vals {
				vals[i] = genValues[g.r.IntN(len(genValues))]
			}
			in.Args[name] = vals
		}
	}
	for range g.r.IntN(4) { // the resolved path arguments, often none
		in.Paths = append(in.Paths, genPathArgs[g.r.IntN(len(genPathArgs))])
	}
	return in
}

// naiveDecide is the precedence evaluated the slow, obvious way: every rule,
// in load order, no index.
func naiveDecide(rules []Rule, in Input) (Action, string) {
	c := newCall(&in)
	first := map[Action]*Rule{}
	for i := range rules {
		if rules[i].matches(&c) && first[rules[i].decision] == nil {
			first[rules[i].decision] = &rules[i]
		}
	}
	switch {
	case first[Deny] != nil:
		return Deny, first[Deny].Label()
	case first[Ask] != nil:
		return Ask, first[Ask].Label()
	case first[Allow] != nil && in.Shell:
		return Ask, first[Allow].Label()
	case first[Allow] != nil:
		return Allow, first[Allow].Label()
	}
	return Ask, ""
}

// BenchmarkDecide measures one decision against 10, 100 and 1,000 rules
// spread over many tools the way a real configuration is: most rules name one
// tool, some name tools by a glob ("tool_1*"), a few name none; deny rules
// look for secrets, system paths and forced removals, ask rules for pushes
// and temporary paths, allow rules for source paths, read-only tools and
// read-only git (some with an except); matchers mix argument globs, regexes,
// argv patterns and clients. Calls cycle through 256 random inputs, most of
// them benign, so a typical decision walks every deny and ask candidate
// before an allow or nothing matches. The share of each outcome is reported
// alongside the timing.
func BenchmarkDecide(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(uint64(n), 7))
			tools := max(5, n/20)
			p := mustPolicy(b, benchRules(r, n, tools))
			inputs := make([]Input, 256)
			outcome := map[Action]int{}
			for i := range inputs {
				inputs[i] = benchInput(r, tools)
				outcome[p.Decide(inputs[i]).Action]++
			}
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				p.Decide(inputs[i%len(inputs)])
				i++
			}
			for _, a := range []Action{Allow, Ask, Deny} {
				b.ReportMetric(100*float64(outcome[a])/float64(len(inputs)), string(a)+"%")
			}
		})
	}
}

var (
	benchDeny = []string{`"args":{"path":"/etc/*"}`, `"args":{"path":{"regex":".*\\.(env|pem|key)"}}`,
		`"argv":["rm","-rf","/*","**"]`, `"args":{"pattern":{"regex":"(?i).*password.*"}}`, `"client":"untrusted-*"`}
	benchAsk = []string{`"argv":["git","push","**"]`, `"args":{"path":"/tmp/*"}`,
		`"read_only":false,"args":{"files":"*.lock"}`, `"argv":["*","--force","**"]`}
	benchAllow = []string{`"read_only":true`, `"args":{"path":"./src/*"}`, `"args":{"files":"*.go"}`,
		`"argv":["git",{"regex":"status|log|diff"},"**"]`, `"args":{"pattern":"*"},"client":"claude-*"`}
	benchArgv = [][]string{{"git", "status"}, {"git", "push", "origin"}, {"grep", "-rn", "--", "TODO", "./src"},
		{"rm", "-rf", "/tmp/x"}, {"ls", "-la", "./src"}}
)

// benchRules writes n rules over the given number of tools.
func benchRules(r *rand.Rand, n, tools int) string {
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	out := make([]string, n)
	for i := range out {
		var f []string
		switch d := r.IntN(100); {
		case d < 20:
			f = append(f, `"decision":"deny"`, pick(benchDeny))
		case d < 45:
			f = append(f, `"decision":"ask"`, pick(benchAsk))
		default:
			f = append(f, `"decision":"allow"`, pick(benchAllow))
			if r.IntN(5) == 0 {
				f = append(f, `"except":{"args":{"path":"*secret*"}}`)
			}
		}
		switch t := r.IntN(100); {
		case t < 85:
			f = append(f, fmt.Sprintf(`"tool":"tool_%02d"`, r.IntN(tools)))
		case t < 95:
			f = append(f, fmt.Sprintf(`"tool":"tool_%d*"`, r.IntN(max(1, tools/10))))
		}
		out[i] = "{" + strings.Join(f, ",") + "}"
	}
	return "[" + strings.Join(out, ",\n") + "]"
}

// benchInput makes a call, benign nine times in ten.
func benchInput(r *rand.Rand, tools int) Input {
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	in := Input{
		Tool:     fmt.Sprintf("tool_%02d", r.IntN(tools)),
		ReadOnly: r.IntN(2) == 0,
		Argv:     benchArgv[r.IntN(len(benchArgv))],
		Path:     "/usr/bin/tool",
		Client:   pick("claude-code", "claude-code", "cursor"),
		Args: map[string][]string{
			"path":    {pick("./src/main.go", "./src/a/b.go", "./README.md", "./docs/x.md")},
			"pattern": {pick("TODO", "func main", "x")},
			"files":   {pick("a.go", "go.sum"), pick("b.go", "c.go")},
		},
	}
	if r.IntN(10) == 0 {
		in.Args["path"] = []string{pick("/etc/passwd", "prod.env", "/tmp/x")}
	}
	return in
}
