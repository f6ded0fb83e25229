// Command manytools prints a tool file of n tools, the one the startup
// measurements load: go run ./bench/manytools 200 > tools.json
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/assent-sh/assent/server/servertest"
)

func main() {
	n, err := strconv.Atoi(os.Args[len(os.Args)-1])
	if len(os.Args) != 2 || err != nil || n < 1 {
		fmt.Fprintln(os.Stderr, "usage: manytools N (a count of tools, at least 1)")
		os.Exit(2)
	}
	fmt.Print(servertest.ManyTools(n))
}
