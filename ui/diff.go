package ui

// diffOp is one line of a diff: an argv element or a line of stdin.
type diffOp struct {
	kind byte // ' ' kept, '-' removed, '+' added
	word string
}

// maxDiffCells bounds the table a diff builds: past it, the part between
// the common beginning and end is shown as all removed, then all added.
// It is still exact about what changes; only less precise about where.
const maxDiffCells = 4 << 20

// diff compares two lists element by element (longest common
// subsequence), so an edit shows exactly which words or lines it removes
// and adds.
func diff(a, b []string) []diffOp {
	var out []diffOp
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		out = append(out, diffOp{' ', a[0]})
		a, b = a[1:], b[1:]
	}
	var tail []diffOp
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		tail = append(tail, diffOp{' ', a[len(a)-1]})
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	n, m := len(a), len(b)
	if (n+1)*(m+1) > maxDiffCells {
		for _, w := range a {
			out = append(out, diffOp{'-', w})
		}
		for _, w := range b {
			out = append(out, diffOp{'+', w})
		}
	} else {
		out = append(out, lcsDiff(a, b)...)
	}
	for i := len(tail) - 1; i >= 0; i-- {
		out = append(out, tail[i])
	}
	return out
}

// lcsDiff is the diff of a and b by their longest common subsequence.
func lcsDiff(a, b []string) []diffOp {
	n, m := len(a), len(b)
	// lcs[i][j] is the length of the LCS of a[i:] and b[j:].
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []diffOp
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			out = append(out, diffOp{' ', a[i]})
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, diffOp{'-', a[i]})
			i++
		default:
			out = append(out, diffOp{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, diffOp{'-', a[i]})
	}
	for ; j < m; j++ {
		out = append(out, diffOp{'+', b[j]})
	}
	return out
}
