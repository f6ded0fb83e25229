package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// env checks the call's environment additions against the operator's
// allow-list, settings.system_command.env. Everything else is refused,
// naming the variable: no deny-list can keep up with what reads the
// environment (OPENSSL_CONF loads a provider's code through curl,
// XDG_CONFIG_HOME a .curlrc, NLSPATH and RES_OPTIONS change the C library,
// proxies and CA bundles redirect traffic).
func (st *systemTool) env(t *Tool, v any) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, clauseError(t.Name, "env", "type", "want an object of NAME: value strings, got "+jsonKind(v))
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		if !isName(k) {
			return nil, &ArgError{Tool: t.Name, Param: "env", Rule: "env", Msg: fmt.Sprintf("names %s, which is not a valid variable name", printable(k))}
		}
		if !slices.Contains(st.envAllow, k) {
			return nil, &ArgError{Tool: t.Name, Param: "env", Rule: "env", Msg: fmt.Sprintf("may not set %s: system_command sets only the variables "+
				"listed in settings.system_command.env (%s)", k, st.envList())}
		}
		s, ok := m[k].(string)
		if !ok {
			return nil, &ArgError{Tool: t.Name, Param: "env", Rule: "type", Msg: fmt.Sprintf("sets %s to %s; want a string", k, jsonKind(m[k]))}
		}
		if p := textProblem(s, false); p != "" {
			return nil, &ArgError{Tool: t.Name, Param: "env", Rule: "text", Msg: fmt.Sprintf("sets %s to a value that contains %s", k, p)}
		}
		out = append(out, k+"="+s)
	}
	return out, nil
}

// envList names the variables a call may set, for messages.
func (st *systemTool) envList() string {
	if len(st.envAllow) == 0 {
		return "none are"
	}
	return "only " + strings.Join(st.envAllow, ", ")
}

// dangerousEnv reports variables that change which code a program loads
// or runs, or what the runner itself pins. Listing one in
// settings.system_command.env is a load error: it would turn every allowed
// program into any program.
func dangerousEnv(k string) bool {
	for _, prefix := range []string{"LD_", "DYLD_", "PYTHON", "PERL", "RUBY", "NODE_", "GIT_", "BASH_FUNC_", "MALLOC_", "GLIBC_"} {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	switch k {
	case "BASH_ENV", "ENV", "IFS", "PAGER", "EDITOR", "VISUAL", "PATH", "HOME", "SHELL", "SHELLOPTS",
		"BASHOPTS", "PS4", "PROMPT_COMMAND", "CDPATH", "GLOBIGNORE", "GCONV_PATH", "LOCPATH", "TERM",
		"HOSTALIASES", "RESOLV_HOST_CONF", "JAVA_TOOL_OPTIONS", "OPENSSL_CONF", "OPENSSL_MODULES",
		"OPENSSL_ENGINES", "NLSPATH", "LD_LIBRARY_PATH":
		return true
	}
	return false
}
