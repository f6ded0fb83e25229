package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
)

// Exit statuses of `assent explain`, so scripts can test a call's fate.
const (
	explainAllow   = 0
	explainAsk     = 2
	explainDeny    = 3
	explainRefused = 4
)

// explainOptions is one `assent explain` invocation.
type explainOptions struct {
	tools    []string
	policy   policySources
	tool     string
	args     []string // key=value
	client   string
	headless bool
	json     bool
}

func newExplainCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "explain TOOL [key=value...]",
		Short: "Show the argv a call would run and the policy's decision, without running it",
		Long: `Expand a call exactly as an agent's call would be expanded, print the argv as the
console shows it (one element per line, quoted, invisible characters escaped) and the
decision with the rule that made it. Nothing runs.

Arguments are key=value; a value is read as the parameter's type (integer, number,
boolean), and repeating a key passes a list.

Exit status: 0 allow, 2 ask, 3 deny, 4 refused by the tool's argument checks
(the message is the one an agent would get), 1 on any other error.`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeToolNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			o := explainOptions{tool: args[0], args: args[1:]}
			o.tools, _ = f.GetStringArray("tools")
			var err error
			if o.policy, err = policySourcesFrom(f); err != nil {
				return err
			}
			o.client, _ = f.GetString("client")
			o.headless, _ = f.GetBool("headless")
			o.json, _ = f.GetBool("json")
			return o.run(cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringArray("tools", nil, "tool file (repeatable; default the files in $XDG_CONFIG_HOME/assent, else the embedded pack)")
	addPolicyFlags(f)
	f.String("client", "", "client name the call comes from")
	f.Bool("headless", false, "decide as headless mode does: ask becomes deny")
	f.Bool("json", false, "print the result as JSON")
	return cmd
}

// explanation is what explain found, for text or JSON output.
type explanation struct {
	Tool     string              `json:"tool"`
	Program  string              `json:"program,omitempty"`
	Argv     []string            `json:"argv,omitempty"`
	Cwd      string              `json:"cwd,omitempty"`
	Env      []string            `json:"env,omitempty"`
	Stdin    string              `json:"stdin,omitempty"`
	Timeout  string              `json:"timeout,omitempty"`
	Values   map[string][]string `json:"values,omitempty"`
	Action   string              `json:"decision"`
	Rule     string              `json:"rule,omitempty"`
	Reason   string              `json:"reason"`
	Refusal  string              `json:"refusal,omitempty"`
	ReadOnly bool                `json:"read_only"`
	Shell    bool                `json:"shell"`
}

func (o explainOptions) run(w io.Writer) error {
	loaded, err := o.policy.loadToDecide(o.tools)
	if err != nil {
		return err
	}
	cfg := loaded.Config
	tool := cfg.Tool(o.tool)
	if tool == nil {
		return fmt.Errorf("no tool %q in %s", o.tool, strings.Join(cfg.Sources, ", "))
	}
	args, err := tool.ArgsFromStrings(o.args)
	if err != nil {
		return err
	}
	ex := explanation{Tool: tool.Name, ReadOnly: tool.ReadOnly, Shell: tool.Shell}
	code := explainAllow
	p, perr := queue.NewPreview(loaded.Policy, o.headless, queue.Request{Tool: tool, Args: args, Client: o.client})
	if perr != nil {
		ex.Action, ex.Refusal, ex.Reason, code = "refused", perr.Error(), perr.Error(), explainRefused
	} else {
		c := p.Call.Command
		ex.Program, ex.Argv, ex.Cwd, ex.Env, ex.Stdin, ex.Values = c.Path, c.Argv, c.Dir, c.Env, c.Stdin, p.Call.Values
		ex.Timeout = c.Timeout.String()
		d := p.Call.Decision
		ex.Action, ex.Rule, ex.Reason = string(d.Action), d.Rule, d.Reason
		code = map[policy.Action]int{policy.Allow: explainAllow, policy.Ask: explainAsk, policy.Deny: explainDeny}[d.Action]
	}
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(ex); err != nil {
			return err
		}
	} else {
		printExplanation(w, ex)
	}
	if code != explainAllow {
		return &exitError{code: code, err: errors.New(ex.Action + ": " + ex.Reason), quiet: true}
	}
	return nil
}

func printExplanation(w io.Writer, ex explanation) {
	if ex.Refusal != "" {
		fmt.Fprintf(w, "refused: %s\n", exec.Escape(ex.Refusal))
		return
	}
	fmt.Fprintf(w, "%s\n", ex.Program)
	for _, a := range ex.Argv[1:] {
		fmt.Fprintf(w, "  %s\n", exec.Quote(a))
	}
	fmt.Fprintf(w, "cwd %s · timeout %s", exec.Escape(ex.Cwd), ex.Timeout)
	for _, kv := range ex.Env {
		fmt.Fprintf(w, " · env %s", exec.Quote(kv))
	}
	fmt.Fprintln(w)
	if ex.Stdin != "" {
		fmt.Fprintf(w, "stdin %s\n", exec.Quote(ex.Stdin))
	}
	if ex.Shell {
		fmt.Fprintln(w, "shell tool: runs a shell or program-runner, never approved by a rule")
	}
	rule := ""
	if ex.Rule != "" {
		rule = " by rule " + ex.Rule
	}
	fmt.Fprintf(w, "decision: %s%s: %s\n", ex.Action, rule, exec.Escape(ex.Reason))
}
