package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// files are the tool and policy files one load reads.
type files struct {
	tools  []string
	policy string
	// dirs are directories in which a new tool or policy file counts as a
	// change (the config directory and its tools.d), for the watcher.
	dirs []string
	// defaulted says the operator named no tool file for this run: the
	// tools are the config directory's or the embedded pack.
	defaulted bool
}

// The files of a config directory.
const (
	configTools  = "tools.json"
	configToolsD = "tools.d"
	configPolicy = "policy.json"
)

// files finds what this load reads: the tool files given, or those of the
// config directory, which are looked for again at every load so a file
// added there is picked up by the next reload.
func (l *Loader) files() (files, error) {
	f := files{tools: l.opts.Tools, policy: l.opts.PolicyFile}
	dir := l.opts.ConfigDir
	if len(f.tools) > 0 || len(l.opts.Sources) > 0 || dir == "" {
		return f, nil
	}
	f.dirs, f.defaulted = []string{dir, filepath.Join(dir, configToolsD)}, true
	if exists(filepath.Join(dir, configTools)) {
		f.tools = append(f.tools, filepath.Join(dir, configTools))
	}
	entries, err := os.ReadDir(filepath.Join(dir, configToolsD))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return files{}, fmt.Errorf("config directory: %w", err)
	}
	var extra []string
	for _, e := range entries {
		if !e.IsDir() && isToolFileName(e.Name()) {
			extra = append(extra, filepath.Join(dir, configToolsD, e.Name()))
		}
	}
	slices.Sort(extra)
	f.tools = append(f.tools, extra...)
	if f.policy == "" && exists(filepath.Join(dir, configPolicy)) {
		f.policy = filepath.Join(dir, configPolicy)
	}
	return f, nil
}

// isToolFileName reports whether a file in tools.d is a tool file: JSON or
// Markdown, not hidden (an editor's temporary file).
func isToolFileName(name string) bool {
	return !strings.HasPrefix(name, ".") && (strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".md"))
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Files are the tool and policy files the next load reads, absolute, for
// the watcher and for messages; the embedded pack is not a file.
func (l *Loader) Files() []string {
	f, err := l.files()
	if err != nil {
		return nil
	}
	return f.paths()
}

// paths are the tool and policy files, absolute.
func (f files) paths() []string {
	all := slices.Clone(f.tools)
	if f.policy != "" {
		all = append(all, f.policy)
	}
	for i, p := range all {
		if abs, err := filepath.Abs(p); err == nil {
			all[i] = abs
		}
	}
	return all
}
