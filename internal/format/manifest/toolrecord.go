package manifest

import (
	"errors"
	"strings"

	"github.com/mur-go/mur/internal/base/manifestio"
)

// ToolRecord is a tool manifest read the way the tool inventory reads one
// (session.md §2.1, §2.3) rather than validated as an artifact: what an
// on-stage hook's write-manifests puts in tools/<binary>/murmur.yaml.
// Murmur's inventory requires no key of such a file, so none is required
// here; it only has to be one YAML mapping.
type ToolRecord struct {
	// Runtime is the runtime key as written ("" when absent or not a
	// string); the inventory leaves driver and hook out.
	Runtime string
	// Description is trimmed ("" when absent or not a string).
	Description string
	// InputSchema is input_schema, else input, as compact JSON (a string
	// holding JSON, or a YAML mapping); DefaultInputSchema when the key is
	// absent or its value unusable.
	InputSchema string
}

// ParseToolRecord reads data as a tool record; filename is for messages.
// It fails on text that is not YAML or whose root is not a mapping.
func ParseToolRecord(data []byte, filename string) (*ToolRecord, error) {
	if len(data) > MaxSize {
		return nil, manifestio.TooLarge(filename, int64(len(data)))
	}
	root, err := parseYAML(data, filename)
	if err != nil {
		return nil, err
	}
	d := &decoder{file: filename, typeC: CodeInvalid}
	if kindOf(root) != kindMapping {
		d.typeError("<root>", root, "mapping")
		return nil, errors.Join(d.errs...)
	}
	o := d.object(root, "", nil)
	if len(d.errs) > 0 {
		return nil, errors.Join(d.errs...)
	}
	r := &ToolRecord{Runtime: lenientString(o, "runtime"), Description: strings.TrimSpace(lenientString(o, "description")),
		InputSchema: DefaultInputSchema}
	key := "input_schema"
	if _, ok := o.get(key); !ok {
		key = "input"
	}
	if s, ok := lenientSchema(o, key); ok {
		r.InputSchema = s
	}
	return r, nil
}
