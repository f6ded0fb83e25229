package journal

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestScanner_StopsAtABadLine(t *testing.T) {
	path := journalOf(t, 1)
	lines := readLines(t, path)
	lines = slices.Insert(lines, 2, []byte("{oops"))
	writeLines(t, path, lines)

	recs, err := Read(path)
	if err == nil || !strings.Contains(err.Error(), "line 3 is not a record") {
		t.Errorf("Read = %v, want an error naming line 3", err)
	}
	if len(recs) != 2 {
		t.Errorf("Read returned %d records before the bad line, want 2", len(recs))
	}
	if _, err := Read(path + ".none"); !os.IsNotExist(err) {
		t.Errorf("Read of a missing file = %v", err)
	}
}
