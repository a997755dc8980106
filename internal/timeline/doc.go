// Package timeline shows a session to someone who was not there, from
// its transcript.jsonl (package transcript): Build pairs each step's
// start and end into tasks, turns and steps; WriteText prints the
// transcript for a terminal (`mur trace transcript`); WriteHTML writes
// one self-contained page with each task's timeline, its tokens per turn
// and the transcript (`mur trace html`).
//
// Everything shown comes from a file guests can write, with text from
// guests and models: Build makes every string printable (no control or
// bidirectional character reaches a terminal or the page), it runs in
// time linear in the entries, and the page is escaped by html/template,
// has no script, and forbids every load in its Content Security Policy.
package timeline
