package config

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxScriptDepth bounds how many "#!" interpreters deep a program is
// followed, as the kernel bounds how many it will run through.
const maxScriptDepth = 4

// interpreterChain lists the programs that running the file at path runs
// through, in order: for a "#!" script the interpreter its first line
// names, and when that is env(1), the program env runs, found on pathList
// as env would find it; then the same for each of those that is a script
// itself, up to maxScriptDepth interpreters. Names are absolute and clean,
// with symlinks left as written, since a link can be retargeted as well as
// its target rewritten. Both the sandbox's read set and the check that no
// tool can replace a program follow this one list, so neither can stop
// short of the other.
//
// A script whose interpreter (or env's program) is a relative path is an
// *relativeInterpreter, returned with the chain up to that script: the kernel, or env,
// would look for it in each call's working directory. An env program that
// is not installed ends the chain: the call will fail to find it.
func interpreterChain(path, pathList string) ([]string, error) {
	var chain []string
	for range maxScriptDepth {
		script := path
		words := strings.Fields(shebang(path))
		if len(words) == 0 {
			return chain, nil
		}
		if !filepath.IsAbs(words[0]) {
			return chain, &relativeInterpreter{script: script, name: words[0]}
		}
		path = filepath.Clean(words[0])
		chain = append(chain, path)
		if filepath.Base(path) != "env" {
			continue
		}
		name := envProgram(words[1:])
		if strings.Contains(name, "/") && !filepath.IsAbs(name) {
			return chain, &relativeInterpreter{script: script, name: name}
		}
		next, err := ResolveProgram(name, pathList)
		if err != nil {
			return chain, nil
		}
		path = next
		chain = append(chain, path)
	}
	return chain, nil
}

// envProgram returns the program an env(1) #! line runs: its first word
// that is neither an option nor NAME=value.
func envProgram(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-u" || a == "--unset" || a == "-C" || a == "--chdir":
			i++
		case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
		default:
			return a
		}
	}
	return ""
}

// shebang returns the interpreter line of a #! script without the "#!",
// or "" for any other file.
func shebang(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := io.ReadFull(f, buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	if !strings.HasPrefix(line, "#!") {
		return ""
	}
	return strings.TrimSpace(line[2:])
}

// relativeInterpreter is a script whose "#!" line names a relative path.
type relativeInterpreter struct {
	script string // the script, as named in the chain
	name   string // the relative path its line names
}

func (e *relativeInterpreter) Error() string {
	return "its #! line names the interpreter " + strconv.Quote(e.name) + " by a relative path, which would be looked up in the working directory of each call; write an absolute path"
}
