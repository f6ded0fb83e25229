package main

import (
	"encoding/json"
	"io"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/policy"
)

// checkTool is one tool in `check --json` output.
type checkTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Program     string          `json:"program"`
	Template    []string        `json:"template"`
	ReadOnly    bool            `json:"read_only"`
	Shell       bool            `json:"shell"`
	ShellReason string          `json:"shell_reason,omitempty"`
	Sandbox     *exec.Sandbox   `json:"sandbox"`
	TimeoutMs   int64           `json:"timeout_ms"`
	MaxOutput   int64           `json:"max_output"`
	Params      []checkParam    `json:"params"`
	Schema      json.RawMessage `json:"input_schema"`
	Where       string          `json:"where"`
}

type checkParam struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
}

func printCheckJSON(w io.Writer, cfg *config.Config, pol *policy.Policy) error {
	sup, err := probeSupport(cfg)
	if err != nil {
		return err
	}
	out := struct {
		Sources        []string               `json:"sources"`
		SandboxSupport exec.Support           `json:"sandbox_support"`
		Tools          []checkTool            `json:"tools"`
		Warnings       []string               `json:"warnings"`
		Rules          []policy.Rule          `json:"rules"`
		Examples       []policy.ExampleResult `json:"examples"`
		Remembered     []policy.Rule          `json:"remembered"`
	}{Sources: cfg.Sources, SandboxSupport: sup, Tools: []checkTool{}, Warnings: []string{}, Rules: pol.Rules(),
		Examples: pol.CheckExamples(), Remembered: pol.Remembered()}
	for _, t := range cfg.Tools {
		ct := checkTool{Name: t.Name, Description: t.Description, Program: t.Program, Template: t.Template,
			ReadOnly: t.ReadOnly, Shell: t.Shell, TimeoutMs: t.Timeout.Milliseconds(), MaxOutput: t.MaxOutput,
			Params: []checkParam{}, Schema: t.InputSchema(), Where: t.Where, ShellReason: t.ShellReason}
		if sb, ok := t.Sandbox(); ok {
			ct.Sandbox = &sb
		}
		for _, p := range t.Params {
			ct.Params = append(ct.Params, checkParam{p.Name, p.Summary()})
		}
		out.Tools = append(out.Tools, ct)
	}
	for _, wn := range cfg.Warnings {
		out.Warnings = append(out.Warnings, wn.String())
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
