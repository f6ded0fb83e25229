package jsonschema_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Changed for assent from v6.0.2: the drafts compile when the first
// Compiler is made (lazy_internal_test.go checks that init does not). A
// schema is still checked against its draft's metaschema from the first
// Compiler on, and Compilers made at once on many goroutines all see the
// compiled drafts.
func TestDraftsCompileForTheFirstCompiler(t *testing.T) {
	const bad = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": 5}`
	const good = `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["a"]}`
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := jsonschema.NewCompiler()
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
			if err != nil {
				t.Error(err)
				return
			}
			if err := c.AddResource("bad.json", doc); err != nil {
				t.Error(err)
				return
			}
			var sverr *jsonschema.SchemaValidationError
			if _, err := c.Compile("bad.json"); !errors.As(err, &sverr) {
				t.Errorf("compiler %d: a type of 5 compiled (err %v), want a SchemaValidationError", i, err)
			}
			c = jsonschema.NewCompiler()
			doc, _ = jsonschema.UnmarshalJSON(strings.NewReader(good))
			if err := c.AddResource("good.json", doc); err != nil {
				t.Error(err)
				return
			}
			sch, err := c.Compile("good.json")
			if err != nil {
				t.Errorf("compiler %d: %v", i, err)
				return
			}
			if sch.Validate(map[string]any{}) == nil {
				t.Errorf("compiler %d: an object without `a` passed a schema that requires it", i)
			}
			if err := sch.Validate(map[string]any{"a": 1}); err != nil {
				t.Errorf("compiler %d: %v", i, err)
			}
		}(i)
	}
	wg.Wait()
}
