package journal

import "fmt"

// limits fills in what the report can and cannot prove: what a seal,
// a head file and a hash chain show, and where each stops. sealed says
// seals were checked with the key at keyPath.
func (r *Report) limits(sealed bool, keyPath string) {
	chainOnly := "no record was changed, removed, inserted or reordered before the last record of each " +
		"chain, unless every hash after the change was recomputed"
	if !sealed {
		r.Proves = []string{chainOnly}
		r.CannotProve = []string{
			"that no records were cut from the end",
			"that the records were not rewritten with every hash after the change recomputed, which needs no key",
		}
		return
	}
	r.Proves = []string{
		"no record was changed, removed, inserted or reordered up to each segment's last seal, even with " +
			"every hash after it recomputed, except by someone holding the key",
		"no file of a segment is missing between its first and its last",
		"no segment was cut short of the head its head file records",
	}
	r.CannotProve = []string{
		fmt.Sprintf("the records after a segment's last seal (at most %d records or %v of writing, with the "+
			"default settings) can be changed or cut with the chain recomputed", DefaultSealEvery, DefaultSealInterval),
		fmt.Sprintf("whoever can read the key (%s) can forge seals and head files, and so rewrite anything", keyPath),
		"a segment deleted together with its head file leaves no trace, nor does an older head file put back " +
			"with its segment cut to match",
		"so keep the output of `assent log --head` where the journal's writers cannot reach, and compare it later",
	}
}
