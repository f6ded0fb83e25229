// Package config reads tool files and compiles each tool's command into an
// argv template that a call's arguments can fill but never reshape. It owns
// parameter types and validation and Tool.Expand, which turns a call into
// the exact exec.Command that would run.
//
// Three syntaxes are read: the seed's JSON array of {name, description,
// command}; the object form {"tools": [...], "rules": [...], "settings":
// {...}}; and Markdown, where each "## name" section is a tool.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Source is the name and contents of one tool file.
type Source struct {
	// Name is how errors refer to the file (its path, usually).
	Name string
	// Data is the file's contents.
	Data []byte
}

// ReadSources reads tool files from disk.
func ReadSources(paths ...string) ([]Source, error) {
	srcs := make([]Source, 0, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("reading tool file: %w", err)
		}
		srcs = append(srcs, Source{Name: p, Data: data})
	}
	return srcs, nil
}

// Options are the facts about the machine a config is compiled against.
type Options struct {
	// WorkDir is the absolute directory relative paths in tool files start
	// from: path roots ("under"), working directories ("cwd") and relative
	// path values. It is the directory assent was started in.
	WorkDir string
	// PATH is the search path for bare program names; only its absolute
	// entries are used.
	PATH string

	memo *memo // set by Load for its own length
}

// Config is every tool, rule and setting of the loaded files, compiled.
// It is not changed after Load returns and is safe to share.
type Config struct {
	// Tools in the order the files declare them.
	Tools []*Tool
	// Rules are the "rules" arrays of the files, as written, for the policy
	// package to parse.
	Rules []RuleSet
	// Settings merged from all files.
	Settings Settings
	// Warnings about tools that load but deserve a look.
	Warnings []Warning
	// Sources names the files loaded.
	Sources []string

	byName   map[string]*Tool
	pathList string // Options.PATH, to follow "#!/usr/bin/env name" as a load did
}

// RuleSet is one file's "rules" array, left for the policy package.
type RuleSet struct {
	// Source names the file.
	Source string
	// JSON is the array as written in the file.
	JSON []byte
}

// Warning is a remark about a tool that loaded.
type Warning struct {
	// Where is the file and position of the tool.
	Where string
	// Tool is the tool's name.
	Tool string
	// Msg says what deserves a look.
	Msg string
}

func (w Warning) String() string { return fmt.Sprintf("%s: tool %q: %s", w.Where, w.Tool, w.Msg) }

// Tool returns the tool with the given name, or nil.
func (c *Config) Tool(name string) *Tool { return c.byName[name] }

// maxErrors bounds how many errors one load reports, so a file of garbage
// does not bury the first, most useful message.
const maxErrors = 20

// fileDoc is one parsed tool file before compilation.
type fileDoc struct {
	src      *source
	tools    []*node
	rules    *node
	settings *node
}

// Load parses and compiles tool files. Every error found is reported, each
// naming the file, line and column; nothing is half-loaded.
func Load(opts Options, srcs ...Source) (*Config, error) {
	opts.memo = newMemo()
	if !filepath.IsAbs(opts.WorkDir) {
		return nil, fmt.Errorf("config: working directory %q is not absolute", opts.WorkDir)
	}
	var errs []error
	var docs []*fileDoc
	for _, s := range srcs {
		d, err := parseSource(&source{name: s.Name, data: s.Data})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		docs = append(docs, d)
	}
	c := &Config{byName: map[string]*Tool{}, pathList: opts.PATH}
	seen := map[string]string{}
	for _, d := range docs {
		c.Sources = append(c.Sources, d.src.name)
		if d.settings != nil {
			if err := settingsFrom(d.settings, &c.Settings, seen); err != nil {
				errs = append(errs, err)
			}
		}
		if d.rules != nil {
			if d.rules.kind != kindArray {
				errs = append(errs, fieldError(d.rules, "rules", "want an array of rules, got %s", d.rules.kind))
			} else {
				c.Rules = append(c.Rules, RuleSet{Source: d.src.name, JSON: d.rules.raw()})
			}
		}
	}
	if c.Settings.Timeout > 0 && (c.Settings.Timeout < MinTimeout || c.Settings.Timeout > c.Settings.MaxTimeoutOrDefault()) {
		errs = append(errs, fmt.Errorf("settings.timeout %v is outside [%v, %v]", c.Settings.Timeout, MinTimeout, c.Settings.MaxTimeoutOrDefault()))
	}
	where := map[string]string{}
	for _, d := range docs {
		for _, tn := range d.tools {
			t, warns, err := compileTool(tn, opts, c.Settings)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if first, dup := where[t.Name]; dup {
				errs = append(errs, fmt.Errorf("%s: tool %q is already defined at %s", t.Where, t.Name, first))
				continue
			}
			where[t.Name] = t.Where
			c.Tools = append(c.Tools, t)
			c.byName[t.Name] = t
			c.Warnings = append(c.Warnings, warns...)
		}
	}
	if sc := c.Settings.SystemCommand; sc != nil {
		t, warns, err := newSystemCommand(sc, opts, c.Settings)
		switch {
		case err != nil:
			errs = append(errs, err)
		case c.byName[t.Name] != nil:
			errs = append(errs, fmt.Errorf("tool %q is defined at %s and also enabled by settings.system_command", t.Name, where[t.Name]))
		default:
			c.Tools = append(c.Tools, t)
			c.byName[t.Name] = t
			c.Warnings = append(c.Warnings, warns...)
		}
	}
	if len(errs) > maxErrors {
		errs = append(errs[:maxErrors], fmt.Errorf("and %d more errors", len(errs)-maxErrors))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return c, nil
}

// parseSource recognises the file's syntax and splits it into tools, rules
// and settings nodes. A .md file is Markdown; anything else is JSON.
func parseSource(src *source) (*fileDoc, error) {
	ext := strings.ToLower(filepath.Ext(src.name))
	if ext == ".md" || ext == ".markdown" {
		return parseMarkdown(src)
	}
	root, err := parseJSON(src)
	if err != nil {
		if t := strings.TrimSpace(string(src.data)); strings.HasPrefix(t, "#") {
			err = fmt.Errorf("%w (a Markdown tool file needs a .md name)", err)
		}
		return nil, err
	}
	d := &fileDoc{src: src}
	switch root.kind {
	case kindArray:
		d.tools = root.items
	case kindObject:
		if err := checkKeys(root, "the tool file", "tools", "rules", "settings"); err != nil {
			return nil, err
		}
		if t := root.get("tools"); t != nil {
			if t.kind != kindArray {
				return nil, fieldError(t, "tools", "want an array of tools, got %s", t.kind)
			}
			d.tools = t.items
		}
		d.rules, d.settings = root.get("rules"), root.get("settings")
	default:
		return nil, fieldError(root, "", "a tool file is a JSON array of tools or an object with \"tools\", \"rules\" and \"settings\"; got %s", root.kind)
	}
	return d, nil
}
