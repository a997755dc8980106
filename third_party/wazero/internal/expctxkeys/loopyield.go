package expctxkeys

// LoopYield is a context.Context Value key (a mur patch). Its associated
// value is an experimental.LoopYield, read when a runtime is created.
type LoopYield struct{}
