package main

import (
	"bufio"
	"bytes"
	osexec "os/exec"
	"strconv"
	"strings"
	"testing"
)

// No package's init may cost a start much: each is measured by the
// runtime (GODEBUG=inittrace=1) in bytes allocated, which, unlike time,
// is the same on every run. santhosh-tekuri/jsonschema's allocated 1.7 MB
// (compiling every JSON Schema draft, in 3 to 8 ms here) until third_party's copy
// put that off to its first use; assent never uses it. The largest left is
// under 100 KB.
func TestE2E_NoPackageInitAllocatesMuch(t *testing.T) {
	const limit = 256 << 10
	e := newE2E(t)
	cmd := osexec.Command(e.bin, "--version")
	cmd.Env = append(e.env, "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("assent --version: %v\n%s", err, stderr.Bytes())
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init github.com/santhosh-tekuri/jsonschema/v6 @3.1 ms, 7.9 ms clock, 1712640 bytes, 22466 allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("reading %q: %v", sc.Text(), err)
		}
		seen[f[1]] = true
		if n > limit {
			t.Errorf("package %s's init allocates %d bytes, more than %d at every start", f[1], n, limit)
		}
	}
	for _, pkg := range []string{"runtime", "github.com/santhosh-tekuri/jsonschema/v6"} {
		if !seen[pkg] {
			t.Errorf("no init line for %s in assent's inittrace:\n%s", pkg, stderr.Bytes())
		}
	}
}
