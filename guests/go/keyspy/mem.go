//go:build wasip1

package main

// memorySize is the linear memory's size in 64 KiB pages (mem_wasm.s).
func memorySize() int32
