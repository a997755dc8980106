package registry

import (
	"errors"
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
)

// verifyPackage is what a store checks before it accepts a package:
// artifact.Verify (every entry's CRC and sizes, the manifest parses) and
// that the manifest is the artifact meta describes. Stored packages are
// immutable, so a corrupt one refused here is never found at run time.
func verifyPackage(meta artifact.Meta, data []byte) error {
	m, err := artifact.Verify(data, artifact.DefaultMaxDecompressedBytes)
	if err != nil {
		refused := diag.Wrap(CodeIO, fmt.Errorf("%w: %w", ErrInvalidInput, err), "package for %s refused: %v", meta.ID(), err)
		var d *diag.Error
		if errors.As(err, &d) {
			refused.Hint = d.Hint
		}
		return refused
	}
	if m.Name != meta.Name || m.Version != meta.Version {
		return &diag.Error{Code: CodeIO, Err: ErrInvalidInput,
			Msg:  fmt.Sprintf("package for %s refused: its murmur.yaml says %s@%s", meta.ID(), m.Name, m.Version),
			Hint: "publish the package under the name and version its manifest declares"}
	}
	return nil
}
