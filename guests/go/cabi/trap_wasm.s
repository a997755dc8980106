//go:build wasip1

#include "textflag.h"

TEXT ·Trap(SB), NOSPLIT, $0-0
	Unreachable
