// Package trace is a session's trace.jsonl (session.md §10): one record
// type per event, fields in the spec's order, and a writer that puts each
// line in the file as it is written, so a killed run keeps every record it
// finished. Read parses a file back, keeping each line's key order.
package trace
