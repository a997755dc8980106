// Package telemetry exports a session's spans over OTLP (HTTP/protobuf or
// gRPC) when the manifest's observability.otel_endpoint or the standard
// OTEL_EXPORTER_OTLP_* environment variables name a collector.
//
// The spans follow the OpenTelemetry GenAI semantic conventions: a task
// is invoke_agent, a model call chat, a tool call execute_tool; hooks and
// compaction have spans of mur's own; a script capsule's run is
// invoke_workflow. They are made from the loop's observe events, so
// nothing in the loop knows of OpenTelemetry, and they carry names, ids,
// token counts and outcomes, never message contents.
//
// Export never holds up a run: spans wait in a bounded queue and the
// overflow is dropped and counted; a collector that is down, refuses or
// hangs costs at most the session's flush deadline at its end and is
// reported as warning W-RUN-002 and in trace.jsonl's telemetry record,
// never as a failure. Header values from the environment are credentials:
// sent only to the endpoint the environment names, redacted from the
// session's files, stripped from every guest's environment (policy).
package telemetry
