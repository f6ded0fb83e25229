package config

import (
	"fmt"
	"strings"
	"time"
)

// Defaults for settings a tool file leaves out.
const (
	// DefaultTimeout bounds a call whose tool sets no timeout.
	DefaultTimeout = 30 * time.Second
	// MinTimeout is the shortest timeout a tool or call may ask for.
	MinTimeout = 100 * time.Millisecond
	// DefaultMaxTimeout is the longest timeout allowed unless the settings
	// raise it with max_timeout.
	DefaultMaxTimeout = 5 * time.Minute
	// DefaultMaxOutput caps each of stdout and stderr, as the
	// system_command seed does.
	DefaultMaxOutput = 1 << 20
)

// Settings are the "settings" object of a tool file. When several files are
// loaded, each setting may be given by one file only; a second value for the
// same setting is an error naming both files.
type Settings struct {
	// Timeout is the default per-call timeout ("timeout"; "30s" or
	// milliseconds; default 30 s).
	Timeout time.Duration
	// MaxTimeout is the longest timeout a tool or a system_command call may
	// set ("max_timeout"; default 5 min).
	MaxTimeout time.Duration
	// MaxOutput is the default cap on each output stream in bytes
	// ("max_output"; default 1 MiB).
	MaxOutput int64
	// SystemCommand enables the built-in system_command tool
	// ("system_command"); nil leaves it off.
	SystemCommand *SystemCommand
	// DefaultPolicy turns assent's built-in rules on or off
	// ("default_policy"; default true): read-only, non-shell tools run
	// without asking, and common secret files and assent's own state are
	// never read through a path argument. With false only the files' rules
	// decide. nil means not set.
	DefaultPolicy *bool
	// Sandbox says whether calls are confined to what their tool declares
	// ("sandbox": "required", "best-effort" or "off"; default
	// best-effort). See Tool.Sandbox.
	Sandbox SandboxMode
}

// SystemCommand configures the built-in system_command tool: the second
// seed's whitelisted program runner with free arguments.
//
//	"system_command": {"allow": ["ls", "cat", "grep"], "under": ["."]}
type SystemCommand struct {
	// Allow lists the programs the tool may run, by bare name ("allow").
	// Each is resolved in PATH at load; one that is not installed is left
	// out with a warning rather than failing the whole file.
	Allow []string
	// Under lists the directories a call's cwd must lie in ("under";
	// default the directory assent runs in).
	Under []string
	// Network lets its calls open network sockets ("network"; default
	// false).
	Network bool
	// Env lists the environment variables a call may set ("env"; default
	// none: the child gets only the runner's minimal environment). Names
	// that change which code a program loads (LD_*, PATH, OPENSSL_CONF…)
	// cannot be listed.
	Env []string
}

// TimeoutOrDefault returns the default per-call timeout.
func (s Settings) TimeoutOrDefault() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}

// MaxTimeoutOrDefault returns the timeout ceiling.
func (s Settings) MaxTimeoutOrDefault() time.Duration {
	if s.MaxTimeout > 0 {
		return s.MaxTimeout
	}
	return DefaultMaxTimeout
}

// SandboxOrDefault returns the sandbox mode, best-effort when unset.
func (s Settings) SandboxOrDefault() SandboxMode {
	if s.Sandbox != "" {
		return s.Sandbox
	}
	return SandboxBestEffort
}

// MaxOutputOrDefault returns the default per-stream output cap.
func (s Settings) MaxOutputOrDefault() int64 {
	if s.MaxOutput > 0 {
		return s.MaxOutput
	}
	return DefaultMaxOutput
}

// DefaultPolicyOn reports whether the built-in rules apply.
func (s Settings) DefaultPolicyOn() bool { return s.DefaultPolicy == nil || *s.DefaultPolicy }

// settingsFrom reads a "settings" object. seen records which file set each
// key, so that a second file setting it again is reported with both names.
func settingsFrom(n *node, into *Settings, seen map[string]string) error {
	if n.kind != kindObject {
		return fieldError(n, "settings", "want an object, got %s", n.kind)
	}
	if err := checkKeys(n, "settings", "timeout", "max_timeout", "max_output", "system_command", "default_policy", "sandbox"); err != nil {
		return err
	}
	for _, m := range n.members {
		key, v := m.key, m.val
		if first, ok := seen[key]; ok {
			return fmt.Errorf("%s: settings.%s is already set by %s; set it in one file only", v.where(), key, first)
		}
		seen[key] = v.where()
		var err error
		field := "settings." + key
		switch key {
		case "timeout":
			into.Timeout, err = readDuration(v, field)
		case "max_timeout":
			into.MaxTimeout, err = readDuration(v, field)
		case "max_output":
			into.MaxOutput, err = readSize(v, field)
		case "system_command":
			into.SystemCommand, err = systemCommandFrom(v)
		case "default_policy":
			var on bool
			on, err = readBool(v, field)
			into.DefaultPolicy = &on
		case "sandbox":
			into.Sandbox, err = sandboxModeFrom(v)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func systemCommandFrom(n *node) (*SystemCommand, error) {
	const field = "settings.system_command"
	if n.kind != kindObject {
		return nil, fieldError(n, field, "want an object like {\"allow\": [\"ls\", \"cat\"]}, got %s", n.kind)
	}
	if err := checkKeys(n, field, "allow", "under", "env", "network"); err != nil {
		return nil, err
	}
	sc := &SystemCommand{}
	allow := n.get("allow")
	if allow == nil {
		return nil, fieldError(n, field, "allow is required: list the programs system_command may run")
	}
	var err error
	if sc.Allow, err = readStrings(allow, field+".allow"); err != nil {
		return nil, err
	}
	for i, name := range sc.Allow {
		if name == "" || strings.ContainsAny(name, "/\x00") || textProblem(name, false) != "" {
			return nil, fieldError(allow.items[i], fmt.Sprintf("%s.allow[%d]", field, i), "want a bare program name like \"ls\", got %q", name)
		}
	}
	if u := n.get("under"); u != nil {
		if sc.Under, err = readStrings(u, field+".under"); err != nil {
			return nil, err
		}
		if len(sc.Under) == 0 {
			return nil, fieldError(u, field+".under", "want at least one directory the calls may run in, like [\".\"]; leave under out for the working directory")
		}
	}
	if v := n.get("network"); v != nil {
		if sc.Network, err = readBool(v, field+".network"); err != nil {
			return nil, err
		}
	}
	if e := n.get("env"); e != nil {
		if sc.Env, err = readStrings(e, field+".env"); err != nil {
			return nil, err
		}
		for i, name := range sc.Env {
			at := fmt.Sprintf("%s.env[%d]", field, i)
			switch {
			case !isName(name):
				return nil, fieldError(e.items[i], at, "%q is not a variable name", name)
			case dangerousEnv(name):
				return nil, fieldError(e.items[i], at, "%s changes which code a program loads or what assent pins, so no call may set it", name)
			}
		}
	}
	return sc, nil
}

func sandboxModeFrom(n *node) (SandboxMode, error) {
	s, err := readString(n, "settings.sandbox")
	switch m := SandboxMode(s); {
	case err != nil:
		return "", err
	case m == SandboxRequired || m == SandboxBestEffort || m == SandboxOff:
		return m, nil
	}
	return "", fieldError(n, "settings.sandbox", `want "required", "best-effort" or "off", got %q`, s)
}
