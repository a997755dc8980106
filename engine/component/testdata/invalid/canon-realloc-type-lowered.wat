;; Names a lowered function of the wrong core type as realloc.
(component
  (import "count" (func $count (param "s" string) (result u32)))
  (import "tick" (func $tick))
  (core module $mem
    (memory (export "memory") 1))
  (core instance $m (instantiate $mem))
  (alias core export $m "memory" (core memory $memory))
  (core func $count-core (canon lower (func $count) (memory $memory)))
  (core func $tick-core (canon lower (func $tick)))
  (type $t (func (param "s" string) (result u32)))
  (func $again (type $t) (canon lift (core func $count-core) (memory $memory) (realloc (core func $tick-core))))
  (export "count" (func $again))
)
