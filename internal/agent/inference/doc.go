// Package inference holds what every driver call shares, whoever makes
// it (the agent loop's turns, a hook's run-inference): the retry policy
// of inference.retry and the spend meter of inference.max_session_tokens
// (session.md §13, Murmur 0.10 behaviour).
package inference
