// Package hooks runs a capsule's lifecycle hooks (wit.md §6): it
// instantiates each staged hook component under its own sandbox, calls the
// murmur:hook/lifecycle functions at the agent loop's hook points
// (agent.Hooks), commits the output arm each event honours, isolates every
// hook failure into logs/hook-<name>.log, runs async hooks on bounded
// queues, serves murmur:runtime/inference's run-inference through the
// capsule's own driver, and signs checkpoint files (§6.10).
//
// Wiring, for the session that runs a capsule:
//
//	stage.Options{..., OnStage: hooks.OnStage(hooks.Options{GuestIO: guests})}
//	rt, err := hooks.New(ctx, hooks.Options{Staged: s.Hooks(), Driver: at.Driver,
//		CompactionDriver: at.CompactionDriver, // inference.compaction.driver_config's
//		DriverName: s.Capsule.Inference.Driver.Artifact, CountTokens: counter.Count, ...})
//	defer rt.Close(ctx) // drains async hooks
//	agent.Options{..., Hooks: rt}
package hooks
