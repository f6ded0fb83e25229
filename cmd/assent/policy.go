package main

import (
	"errors"

	"github.com/spf13/pflag"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/policy"
)

// addPolicyFlags registers the flags that say where rules come from besides
// the tool files.
func addPolicyFlags(f *pflag.FlagSet) {
	f.String("policy", "", "policy file with more rules")
	f.String("remembered", "", "remembered-rules file (default $XDG_STATE_HOME/assent/remembered.json)")
}

// policySourcesFrom reads the flags addPolicyFlags registered.
func policySourcesFrom(f *pflag.FlagSet) (policySources, error) {
	var src policySources
	var errs [2]error
	src.file, errs[0] = f.GetString("policy")
	src.remembered, errs[1] = f.GetString("remembered")
	return src, errors.Join(errs[:]...)
}

// policySources says where a policy's rules come from besides the tool
// files: a separate --policy file and the remembered-rules file.
type policySources struct {
	file       string // --policy; empty: none
	remembered string // remembered-rules file; empty: the default
}

// loadPolicy builds the policy from the tool files' rules, the policy file
// and the remembered rules. Every rule error is reported.
func loadPolicy(cfg *config.Config, src policySources) (*policy.Policy, error) {
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
	if src.file != "" {
		r, err := policy.ReadFile(src.file)
		if err != nil {
			errs = append(errs, err)
		}
		rules = append(rules, r...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	remembered := src.remembered
	if remembered == "" {
		var err error
		if remembered, err = defaultRememberedPath(); err != nil {
			return nil, err
		}
	}
	return policy.New(rules, policy.WithRememberedFile(remembered))
}

// policyInput is an expanded call of tool t from client as policy sees it,
// the same input the queue decides on.
func policyInput(t *config.Tool, e config.Expansion, client string) policy.Input {
	return policy.Input{Tool: t.Name, ReadOnly: t.ReadOnly, Shell: t.Shell, Args: e.Values,
		Path: e.Command.Path, Argv: e.Command.Argv, Client: client}
}
