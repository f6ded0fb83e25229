package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print assent's version, the source revision it was built from and the Go version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			printVersion(cmd.OutOrStdout())
			return nil
		},
	}
}

// printVersion writes the version line `assent version` and `assent
// --version` print.
func printVersion(w io.Writer) { fmt.Fprintln(w, "assent "+versionLine()) }

// buildVersion is the module version the binary was built from, as MCP
// clients are told it (serverInfo.version): the tagged version, else the
// pseudo-version of the revision, else "dev" with the revision.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	if rev := setting(bi, "vcs.revision"); rev != "" {
		v := "dev+" + rev[:min(12, len(rev))]
		if setting(bi, "vcs.modified") == "true" {
			v += "-modified"
		}
		return v
	}
	return "dev"
}

// versionLine is the version with the revision's time and the Go version.
func versionLine() string {
	parts := []string{buildVersion()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if t := setting(bi, "vcs.time"); t != "" {
			parts = append(parts, "built from a revision of "+t)
		}
		parts = append(parts, bi.GoVersion)
	}
	return strings.Join(parts, " · ")
}

func setting(bi *debug.BuildInfo, key string) string {
	for _, s := range bi.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}
