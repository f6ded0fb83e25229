package main

import (
	"errors"

	"github.com/spf13/pflag"

	"github.com/assent-sh/assent/setup"
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

// loader returns a loader for the given tool files (none: the embedded
// pack) and these policy sources.
func (src policySources) loader(tools []string) (*setup.Loader, error) {
	return setup.NewLoader(setup.Options{Tools: tools, PolicyFile: src.file, Remembered: src.remembered})
}

// load loads the given tool files and these policy sources once, with
// every check a start makes.
func (src policySources) load(tools []string) (setup.Loaded, error) {
	l, err := src.loader(tools)
	if err != nil {
		return setup.Loaded{}, err
	}
	return l.Load()
}

// loadToDecide loads them to decide calls without running any (see
// setup.Loader.LoadToDecide).
func (src policySources) loadToDecide(tools []string) (setup.Loaded, error) {
	l, err := src.loader(tools)
	if err != nil {
		return setup.Loaded{}, err
	}
	return l.LoadToDecide()
}
