//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The attack: a read-only tool runs a program that lies where another tool
// may write; the agent replaces the program with a script, and the rule
// that approves read-only tools runs it.
func TestCheckProtected_ProgramUnderAWriteRoot(t *testing.T) {
	f := newProtectFixture(t)
	lint := writeFile(t, filepath.Join(f.wd, "bin", "lint"), "#!/bin/sh\necho ok\n", 0o755)
	tools := `[{"name": "lint", "command": "` + lint + ` -- {p}", "params": {"p": {"type": "path"}}, "read_only": true},
		{"name": "make", "command": "make", "shell": true}]`
	c := mustLoad(t, f.opts, "tools.json", tools)
	checkErr(t, c.CheckProtected(),
		"program "+lint+" of tool \"lint\" lies under "+f.wd+", where tool \"make\" (working directory) may write, so an agent could replace it")

	// The same program with only read-only tools around is nobody's to write.
	ro := mustLoad(t, f.opts, "tools.json", `[{"name": "lint", "command": "`+lint+` -- {p}", "params": {"p": {"type": "path"}}, "read_only": true}]`)
	checkErr(t, ro.CheckProtected(), "")
}

func TestCheckProtected_ProgramsAndTheirNames(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, f protectFixture) (program string)
		want  string // "" means accepted; "%wd" and "%safe" are replaced
	}{
		{name: "program in a safe place",
			setup: func(t *testing.T, f protectFixture) string {
				return writeFile(t, filepath.Join(f.safe, "bin", "tool"), "\x7fELF", 0o755)
			}},
		{name: "a second name in a write root",
			setup: func(t *testing.T, f protectFixture) string {
				p := writeFile(t, filepath.Join(f.safe, "bin", "tool"), "\x7fELF", 0o755)
				if err := os.Link(p, filepath.Join(f.wd, "out", "tool")); err != nil {
					t.Fatal(err)
				}
				return p
			},
			want: `program %safe/bin/tool of tool "t" has another name, %wd/out/tool, under %wd/out, where tool "write" (path parameter {p})`},
		{name: "a second name elsewhere, like a system program's",
			setup: func(t *testing.T, f protectFixture) string {
				p := writeFile(t, filepath.Join(f.safe, "bin", "tool"), "\x7fELF", 0o755)
				if err := os.Link(p, filepath.Join(f.safe, "tool-1.2")); err != nil {
					t.Fatal(err)
				}
				return p
			}},
		{name: "a symlink in a write root",
			setup: func(t *testing.T, f protectFixture) string {
				p := writeFile(t, filepath.Join(f.safe, "bin", "tool"), "\x7fELF", 0o755)
				link := filepath.Join(f.wd, "out", "tool")
				if err := os.Symlink(p, link); err != nil {
					t.Fatal(err)
				}
				return link
			},
			want: `program %wd/out/tool of tool "t" lies under %wd/out`},
		{name: "a script whose interpreter lies in a write root",
			setup: func(t *testing.T, f protectFixture) string {
				writeFile(t, filepath.Join(f.wd, "out", "interp"), "\x7fELF", 0o755)
				return writeFile(t, filepath.Join(f.safe, "bin", "tool"), "#! "+f.wd+"/out/interp -x\n", 0o755)
			},
			want: `program %wd/out/interp of tool "t" lies under %wd/out`},
		{name: "an interpreter's interpreter",
			setup: func(t *testing.T, f protectFixture) string {
				writeFile(t, filepath.Join(f.wd, "out", "interp"), "\x7fELF", 0o755)
				mid := writeFile(t, filepath.Join(f.safe, "bin", "mid"), "#!"+f.wd+"/out/interp\n", 0o755)
				return writeFile(t, filepath.Join(f.safe, "bin", "tool"), "#!"+mid+"\n", 0o755)
			},
			want: `program %wd/out/interp of tool "t" lies under %wd/out`},
		{name: "a script with a safe interpreter",
			setup: func(t *testing.T, f protectFixture) string {
				return writeFile(t, filepath.Join(f.safe, "bin", "tool"), "#!/bin/sh\necho hi\n", 0o755)
			}},
		{name: "a relative interpreter",
			setup: func(t *testing.T, f protectFixture) string {
				return writeFile(t, filepath.Join(f.safe, "bin", "tool"), "#!bin/python\n", 0o755)
			},
			want: `program %safe/bin/tool of tool "t": its #! line names the interpreter "bin/python" by a relative path`},
		{name: "a relative program through env",
			setup: func(t *testing.T, f protectFixture) string {
				return writeFile(t, filepath.Join(f.safe, "bin", "tool"), "#!/usr/bin/env -u HOME ./bin/python\n", 0o755)
			},
			want: `program %safe/bin/tool of tool "t": its #! line names the interpreter "./bin/python" by a relative path`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newProtectFixture(t)
			prog := tc.setup(t, f)
			c := mustLoad(t, f.opts, "tools.json", `[`+writeTool+`, {"name": "t", "command": ["`+prog+`"], "read_only": true}]`)
			want := tc.want
			for _, r := range [][2]string{{"%wd", f.wd}, {"%safe", f.safe}} {
				want = strings.ReplaceAll(want, r[0], r[1])
			}
			checkErr(t, c.CheckProtected(), want)
		})
	}
}

// The attack: a script of a read-only tool says "#!/usr/bin/env mypy", and
// the mypy env finds on PATH lies where another tool may write (a virtual
// environment in the project, say). The agent rewrites mypy through that
// tool; the rule that approves read-only tools then runs the agent's code.
func TestCheckProtected_ProgramEnvFindsOnPATH(t *testing.T) {
	tests := []struct {
		name string
		dir  func(f protectFixture) string // where mypy is installed
		want string                        // "" means accepted; "%dir" is replaced
	}{
		{name: "in a write root", dir: func(f protectFixture) string { return filepath.Join(f.wd, "out", ".venv", "bin") },
			want: `program %dir/mypy of tool "lint" lies under ` + "%wd/out" + `, where tool "write" (path parameter {p})`},
		{name: "in a safe place", dir: func(f protectFixture) string { return filepath.Join(f.safe, "venv") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newProtectFixture(t)
			dir := tc.dir(f)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, "mypy"), "\x7fELF", 0o755)
			lint := writeFile(t, filepath.Join(f.safe, "bin", "lint"), "#!/usr/bin/env -S mypy --strict\n", 0o755)
			f.opts.PATH = dir + ":/usr/bin:/bin"
			c := mustLoad(t, f.opts, "tools.json", `[`+writeTool+`, {"name": "lint", "command": ["`+lint+`"], "read_only": true}]`)
			want := strings.NewReplacer("%dir", dir, "%wd", f.wd).Replace(tc.want)
			checkErr(t, c.CheckProtected(), want)
		})
	}
}
