package install

import "github.com/mur-go/mur/internal/format/artifact"

// verify is step 2, before a byte of the package is parsed: the bytes must
// hash to the digest the source recorded for them. It returns the digest.
func verify(r *Resolved) (string, error) {
	if err := r.Package.Verify(); err != nil {
		return "", failure(StepVerify, err)
	}
	return artifact.SHA256Hex(r.Package.Data), nil
}
