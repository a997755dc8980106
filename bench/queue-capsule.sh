# Sourced by the bench scripts (from their own directory, bench/NAME):
# queue_capsule DIR writes the capsule they all measure at DIR, a
# queue+sleep agent whose scripted driver answers "bench answer" at once,
# and the driver's package source at DIR/pkg (build it with
# `mur build DIR/pkg -o OUT`, install OUT/scripted-0.1.0.mur.zip).
queue_capsule() {
	local cap="$1"
	mkdir -p "$cap/pkg"
	cp ../../guests/out/scripted-go.wasm "$cap/pkg/scripted.wasm"
	printf 'name: scripted\nversion: "0.1.0"\nruntime: driver\ndescription: the scripted driver\nrequires_files: [scripted.wasm]\n' >"$cap/pkg/murmur.yaml"
	cat >"$cap/murmur.yaml" <<'YAML'
name: bench
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"text": "bench answer"}]}
artifacts:
  - {name: scripted, version: "0.1.0", runtime: driver}
lifecycle:
  task_acceptance: queue
  after_task: sleep
  queue_depth: 64
YAML
}
