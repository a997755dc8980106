//go:build !linux

package main

// nonDumpable has no portable equivalent outside Linux; other systems
// already keep a process's environment from unrelated readers or offer no
// per-process switch.
func nonDumpable() error { return nil }
