//go:build !unix

package wasip2

func errnoCode(error) (uint32, bool) { return 0, false }
