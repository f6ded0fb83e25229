package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/human"
	"github.com/assent-sh/assent/policy"
)

// checkOptions are the flags of `assent check`.
type checkOptions struct {
	files  []string
	policy policySources
	json   bool
}

func newCheckCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "check [FILE...]",
		Short: "Validate tool files and print each tool's argv template and parameters",
		Long: `Load tool files (default: the files in $XDG_CONFIG_HOME/assent, else the
embedded default pack) and print each tool with its resolved program, argv
template, parameters and their JSON schema, what its calls may read and write
and whether they get the network, and warnings; then the policy: every rule
with the results of its examples, and the remembered rules. Exits 1 on any
error.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o := checkOptions{files: args}
			f := cmd.Flags()
			o.json, _ = f.GetBool("json")
			var err error
			if o.policy, err = policySourcesFrom(f); err != nil {
				return err
			}
			return o.run(cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.Bool("json", false, "print the result as JSON")
	addPolicyFlags(f)
	return cmd
}

func (o checkOptions) run(w io.Writer) error {
	loaded, err := o.policy.load(o.files)
	if err != nil {
		return err
	}
	cfg, pol := loaded.Config, loaded.Policy
	if o.json {
		return printCheckJSON(w, cfg, pol)
	}
	printCheck(w, cfg)
	printRules(w, pol)
	return nil
}

// printRules lists the policy's rules with their examples' results, and the
// remembered rules.
func printRules(w io.Writer, pol *policy.Policy) {
	rules := pol.Rules()
	fmt.Fprintf(w, "\n%s (deny beats ask beats allow; no match asks)\n", human.Count(len(rules), "rule"))
	results := map[string][]policy.ExampleResult{}
	for _, r := range pol.CheckExamples() {
		results[r.Rule] = append(results[r.Rule], r)
	}
	for _, r := range rules {
		fmt.Fprintf(w, "  %-5s %s  %s\n", r.Decision(), r.Label(), exec.Escape(r.String()))
		for _, ex := range results[r.Label()] {
			mark := "ok"
			if !ex.OK() {
				mark = "FAILS"
			}
			want := "matches"
			if !ex.Want {
				want = "does not match"
			}
			fmt.Fprintf(w, "        example %s %s: %s\n", exec.Escape(ex.Example), want, mark)
		}
	}
	remembered := pol.Remembered()
	fmt.Fprintf(w, "\n%s\n", human.Count(len(remembered), "remembered rule"))
	for _, r := range remembered {
		fmt.Fprintf(w, "  %-7s %s  %s\n", r.Kept(), r.Label(), exec.Escape(r.String()))
	}
}

func printCheck(w io.Writer, cfg *config.Config) {
	fmt.Fprintf(w, "%s from %s\n", human.Count(len(cfg.Tools), "tool"), strings.Join(cfg.Sources, ", "))
	fmt.Fprintln(w, sandboxSupport(cfg))
	for _, t := range cfg.Tools {
		var flags []string
		if t.ReadOnly {
			flags = append(flags, "read-only")
		}
		if t.Shell {
			flags = append(flags, "SHELL: never auto-approved")
		}
		fmt.Fprintf(w, "\n%s", t.Name)
		if len(flags) > 0 {
			fmt.Fprintf(w, "  [%s]", strings.Join(flags, ", "))
		}
		fmt.Fprintf(w, "\n  %s\n", exec.Escape(t.Description))
		if t.ShellReason != "" {
			fmt.Fprintf(w, "  shell:   %s\n", exec.Escape(t.ShellReason))
		}
		fmt.Fprintf(w, "  run:     %s\n", templateLine(t))
		fmt.Fprintf(w, "  timeout: %v · max output %s per stream (%s)\n", t.Timeout, human.Size(t.MaxOutput), t.OnOverflow)
		printSandbox(w, t)
		if t.Cwd != "" {
			fmt.Fprintf(w, "  cwd:     %s\n", t.Cwd)
		}
		for _, e := range t.Env {
			fmt.Fprintf(w, "  env:     %s=%s\n", e.Name, e.Value)
		}
		if t.Stdin != "" {
			fmt.Fprintf(w, "  stdin:   %s\n", exec.Escape(t.Stdin))
		}
		for _, p := range t.Params {
			fmt.Fprintf(w, "  {%s}  %s\n", p.Name, p.Summary())
		}
		fmt.Fprintf(w, "  schema:  %s\n", t.InputSchema())
	}
	if len(cfg.Warnings) > 0 {
		fmt.Fprintf(w, "\nwarnings:\n")
		for _, wn := range cfg.Warnings {
			fmt.Fprintf(w, "  %s\n", wn)
		}
	}
}

// sandboxSupport is probeSupport's answer as one line.
func sandboxSupport(cfg *config.Config) string {
	sup, err := probeSupport(cfg)
	if err != nil {
		return err.Error()
	}
	return sup.String()
}

// probeSupport says how calls would be confined on this machine under the
// settings' sandbox mode.
func probeSupport(cfg *config.Config) (exec.Support, error) {
	mode, err := exec.ParseSandboxMode(string(cfg.Settings.SandboxOrDefault()))
	if err != nil {
		return exec.Support{}, err
	}
	r := exec.NewLocal(exec.Options{Sandbox: mode})
	defer r.Close()
	return r.Probe(), nil
}

// templateLine is the tool's argv template as one line: the resolved
// program, then each word, quoted when it holds a space, a quote, a
// backslash or an invisible character, or is empty, so that every word
// reads as one word. Placeholders and globs, which are literal template
// text, stay bare.
func templateLine(t *config.Tool) string {
	words := make([]string, len(t.Template))
	for i, w := range t.Template {
		words[i] = w
		if w == "" || strings.ContainsAny(w, " \t\n'\"\\") || strings.HasPrefix(exec.Quote(w), "$'") {
			words[i] = exec.Quote(w)
		}
	}
	if t.Program != "" && len(words) > 0 {
		words[0] = t.Program
	}
	return strings.Join(words, " ")
}

// printSandbox says what the tool's calls may touch.
func printSandbox(w io.Writer, t *config.Tool) {
	sb, confined := t.Sandbox()
	if !confined {
		why := "settings.sandbox: off"
		if t.Unconfined {
			why = "sandbox: false"
		}
		fmt.Fprintf(w, "  sandbox: none (%s): its calls run unconfined\n", why)
		return
	}
	list := func(paths []string) string {
		if len(paths) == 0 {
			return "nothing"
		}
		q := make([]string, len(paths))
		for i, p := range paths {
			q[i] = exec.Quote(p)
		}
		return strings.Join(q, " ")
	}
	network := "no network"
	if sb.Network {
		network = "network"
	}
	fmt.Fprintf(w, "  reads:   the system, %s\n  writes:  %s\n  net:     %s\n", list(sb.Read), list(sb.Write), network)
}
