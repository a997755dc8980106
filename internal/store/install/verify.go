package install

// verify is step 2, before a byte of the package is parsed: the bytes must
// hash to the digest the source recorded for them. It returns the digest.
func verify(r *Resolved) (string, error) {
	sha, err := r.Package.Digest()
	if err != nil {
		return "", failure(StepVerify, err)
	}
	return sha, nil
}
