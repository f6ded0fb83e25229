package config

import (
	"errors"
	"strings"
	"testing"
)

// TestSystemCommand_EnvIsAnAllowList sets the variables that were accepted
// by the old deny-list and changed what an allowed program did (a provider
// .so run by curl through OPENSSL_CONF, a .curlrc through XDG_CONFIG_HOME):
// by default none may be set, and each refusal names the variable.
func TestSystemCommand_EnvIsAnAllowList(t *testing.T) {
	opts := testOptions(t)
	byDefault := mustLoad(t, opts, "sc.json", `{"settings": {"system_command": {"allow": ["ls"]}}}`).Tool(SystemCommandName)
	for _, name := range []string{"OPENSSL_CONF", "OPENSSL_MODULES", "XDG_CONFIG_HOME", "http_proxy", "HTTPS_PROXY",
		"CURL_CA_BUNDLE", "SSLKEYLOGFILE", "NLSPATH", "RES_OPTIONS", "TMPDIR", "TZ"} {
		_, err := byDefault.Expand(map[string]any{"command": "ls", "env": map[string]any{name: "/tmp/x"}})
		var ae *ArgError
		want := `parameter "env" may not set ` + name + ": system_command sets only the variables listed in settings.system_command.env (none are)"
		if !errors.As(err, &ae) || ae.Rule != "env" || !strings.Contains(err.Error(), want) {
			t.Errorf("env %s: %v, want %q", name, err, want)
		}
	}
	listed := mustLoad(t, opts, "sc.json", `{"settings": {"system_command": {"allow": ["ls"], "env": ["TZ", "LC_ALL"]}}}`).Tool(SystemCommandName)
	cmd, err := listed.Expand(map[string]any{"command": "ls", "env": map[string]any{"TZ": "UTC", "LC_ALL": "C"}})
	if err != nil || strings.Join(cmd.Env, " ") != "LC_ALL=C TZ=UTC" {
		t.Fatalf("listed variables: %v, %q", err, cmd.Env)
	}
	if _, err := listed.Expand(map[string]any{"command": "ls", "env": map[string]any{"OPENSSL_CONF": "/x"}}); err == nil ||
		!strings.Contains(err.Error(), "(only LC_ALL, TZ)") {
		t.Fatalf("unlisted variable: %v", err)
	}
}

func TestSystemCommand_EnvSettingRefusesLoaders(t *testing.T) {
	for _, name := range []string{"LD_PRELOAD", "PATH", "OPENSSL_CONF", "BASH_ENV", "PYTHONPATH"} {
		_, err := load(t, testOptions(t), "sc.json", `{"settings": {"system_command": {"allow": ["ls"], "env": ["`+name+`"]}}}`)
		if err == nil || !strings.Contains(err.Error(), "settings.system_command.env[0]: "+name+" changes which code") {
			t.Errorf("allowing %s: %v", name, err)
		}
	}
}

func TestSystemCommand_OffersOnlyInstalledPrograms(t *testing.T) {
	c := mustLoad(t, testOptions(t), "sc.json", `{"settings": {"system_command": {"allow": ["ls", "no-such-tool-xyz", "cat"]}}}`)
	tool := c.Tool(SystemCommandName)
	if !strings.HasSuffix(tool.Description, "Allowed programs: cat, ls.") || strings.Contains(tool.Description, "no-such") {
		t.Errorf("description %q", tool.Description)
	}
	if d := tool.Param("command").Description; strings.Contains(d, "no-such") {
		t.Errorf("command parameter %q", d)
	}
	_, err := tool.Expand(map[string]any{"command": "rm"})
	if want := `tool "system_command": parameter "command": Command not allowed: rm`; err == nil || err.Error() != want {
		t.Errorf("refusal %q, want %q", err, want)
	}
}
