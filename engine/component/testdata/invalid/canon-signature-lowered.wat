;; Lifts a lowered function at its own type, whose result needs memory: the
;; lowered core signature (i32 i32 i32) -> () is not the lift's
;; (i32 i32) -> (i32).
(component
  (import "greet" (func $greet (param "s" string) (result string)))
  (core module $mem
    (memory (export "memory") 1)
    (func (export "realloc") (param i32 i32 i32 i32) (result i32) i32.const 16))
  (core instance $m (instantiate $mem))
  (alias core export $m "memory" (core memory $memory))
  (alias core export $m "realloc" (core func $realloc))
  (core func $lowered (canon lower (func $greet) (memory $memory) (realloc (core func $realloc))))
  (type $t (func (param "s" string) (result string)))
  (func $again (type $t) (canon lift (core func $lowered) (memory $memory) (realloc (core func $realloc))))
  (export "greet" (func $again))
)
