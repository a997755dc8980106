package expctxkeys

// ModuleDigest is a context.Context Value key (a mur patch). Its
// associated value is a [32]byte, the SHA-256 of the binary being
// compiled, which the module's ID is then derived from instead of
// hashing the binary again.
type ModuleDigest struct{}
