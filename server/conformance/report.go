package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// reportFailures prints the failed checks of every scenario not in the
// expected-failures file, from the suite's results directory, so that a
// red CI says why without the results (which are removed).
func reportFailures(w io.Writer, results, expectedFile string) {
	expected := map[string]bool{}
	if data, err := os.ReadFile(expectedFile); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if name, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
				expected[strings.Fields(name)[0]] = true
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(results, "*", "checks.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var checks []struct {
			ID, Status, ErrorMessage string
			Details                  json.RawMessage
		}
		if json.Unmarshal(data, &checks) != nil {
			continue
		}
		scenario := strings.TrimPrefix(filepath.Base(filepath.Dir(f)), "server-")
		if i := strings.LastIndex(scenario, "-20"); i > 0 {
			scenario = scenario[:i] // the results directory ends with a timestamp
		}
		if expected[scenario] {
			continue
		}
		for _, c := range checks {
			if c.Status == "FAILURE" {
				fmt.Fprintf(w, "conformance: %s: check %s failed: %s\n  details: %.2000s\n", scenario, c.ID, c.ErrorMessage, c.Details)
			}
		}
	}
}
