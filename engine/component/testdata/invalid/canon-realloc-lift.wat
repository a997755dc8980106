;; Lifting a function with a string parameter without realloc.
(component
  (core module $m (memory (export "mem") 1) (func (export "f") (param i32 i32)))
  (core instance $i (instantiate $m))
  (alias core export $i "mem" (core memory $mem))
  (func (param "s" string) (canon lift (core func $i "f") (memory $mem)))
)
