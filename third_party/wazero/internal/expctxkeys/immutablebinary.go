package expctxkeys

// ImmutableBinary is a context.Context Value key (a mur patch). Its
// associated value, true, says the binary being compiled is never
// written to afterwards, so the decoded module may refer into it.
type ImmutableBinary struct{}
