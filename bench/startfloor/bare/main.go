// Command bare is the least a Go process can be that answers an MCP
// client's first message: it writes one JSON-RPC result for each line it
// reads. bench/load -startup times its start, beside assent's, as the
// floor of any Go server's start on the machine.
package main

import (
	"bufio"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		os.Stdout.WriteString(`{"jsonrpc":"2.0","id":0,"result":{}}` + "\n")
	}
}
