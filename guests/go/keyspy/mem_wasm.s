#include "textflag.h"

// func memorySize() int32
TEXT ·memorySize(SB), NOSPLIT, $0-4
	Get SP
	CurrentMemory
	I32Store ret+0(FP)
	RET
