//go:build !unix

package firstparty_test

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
