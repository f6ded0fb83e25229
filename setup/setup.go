// Package setup is what assent is set up with: it reads the tool files (or
// the embedded default pack), the policy file and the remembered rules,
// builds the config and the policy from them, and refuses a set-up under
// which a tool could rewrite assent's own files. Every front end (the
// console, headless serve and stdio, check, explain, replay), the file
// watcher and the benchmarks load through it, so a reload is held to the
// same checks as a start.
//
// The remembered approvals live in one policy.Memory per Loader, shared by
// every policy it loads: a reload builds a new policy over the same memory
// and never copies rules from the old one.
package setup

import (
	"errors"
	"fmt"
	"os"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/examples"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/state"
)

// Options say what to load and which of assent's own files to protect.
type Options struct {
	// Tools are the tool files, in order; none means Sources.
	Tools []string
	// Sources are tool files given as bytes, used when Tools is empty.
	// They are not files assent can protect or watch (tests and
	// benchmarks use them).
	Sources []config.Source
	// ConfigDir is where tool and policy files are found when neither
	// Tools nor Sources are given: tools.json, then tools.d/*.json and
	// tools.d/*.md in name order, and policy.json. "" means this user's
	// ($XDG_CONFIG_HOME/assent). When it holds no tool file, the embedded
	// default pack is loaded.
	ConfigDir string
	// PolicyFile holds more rules (--policy); "" means the config
	// directory's policy.json when the tools come from there, else none.
	PolicyFile string
	// Remembered is the remembered-rules file; "" means remembered.json in
	// the state directory.
	Remembered string
	// Protected are assent's other files no tool may write (the journal,
	// its key, the token, the runtime file); the tool, policy and
	// remembered-rules files are protected without being listed.
	Protected []config.ProtectedFile
	// WorkDir is the directory relative paths in tool files start from;
	// "" means the process's working directory.
	WorkDir string
	// PATH finds bare program names; "" means the process's $PATH.
	PATH string
	// StateDirs are assent's own directories (state, config, runtime)
	// that the built-in rules deny every tool; nil means this user's
	// state, config and runtime directories.
	StateDirs []string
}

// Loaded is one consistent set-up: the tools and the policy built with
// them.
type Loaded struct {
	Config *config.Config
	Policy *policy.Policy
}

// Loader loads the set-up its options describe, as often as asked, with
// one memory of remembered approvals for all the policies it builds.
type Loader struct {
	opts Options
	mem  *policy.Memory
}

// NewLoader reads the remembered rules and returns a loader. Nothing else
// is read until Load.
func NewLoader(o Options) (*Loader, error) {
	if o.WorkDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("working directory: %w", err)
		}
		o.WorkDir = wd
	}
	if o.PATH == "" {
		o.PATH = os.Getenv("PATH")
	}
	if o.Remembered == "" {
		var err error
		if o.Remembered, err = DefaultRememberedFile(); err != nil {
			return nil, err
		}
	}
	if o.ConfigDir == "" && len(o.Tools) == 0 && len(o.Sources) == 0 {
		dir, err := state.ConfigDir()
		if err != nil {
			return nil, err
		}
		o.ConfigDir = dir
	}
	if o.StateDirs == nil {
		for _, dir := range []func() (string, error){state.Dir, state.ConfigDir} {
			d, err := dir()
			if err != nil {
				return nil, err
			}
			o.StateDirs = append(o.StateDirs, d)
		}
		// The runtime directory (made when missing, as a console start
		// makes it) holds the console's socket and runtime file. One that
		// fails its checks holds neither, since no console uses it, and
		// loading to check or explain need not fail for it.
		if d, err := state.RuntimeDir(); err == nil {
			o.StateDirs = append(o.StateDirs, d)
		}
	}
	mem, err := policy.NewMemory(RememberedFile(o.Remembered))
	if err != nil {
		return nil, err
	}
	return &Loader{opts: o, mem: mem}, nil
}

// Options returns the options the loader runs with, defaults filled in.
func (l *Loader) Options() Options { return l.opts }

// Memory returns the memory every policy the loader builds shares.
func (l *Loader) Memory() *policy.Memory { return l.mem }

// Load reads the tool files and the policy, builds both, and checks that no
// tool can write assent's own files. Every problem is an error naming its
// file; nothing is half loaded.
func (l *Loader) Load() (Loaded, error) { return l.load(true) }

// LoadToDecide is Load without the checks that guard running (the
// protected files, and where the default tools may start), for what runs
// nothing (`assent explain`, `assent replay --dry-run`): it answers what a
// call would be expanded to and how it would be decided even for a set-up
// that Load refuses, which `assent check` and a start report.
func (l *Loader) LoadToDecide() (Loaded, error) { return l.load(false) }

// load is Load, with the checks that guard running when toRun.
func (l *Loader) load(toRun bool) (Loaded, error) {
	f, err := l.files()
	if err != nil {
		return Loaded{}, err
	}
	cfg, err := l.loadConfig(f)
	if err != nil {
		return Loaded{}, err
	}
	if toRun {
		if f.defaulted {
			if err := checkWorkDir(l.opts.WorkDir); err != nil {
				return Loaded{}, err
			}
		}
		if err := cfg.CheckProtected(l.protected(f)...); err != nil {
			return Loaded{}, err
		}
	}
	pol, err := l.policy(cfg, f)
	if err != nil {
		return Loaded{}, err
	}
	return Loaded{Config: cfg, Policy: pol}, nil
}

// loadConfig reads and compiles the tool files: f's, else the sources
// given, else the embedded pack.
func (l *Loader) loadConfig(f files) (*config.Config, error) {
	srcs := l.opts.Sources
	switch {
	case len(f.tools) > 0:
		var err error
		if srcs, err = config.ReadSources(f.tools...); err != nil {
			return nil, err
		}
	case len(srcs) == 0:
		srcs = []config.Source{{Name: examples.DefaultName, Data: examples.DefaultPack()}}
	}
	return config.Load(config.Options{WorkDir: l.opts.WorkDir, PATH: l.opts.PATH}, srcs...)
}

// policy builds the policy from the tool files' rules, the policy file's
// and, unless the settings turn them off, the built-in rules, over the
// loader's memory. Every rule error is reported.
func (l *Loader) policy(cfg *config.Config, f files) (*policy.Policy, error) {
	var rules []policy.Rule
	var errs []error
	for _, rs := range cfg.Rules {
		r, err := policy.ParseRules(rs.Source, rs.JSON)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rules = append(rules, r...)
	}
	if pf := f.policy; pf != "" {
		data, err := os.ReadFile(pf)
		if err != nil {
			errs = append(errs, fmt.Errorf("policy file: %w", err))
		} else if r, err := policy.ParseFile(pf, data); err != nil {
			errs = append(errs, err)
		} else {
			rules = append(rules, r...)
		}
	}
	if cfg.Settings.DefaultPolicyOn() {
		builtin, err := policy.DefaultRules(l.opts.StateDirs)
		if err != nil {
			errs = append(errs, err)
		}
		rules = append(rules, builtin...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return policy.New(rules, l.mem)
}

// protected lists every file of assent's that no tool may write.
func (l *Loader) protected(f files) []config.ProtectedFile {
	var out []config.ProtectedFile
	for _, t := range f.tools {
		out = append(out, config.ProtectedFile{What: "tool file", Path: t})
	}
	if f.policy != "" {
		out = append(out, config.ProtectedFile{What: "policy file", Path: f.policy})
	}
	out = append(out, config.ProtectedFile{What: "remembered-rules file", Path: l.opts.Remembered})
	return append(out, l.opts.Protected...)
}
