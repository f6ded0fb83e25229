package examples

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/policy"
)

// loadPack compiles the embedded default pack against a fresh directory.
func loadPack(t *testing.T) *config.Config {
	t.Helper()
	return loadIn(t, workDir(t), config.Source{Name: DefaultName, Data: DefaultPack()})
}

// workDir is a fresh directory to run in, with symlinks resolved.
func workDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// loadIn compiles tool files as assent started in dir would.
func loadIn(t *testing.T, dir string, srcs ...config.Source) *config.Config {
	t.Helper()
	c, err := config.Load(config.Options{WorkDir: dir, PATH: "/usr/local/bin:/usr/bin:/bin"}, srcs...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The pack loads without a warning (every start would print it, and the
// user of the embedded pack can do nothing about it), holds no rules of its
// own (its policy is the built-in rules) and only read-only, non-shell tools.
func TestPack_LoadsCleanly(t *testing.T) {
	c := loadPack(t)
	for _, w := range c.Warnings {
		t.Errorf("warning: %s", w)
	}
	if len(c.Rules) != 0 {
		t.Errorf("the pack has rules %q; the built-in rules are its policy", c.Rules)
	}
	if len(c.Tools) != 9 {
		t.Errorf("the pack has %d tools, want 9", len(c.Tools))
	}
	for _, tl := range c.Tools {
		if !tl.ReadOnly || tl.Shell {
			t.Errorf("%s: read_only=%v shell=%v, want a read-only non-shell tool", tl.Name, tl.ReadOnly, tl.Shell)
		}
	}
}

// maxPackTimeout is the longest any default tool may run. The tools that
// read files or walk a tree may need a few seconds on a large project; what
// an agent sends cannot make them slower than the files are.
const maxPackTimeout = 10 * time.Second

// Every input of every default tool is bounded: a string by a length and a
// pattern (or an enum), a number by a range, and every tool by a timeout.
func TestPack_EveryInputIsBounded(t *testing.T) {
	for _, tl := range loadPack(t).Tools {
		if tl.Timeout <= 0 || tl.Timeout > maxPackTimeout {
			t.Errorf("%s: timeout %v, want one of at most %v", tl.Name, tl.Timeout, maxPackTimeout)
		}
		for _, p := range tl.Params {
			switch p.Type {
			case config.String:
				if p.MaxLength <= 0 || p.MaxLength > 1000 {
					t.Errorf("%s {%s}: max_length %d, want 1..1000", tl.Name, p.Name, p.MaxLength)
				}
				if p.Pattern == "" && len(p.Enum) == 0 {
					t.Errorf("%s {%s}: a free string, want a pattern or an enum", tl.Name, p.Name)
				}
			case config.Integer, config.Number:
				if p.Min == nil || p.Max == nil {
					t.Errorf("%s {%s}: want both min and max", tl.Name, p.Name)
				}
			case config.Path:
				// Confined to the roots; its size is the file's, not the agent's.
			default:
				t.Errorf("%s {%s}: type %s has no bound this test knows", tl.Name, p.Name, p.Type)
			}
		}
	}
}

// The inputs that made a default tool run away are refused before anything
// runs: a date width of 2^31 (30 s at full CPU, 14 GiB of output), and the
// grep back-references and intervals that make its matcher exponential.
func TestPack_RefusesRunawayInputs(t *testing.T) {
	c := loadPack(t)
	tests := []struct {
		tool, param, value string
		ok                 bool
	}{
		{"get_datetime", "format", "%2147483647Y", false},
		{"get_datetime", "format", "%100Y", false},
		{"get_datetime", "format", "%_999d", false},
		{"get_datetime", "format", strings.Repeat("%Y", 51), false},
		{"get_datetime", "format", "%99Y", true},
		{"get_datetime", "format", "%Y-%m-%dT%H:%M:%S%z", true},
		{"get_datetime", "format", "%-d %^a %:::z %Ex %%", true},
		{"grep_search", "pattern", `^\(.*\)\(.*\)\1\2$`, false},
		{"grep_search", "pattern", `a\{1,32767\}\{1,32767\}`, false},
		{"grep_search", "pattern", `trailing\`, false},
		{"grep_search", "pattern", `func \(t \*Tool\) Expand`, true},
		{"grep_search", "pattern", `a\\1`, true},
		{"grep_search", "pattern", "TODO|FIXME", true},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.value, func(t *testing.T) {
			_, err := c.Tool(tt.tool).Expand(map[string]any{tt.param: tt.value})
			if tt.ok && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !tt.ok && (err == nil || !strings.Contains(err.Error(), `parameter "`+tt.param+`"`)) {
				t.Fatalf("err = %v, want a refusal naming {%s}", err, tt.param)
			}
		})
	}
}

// A recursive grep reads files the policy never sees one by one, so the
// command skips every file name the built-in secret-files rule denies.
func TestPack_GrepSkipsTheSecretFiles(t *testing.T) {
	tmpl := loadPack(t).Tool("grep_search").Template
	for _, g := range policy.SecretFileGlobs() {
		if !slices.Contains(tmpl, "--exclude="+g) {
			t.Errorf("grep_search %q does not skip %s", tmpl, g)
		}
	}
}
