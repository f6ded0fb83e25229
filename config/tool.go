package config

import (
	"time"

	"github.com/assent-sh/assent/exec"
)

// Tool is one tool an agent may call: a program and an argv template whose
// placeholders the call's arguments fill. In a tool file:
//
//	{"name": "grep_search", "description": "Search files for a {pattern}",
//	 "command": "grep -rn -- {pattern} {path}",
//	 "params": {"path": {"type": "path", "default": "."}},
//	 "read_only": true}
type Tool struct {
	// Name is what the agent calls ("name"): letters, digits, '_', '-', '.'.
	Name string
	// Description tells the agent what the tool does ("description").
	Description string
	// Template is the command as argv template words, in template syntax
	// ("command": a string split once by a shell parser, or an array of
	// words taken as written).
	Template []string
	// Program is the absolute path of argv[0], resolved at load.
	Program string
	// Params are the tool's parameters, in the order they first appear.
	Params []*Param
	// ReadOnly declares that the tool changes nothing ("read_only"); the
	// default policy approves read-only tools without asking.
	ReadOnly bool
	// Shell declares that the tool runs a shell or another program-runner
	// ("shell"). It is required for such programs, flagged in the console
	// and never approved by a rule.
	Shell bool
	// ShellReason says why the tool is shell-class, for check and the
	// console ("python3 runs other programs or shell code (it is an
	// interpreter: …)"); "" when Shell is false.
	ShellReason string
	// Timeout bounds each call ("timeout"; "30s" or milliseconds; default
	// settings.timeout, at least 100 ms and at most settings.max_timeout).
	Timeout time.Duration
	// Cwd is the working directory template ("cwd"; default the directory
	// assent runs in). A placeholder here is a path parameter by default.
	Cwd string
	// Env lists variables added to the child's minimal environment
	// ("env": {"NAME": "value or {placeholder}"}), sorted by name.
	Env []EnvVar
	// Stdin is the template of the text written to the child's standard
	// input ("stdin", e.g. "{content}"); empty means /dev/null.
	Stdin string
	// MaxOutput caps each of stdout and stderr ("max_output"; bytes or
	// "64KiB"; default settings.max_output).
	MaxOutput int64
	// OnOverflow says what happens when output passes the cap
	// ("on_overflow": "drain" keeps the program running and discards the
	// rest, "kill" ends it; default drain).
	OnOverflow exec.Overflow
	// Network lets the tool's calls open network sockets ("network";
	// default false).
	Network bool
	// Unconfined is set when the tool says "sandbox": false: its calls run
	// with no sandbox, and check warns about it. "sandbox" may instead be
	// {"read": [...], "write": [...]}, paths the calls may also read or
	// write (relative ones from the directory assent runs in).
	Unconfined bool
	// Where is the file and position that declared the tool.
	Where string
	// SecondPrograms lists programs the template runs through find's
	// -exec and similar actions, resolved like Program.
	SecondPrograms []string
	// ProgramID is the identity of Program's file, taken once at load (see
	// pinProgram) and carried by every command, so exec can refuse a
	// program swapped since. The zero value skips the check.
	ProgramID exec.Identity

	argv      []word
	cwd       word
	env       []envWord
	stdin     word
	params    map[string]*Param
	workDir   string
	findPaths map[int]bool // argv indices that are find(1) path operands
	system    *systemTool  // set for the built-in system_command

	sandboxRead, sandboxWrite []string       // the tool's sandbox field, resolved
	sandbox                   exec.Sandbox   // computed at load; see Sandbox
	writes                    []WritableRoot // where calls may write, and how; the source of sandbox.Write
	memo                      *memo          // the Load's, while the tool compiles
	confined                  bool           // calls carry the sandbox
}

// EnvVar is one environment variable a tool declares.
type EnvVar struct {
	Name  string
	Value string // template
}

type envWord struct {
	name  string
	value word
}

// Param returns the named parameter, or nil.
func (t *Tool) Param(name string) *Param { return t.params[name] }
