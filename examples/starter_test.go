package examples

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/policy"
)

// starterSources returns the starter's tool files as config sources.
func starterSources(t *testing.T) []config.Source {
	t.Helper()
	var srcs []config.Source
	for _, f := range Starter() {
		if f.Name != "policy.json" {
			srcs = append(srcs, config.Source{Name: f.Name, Data: f.Data})
		}
	}
	return srcs
}

func TestStarter_Files(t *testing.T) {
	var names []string
	for _, f := range Starter() {
		names = append(names, f.Name)
		if len(f.Data) == 0 {
			t.Errorf("%s is empty", f.Name)
		}
	}
	if want := []string{"policy.json", "tools.d/default.md", "tools.json"}; !slices.Equal(names, want) {
		t.Fatalf("starter files %v, want %v", names, want)
	}
	first := Starter()
	first[0].Data[0] = 'X'
	if Starter()[0].Data[0] == 'X' {
		t.Error("Starter hands out shared bytes")
	}
}

// The starter's tool files load together, warning-free: the default pack
// and the seed's simple form side by side.
func TestStarter_Loads(t *testing.T) {
	c := loadIn(t, workDir(t), starterSources(t)...)
	for _, w := range c.Warnings {
		t.Errorf("warning: %s", w)
	}
	var names []string
	for _, tl := range c.Tools {
		names = append(names, tl.Name)
	}
	for _, want := range []string{"list_files", "grep_search", "get_datetime", "tail_file", "disk_free", "uptime", "count_lines"} {
		if !slices.Contains(names, want) {
			t.Errorf("starter lacks %s (has %v)", want, names)
		}
	}
	if len(names) != 12 {
		t.Errorf("starter has %d tools, want the pack's 9 and the simple form's 3: %v", len(names), names)
	}
	if tl := c.Tool("count_lines"); tl.ReadOnly || tl.Param("file").Type != config.String {
		t.Errorf("count_lines is not in the seed's simple form: read_only=%v", tl.ReadOnly)
	}
}

// The commented Markdown pack is the embedded pack, field for field, so the
// two never drift apart.
func TestStarter_MarkdownPackIsTheDefaultPack(t *testing.T) {
	dir := workDir(t)
	want := loadIn(t, dir, config.Source{Name: DefaultName, Data: DefaultPack()})
	var md config.Source
	for _, s := range starterSources(t) {
		if strings.HasSuffix(s.Name, ".md") {
			md = s
		}
	}
	got := loadIn(t, dir, md)
	if len(got.Tools) != len(want.Tools) {
		t.Fatalf("Markdown pack has %d tools, the embedded pack %d", len(got.Tools), len(want.Tools))
	}
	for i, w := range want.Tools {
		g := got.Tools[i]
		if g.Name != w.Name || g.Description != w.Description || !slices.Equal(g.Template, w.Template) ||
			g.Program != w.Program || g.ReadOnly != w.ReadOnly || g.Shell != w.Shell || g.Timeout != w.Timeout ||
			g.MaxOutput != w.MaxOutput || g.Cwd != w.Cwd || g.Stdin != w.Stdin {
			t.Errorf("tool %d differs:\n markdown %+v\n embedded %+v", i, g, w)
			continue
		}
		if len(g.Params) != len(w.Params) {
			t.Errorf("%s: %d params in Markdown, %d embedded", w.Name, len(g.Params), len(w.Params))
			continue
		}
		for j, wp := range w.Params {
			gp := g.Params[j]
			if gp.Name != wp.Name || gp.Type != wp.Type || gp.List != wp.List || gp.Description != wp.Description ||
				!reflect.DeepEqual(gp.Default, wp.Default) || gp.Pattern != wp.Pattern || gp.MaxLength != wp.MaxLength ||
				!reflect.DeepEqual(gp.Min, wp.Min) || !reflect.DeepEqual(gp.Max, wp.Max) || !slices.Equal(gp.Enum, wp.Enum) {
				t.Errorf("%s {%s} differs:\n markdown %+v\n embedded %+v", w.Name, wp.Name, gp, wp)
			}
		}
	}
}

// The starter policy reads as a policy file, and its example rule uses the
// paths matcher the README's worked example teaches.
func TestStarter_Policy(t *testing.T) {
	var data []byte
	for _, f := range Starter() {
		if f.Name == "policy.json" {
			data = f.Data
		}
	}
	rules, err := policy.ParseFile("policy.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) == 0 || !strings.Contains(rules[0].String(), `"paths":`) {
		t.Fatalf("starter rules %v, want a paths rule", rules)
	}
	p, err := policy.New(rules, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Decide(policy.Input{Tool: "read_file", ReadOnly: true, Paths: []string{"/home/me/.aws/credentials"}}); d.Action != policy.Deny {
		t.Errorf("credentials decided %+v, want deny", d)
	}
}
