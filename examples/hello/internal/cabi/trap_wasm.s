//go:build wasip1

#include "textflag.h"

TEXT ·trap(SB), NOSPLIT, $0-0
	Unreachable
