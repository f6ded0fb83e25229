package jsonschema

import "testing"

// compiledAtInit records, from the last init function of the package's
// files (this file's name sorts after draft.go's), whether the drafts were
// compiled before anything asked for a Compiler.
var compiledAtInit bool

func init() { compiledAtInit = Draft2020.sch != nil }

// Changed for assent from v6.0.2: an init function compiled every draft
// in every program that linked the package; now the first Compiler does.
func TestDraftsAreNotCompiledAtInit(t *testing.T) {
	if compiledAtInit {
		t.Fatal("the drafts were compiled at init")
	}
	NewCompiler()
	for _, d := range []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020} {
		if d.sch == nil {
			t.Errorf("%s: not compiled once a Compiler was made", d)
		}
		for name, sch := range d.allVocabs {
			if sch == nil {
				t.Errorf("%s: vocabulary %s not compiled once a Compiler was made", d, name)
			}
		}
	}
}
